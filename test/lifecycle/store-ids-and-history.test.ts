import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager, type Actor } from '../../src/lifecycle/create-webhook-manager.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { Channel, WebhookStore } from '../../src/ports.js';
import { request, settle } from '../support/setup.js';

const CHANNEL_OWNER: Actor = { userId: 'u-chan', role: 'member' };
const ORG_OWNER: Actor = { userId: 'u-org-owner', role: 'owner' };
const OTHER_MEMBER: Actor = { userId: 'u-other', role: 'member' };

async function rejection(action: Promise<unknown>): Promise<{ code?: unknown; message: string }> {
  try {
    await action;
  } catch (error) {
    return error as { code?: unknown; message: string };
  }
  throw new Error('expected a rejection');
}

describe("a store's own webhook ids (newWebhookId)", () => {
  it('the manager asks the store, for the channel, and the webhook works under that id', async () => {
    const inner = createMemoryStore();
    inner.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
    const asked: string[] = [];
    const store: WebhookStore = {
      ...inner,
      newWebhookId: (channelId) => (asked.push(channelId), `wh_ops${'A'.repeat(19)}`),
    };
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
    const { webhook, url } = await manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    expect(asked).toEqual(['ops']);
    expect(webhook.id).toBe(`wh_ops${'A'.repeat(19)}`);
    expect(url).toMatch(new RegExp(`/hooks/channels/${webhook.id}/[A-Za-z0-9_-]{43}$`));
    expect((await createWebhookHandler({ store })(request(url, { text: 'hi' }))).status).toBe(201);
  });

  it.each([
    ['too short', 'wh_abc'],
    ['no wh_ prefix', `xx_${'A'.repeat(22)}`],
    ['a slash', `wh_${'A'.repeat(21)}/`],
    ['not a string', 42],
  ])('an id of the wrong shape (%s) is a store_failed error, and nothing is created', async (_, id) => {
    const inner = createMemoryStore();
    inner.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
    const manager = createWebhookManager({
      store: { ...inner, newWebhookId: () => id as string },
      baseUrl: 'https://chat.example.com',
    });
    const error = await rejection(manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' }));
    expect(error).toMatchObject({ code: 'store_failed', message: expect.stringContaining('newWebhookId') });
    expect(inner.listWebhooks('ops')).toEqual([]);
  });
});

describe("the manager's history", () => {
  async function world(store: WebhookStore & { putChannel(channel: Channel): void } = createMemoryStore()) {
    const clock = createFakeClock();
    store.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
    const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
    const handle = createWebhookHandler({ store, clock });
    const { webhook, url } = await manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    return { clock, manager, handle, webhook, url };
  }

  it('lists what happened to the recent posts, newest first, at most `limit`, for those who may manage the webhook', async () => {
    const w = await world();
    for (const text of ['one', 'two', 'three']) await w.handle(request(w.url, { text }));
    await settle();
    const all = await w.manager.history(ORG_OWNER, w.webhook.id);
    expect(all.map((record) => record.status)).toEqual([201, 201, 201]);
    expect(await w.manager.history(CHANNEL_OWNER, w.webhook.id, { limit: 2 })).toEqual(all.slice(0, 2));
    expect((await rejection(w.manager.history(OTHER_MEMBER, w.webhook.id))).code).toBe('forbidden');
    expect((await rejection(w.manager.history(ORG_OWNER, 'wh_AAAAAAAAAAAAAAAAAAAAAA'))).code).toBe('webhook_not_found');
  });

  it('a revoked webhook keeps its history', async () => {
    const w = await world();
    await w.handle(request(w.url, { text: 'before' }));
    await settle();
    await w.manager.revoke(CHANNEL_OWNER, w.webhook.id);
    await w.handle(request(w.url, { text: 'after' }));
    await settle();
    expect((await w.manager.history(CHANNEL_OWNER, w.webhook.id)).map((record) => record.status)).toEqual([201]);
  });

  it.each([0, 101, 1.5, '10'])('refuses limit %s with invalid_argument', async (limit) => {
    const w = await world();
    expect((await rejection(w.manager.history(ORG_OWNER, w.webhook.id, { limit: limit as number }))).code).toBe(
      'invalid_argument',
    );
  });

  it('a store without listPosts: history_unavailable, after the permission check', async () => {
    const { recordPosts: _, listPosts: __, ...withoutHistory } = createMemoryStore();
    const w = await world(withoutHistory);
    expect((await rejection(w.manager.history(ORG_OWNER, w.webhook.id))).code).toBe('history_unavailable');
    expect((await rejection(w.manager.history(OTHER_MEMBER, w.webhook.id))).code).toBe('forbidden');
    expect((await w.handle(request(w.url, { text: 'still posts' }))).status).toBe(201);
  });
});
