import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager, type Actor, type AuditEvent } from '../../src/lifecycle/create-webhook-manager.js';
import { isChannelWebhookError } from '../../src/errors.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookRecord, WebhookStore } from '../../src/ports.js';
import { request, splitUrl } from '../support/setup.js';

const CHANNEL_OWNER: Actor = { userId: 'u-chan', role: 'member' };
const ORG_OWNER: Actor = { userId: 'u-org-owner', role: 'owner' };
const ORG_ADMIN: Actor = { userId: 'u-org-admin', role: 'admin' };
const OTHER_MEMBER: Actor = { userId: 'u-other', role: 'member' };

/** A memory store whose channels the host app can delete, as a real app's can. */
function createDeletableStore() {
  const inner = createMemoryStore();
  const deleted = new Set<string>();
  const store = {
    ...inner,
    async getChannel(channelId: string) {
      return deleted.has(channelId) ? null : inner.getChannel(channelId);
    },
    async putChannel(channel: Parameters<typeof inner.putChannel>[0]) {
      deleted.delete(channel.id);
      await inner.putChannel(channel);
    },
    deleteChannel(channelId: string) {
      deleted.add(channelId);
    },
  };
  return store;
}

async function world(
  options: {
    onAudit?: (event: AuditEvent) => void | Promise<void>;
    onError?: (error: unknown, context: unknown) => void;
  } = {},
) {
  const clock = createFakeClock();
  const store = createDeletableStore();
  await store.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
  await store.putChannel({ id: 'other', ownerId: CHANNEL_OWNER.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock, ...options });
  const handle = createWebhookHandler({ store, clock });
  const post = (url: string, text: string) => handle(request(url, { text }));
  return { clock, store, manager, post };
}

async function rejection(action: Promise<unknown>): Promise<{ code: unknown; name: unknown; message: string }> {
  try {
    await action;
  } catch (error) {
    return error as { code: unknown; name: unknown; message: string };
  }
  throw new Error('expected a rejection');
}

function expectCode(error: unknown, code: string): void {
  expect(error).toMatchObject({ name: 'ChannelWebhookError', code, message: expect.any(String) });
  expect(isChannelWebhookError(error, code as never)).toBe(true);
}

describe('orphaned webhooks (the app deleted the channel)', () => {
  it.each([
    ['an organization owner', ORG_OWNER],
    ['an organization admin', ORG_ADMIN],
  ])('%s can revoke one, and the URL stays dead when a channel with the same id comes back', async (_, actor) => {
    const w = await world();
    const { webhook, url } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    w.store.deleteChannel('ops');
    w.clock.advance(1_000);
    const revoked = await w.manager.revoke(actor, webhook.id);
    expect(revoked).toEqual({ ...webhook, revokedAt: w.clock.now(), status: 'revoked' });
    await w.store.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
    const answer = await w.post(url, 'back from the dead?');
    expect(answer.status).toBe(404);
    expect(await w.store.listMessages('ops')).toEqual([]);
  });

  it('a member, even the former channel owner, is forbidden: the channel owner cannot be known any more', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    w.store.deleteChannel('ops');
    for (const actor of [CHANNEL_OWNER, OTHER_MEMBER]) {
      const error = await rejection(w.manager.revoke(actor, webhook.id));
      expectCode(error, 'forbidden');
      expect(error.message).toContain('only organization owners and admins');
    }
    expect((await w.store.getWebhook(webhook.id))!.revokedAt).toBeNull();
  });

  it('rotate, get and list on a deleted channel still answer channel_not_found', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    w.store.deleteChannel('ops');
    expectCode(await rejection(w.manager.rotate(ORG_OWNER, webhook.id)), 'channel_not_found');
    expectCode(await rejection(w.manager.get(ORG_OWNER, webhook.id)), 'channel_not_found');
    expectCode(await rejection(w.manager.list(ORG_OWNER, 'ops')), 'channel_not_found');
  });
});

describe('revokeAll', () => {
  it('revokes every active webhook of the channel, returns those it revoked, and leaves other channels alone', async () => {
    const w = await world();
    const a = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'A' });
    const b = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'B' });
    const c = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'C' });
    const elsewhere = await w.manager.create(CHANNEL_OWNER, { channelId: 'other', name: 'D' });
    await w.manager.revoke(CHANNEL_OWNER, b.webhook.id);
    w.clock.advance(3_000);
    const revoked = await w.manager.revokeAll(CHANNEL_OWNER, 'ops');
    expect(revoked).toEqual([
      { ...a.webhook, revokedAt: w.clock.now(), status: 'revoked' },
      { ...c.webhook, revokedAt: w.clock.now(), status: 'revoked' },
    ]);
    for (const { url } of [a, b, c]) expect((await w.post(url, 'x')).status).toBe(404);
    expect((await w.post(elsewhere.url, 'x')).status).toBe(201);
    expect(await w.manager.revokeAll(CHANNEL_OWNER, 'ops')).toEqual([]);
  });

  it('works on a channel the app already deleted, for organization owners and admins only', async () => {
    const w = await world();
    const a = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'A' });
    w.store.deleteChannel('ops');
    expectCode(await rejection(w.manager.revokeAll(CHANNEL_OWNER, 'ops')), 'forbidden');
    expect((await w.manager.revokeAll(ORG_ADMIN, 'ops')).map((info) => [info.id, info.status])).toEqual([
      [a.webhook.id, 'revoked'],
    ]);
    await w.store.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
    expect((await w.post(a.url, 'x')).status).toBe(404);
  });

  it('works on an archived channel, and another member is forbidden', async () => {
    const w = await world();
    const a = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'A' });
    await w.store.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: true });
    expectCode(await rejection(w.manager.revokeAll(OTHER_MEMBER, 'ops')), 'forbidden');
    expect((await w.manager.revokeAll(CHANNEL_OWNER, 'ops')).map((info) => info.id)).toEqual([a.webhook.id]);
  });

  it('refuses a bad actor or channel id with invalid_argument', async () => {
    const w = await world();
    expectCode(await rejection(w.manager.revokeAll({ userId: 'u', role: 'root' } as never, 'ops')), 'invalid_argument');
    expectCode(await rejection(w.manager.revokeAll(ORG_OWNER, '')), 'invalid_argument');
  });
});

describe('audit events', () => {
  it('create, rotate and revoke each emit one event after the change, without secret or hash', async () => {
    const events: AuditEvent[] = [];
    const w = await world({ onAudit: (event) => void events.push(event) });
    const created = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    w.clock.advance(10);
    const rotated = await w.manager.rotate(ORG_ADMIN, created.webhook.id);
    w.clock.advance(10);
    await w.manager.revoke(ORG_OWNER, created.webhook.id);
    const base = { webhookId: created.webhook.id, channelId: 'ops', name: 'CI', description: null, avatarUrl: null };
    expect(events).toEqual([
      { type: 'webhook.created', ...base, actor: CHANNEL_OWNER, at: created.webhook.createdAt },
      { type: 'webhook.rotated', ...base, actor: ORG_ADMIN, at: rotated.webhook.rotatedAt },
      { type: 'webhook.revoked', ...base, actor: ORG_OWNER, at: w.clock.now() },
    ]);
    const record = await w.store.getWebhook(created.webhook.id);
    const shown = JSON.stringify(events);
    for (const secret of [splitUrl(created.url).secret, splitUrl(rotated.url).secret, record!.secretHash]) {
      expect(shown).not.toContain(secret);
    }
  });

  it('revoking an already revoked webhook, and refused or failed changes, emit nothing', async () => {
    const events: AuditEvent[] = [];
    const w = await world({ onAudit: (event) => void events.push(event) });
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    await w.manager.revoke(ORG_OWNER, webhook.id);
    events.length = 0;
    await w.manager.revoke(ORG_OWNER, webhook.id);
    expect(await w.manager.revokeAll(ORG_OWNER, 'ops')).toEqual([]);
    await rejection(w.manager.rotate(ORG_OWNER, webhook.id));
    await rejection(w.manager.create(OTHER_MEMBER, { channelId: 'ops', name: 'CI' }));
    await rejection(w.manager.create(ORG_OWNER, { channelId: 'ops', name: '' }));
    expect(events).toEqual([]);
  });

  it('a store that fails the change gets no event', async () => {
    const events: AuditEvent[] = [];
    const clock = createFakeClock();
    const inner = createMemoryStore();
    await inner.putChannel({ id: 'ops', ownerId: 'u', archived: false });
    const store: WebhookStore = {
      ...inner,
      insertWebhook: async () => {
        throw new Error('disk full');
      },
    };
    const manager = createWebhookManager({
      store,
      baseUrl: 'https://chat.example.com',
      clock,
      onAudit: (event) => void events.push(event),
    });
    await expect(manager.create(ORG_OWNER, { channelId: 'ops', name: 'CI' })).rejects.toThrow('disk full');
    expect(events).toEqual([]);
  });

  it('revokeAll emits one event per webhook it revoked', async () => {
    const events: AuditEvent[] = [];
    const w = await world({ onAudit: (event) => void events.push(event) });
    const a = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'A' });
    const b = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'B' });
    events.length = 0;
    await w.manager.revokeAll(ORG_OWNER, 'ops');
    expect(events.map((event) => [event.type, event.webhookId, event.name])).toEqual([
      ['webhook.revoked', a.webhook.id, 'A'],
      ['webhook.revoked', b.webhook.id, 'B'],
    ]);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('audit table gone');
      },
    ],
    [
      'rejects',
      async () => {
        throw new Error('audit table gone');
      },
    ],
  ])('a hook that %s neither undoes nor hides the change: it goes to onError', async (_, onAudit) => {
    const reported: unknown[][] = [];
    const w = await world({ onAudit, onError: (error, context) => void reported.push([error, context]) });
    const { webhook, url } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    expect(webhook.status).toBe('active');
    expect((await w.post(url, 'x')).status).toBe(201);
    const revoked = await w.manager.revoke(ORG_OWNER, webhook.id);
    expect(revoked.status).toBe('revoked');
    expect((await w.post(url, 'x')).status).toBe(404);
    expect(reported).toEqual([
      [
        expect.objectContaining({ message: 'audit table gone' }),
        {
          stage: 'on_audit',
          webhookId: webhook.id,
          channelId: 'ops',
          event: expect.objectContaining({ type: 'webhook.created', webhookId: webhook.id }),
        },
      ],
      [
        expect.objectContaining({ message: 'audit table gone' }),
        {
          stage: 'on_audit',
          webhookId: webhook.id,
          channelId: 'ops',
          event: expect.objectContaining({ type: 'webhook.revoked', webhookId: webhook.id }),
        },
      ],
    ]);
  });

  it('a failing onError is ignored too: the change still resolves', async () => {
    const w = await world({
      onAudit: () => {
        throw new Error('audit');
      },
      onError: () => {
        throw new Error('logger down');
      },
    });
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    expect((await w.store.getWebhook(webhook.id))!.name).toBe('CI');
  });

  it('the hook is awaited: the manager settles after the audit write', async () => {
    const order: string[] = [];
    const w = await world({
      onAudit: async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(event.type);
      },
    });
    await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    order.push('returned');
    expect(order).toEqual(['webhook.created', 'returned']);
  });
});

describe('lastPostAt', () => {
  it('get and list pass the record’s lastPostAt through, null when the store has none', async () => {
    const inner = createMemoryStore();
    await inner.putChannel({ id: 'ops', ownerId: 'u', archived: false });
    const stamps = new Map<string, number>();
    const withStamp = <T extends WebhookRecord>(record: T) => ({
      ...record,
      lastPostAt: stamps.get(record.id) ?? null,
    });
    const store: WebhookStore = {
      ...inner,
      getWebhook: async (id) => {
        const record = await inner.getWebhook(id);
        return record === null ? null : withStamp(record);
      },
      listWebhooks: async (channelId) => (await inner.listWebhooks(channelId)).map(withStamp),
    };
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock: createFakeClock() });
    const posted = await manager.create(ORG_OWNER, { channelId: 'ops', name: 'posted' });
    const silent = await manager.create(ORG_OWNER, { channelId: 'ops', name: 'silent' });
    expect(posted.webhook.lastPostAt).toBeNull();
    stamps.set(posted.webhook.id, 1_700_000_000_123);
    expect((await manager.get(ORG_OWNER, posted.webhook.id)).lastPostAt).toBe(1_700_000_000_123);
    expect((await manager.list(ORG_OWNER, 'ops')).map((info) => [info.name, info.lastPostAt])).toEqual([
      ['posted', 1_700_000_000_123],
      ['silent', null],
    ]);
    expect(
      (
        await createWebhookManager({ store: inner, baseUrl: 'https://chat.example.com' }).get(
          ORG_OWNER,
          silent.webhook.id,
        )
      ).lastPostAt,
    ).toBeNull();
  });
});

describe('lastPostAt at the epoch', () => {
  it('a post at time 0 (a fake clock at 0) is the last post: lastPostAt 0, not null', async () => {
    const store = createMemoryStore();
    await store.putChannel({ id: 'ops', ownerId: 'u', archived: false });
    const clock = createFakeClock(0);
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
    const { webhook, url } = await manager.create(ORG_OWNER, { channelId: 'ops', name: 'at zero' });
    const handle = createWebhookHandler({ store, clock });
    expect((await handle(request(new URL(url).pathname, { text: 'at the epoch' }))).status).toBe(201);
    expect((await manager.get(ORG_OWNER, webhook.id)).lastPostAt).toBe(0);
    expect((await manager.list(ORG_OWNER, 'ops')).map((info) => info.lastPostAt)).toEqual([0]);
    expect((await store.getWebhook(webhook.id))?.lastPostAt).toBe(0);
  });
});

describe('createWebhookManager arguments', () => {
  const store = createMemoryStore();
  it.each([
    ['no options', undefined],
    ['null options', null],
    ['no store', { baseUrl: 'https://chat.example.com' }],
    ['no baseUrl', { store }],
    ['a non-string baseUrl', { store, baseUrl: 42 }],
    ['a relative baseUrl', { store, baseUrl: '/api' }],
    ['a non-http baseUrl', { store, baseUrl: 'ftp://chat.example.com' }],
    ['a clock without now()', { store, baseUrl: 'https://chat.example.com', clock: {} }],
    ['a non-function onAudit', { store, baseUrl: 'https://chat.example.com', onAudit: 'log' }],
    ['a non-function onError', { store, baseUrl: 'https://chat.example.com', onError: {} }],
  ])('%s is refused with ChannelWebhookError invalid_argument', (_, options) => {
    let thrown: unknown;
    try {
      createWebhookManager(options as never);
    } catch (error) {
      thrown = error;
    }
    expectCode(thrown, 'invalid_argument');
  });
});
