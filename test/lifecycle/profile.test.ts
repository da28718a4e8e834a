import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookManager, type Actor, type AuditEvent } from '../../src/lifecycle/create-webhook-manager.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { safeImageUrl } from '../../src/render/safe-url.js';
import { XSS_STRINGS } from '../render/xss-vectors.js';

const CHANNEL_OWNER: Actor = { userId: 'u-chan', role: 'member' };
const ORG_ADMIN: Actor = { userId: 'u-org-admin', role: 'admin' };
const OTHER_MEMBER: Actor = { userId: 'u-other', role: 'member' };
const AVATAR = 'https://chat.example.com/avatars/ci.png';

async function world() {
  const clock = createFakeClock();
  const store = createMemoryStore();
  store.putChannel({ id: 'ops', ownerId: CHANNEL_OWNER.userId, archived: false });
  const events: AuditEvent[] = [];
  const manager = createWebhookManager({
    store,
    baseUrl: 'https://chat.example.com',
    clock,
    onAudit: (event) => void events.push(event),
  });
  return { clock, store, manager, events };
}

async function rejection(action: Promise<unknown>): Promise<{ code?: unknown; message: string }> {
  try {
    await action;
  } catch (error) {
    return error as { code?: unknown; message: string };
  }
  throw new Error('expected a rejection');
}

describe('a profile at creation', () => {
  it('is stored trimmed, returned with the webhook, and in the audit event', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, {
      channelId: 'ops',
      name: 'CI',
      description: '  Deploys of api\nand web  ',
      avatarUrl: AVATAR,
    });
    expect(webhook).toMatchObject({ description: 'Deploys of api\nand web', avatarUrl: AVATAR });
    expect(w.store.getWebhook(webhook.id)).toMatchObject({ description: 'Deploys of api\nand web', avatarUrl: AVATAR });
    expect(w.events).toEqual([
      {
        type: 'webhook.created',
        webhookId: webhook.id,
        channelId: 'ops',
        actor: CHANNEL_OWNER,
        at: webhook.createdAt,
        name: 'CI',
        description: 'Deploys of api\nand web',
        avatarUrl: AVATAR,
      },
    ]);
  });

  it('is empty when none is given, and a blank description or an empty URL is none', async () => {
    const w = await world();
    const bare = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    const blank = await w.manager.create(CHANNEL_OWNER, {
      channelId: 'ops',
      name: 'CD',
      description: ' \n\t ',
      avatarUrl: '',
    });
    for (const { webhook } of [bare, blank]) expect(webhook).toMatchObject({ description: null, avatarUrl: null });
  });

  it('is checked after the permission: a member of another channel learns nothing from a bad profile', async () => {
    const w = await world();
    const error = await rejection(
      w.manager.create(OTHER_MEMBER, { channelId: 'ops', name: 'CI', description: 'x'.repeat(501) }),
    );
    expect(error.code).toBe('forbidden');
  });

  it('a refused profile creates nothing', async () => {
    const w = await world();
    const error = await rejection(
      w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', avatarUrl: 'http://chat.example.com/a.png' }),
    );
    expect(error.code).toBe('invalid_avatar_url');
    expect(w.store.listWebhooks('ops')).toEqual([]);
    expect(w.events).toEqual([]);
  });
});

describe('update', () => {
  it('changes the fields given, keeps the others, and emits webhook.updated with the profile before and after', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, {
      channelId: 'ops',
      name: 'CI',
      description: 'Deploys',
      avatarUrl: AVATAR,
    });
    w.clock.advance(5_000);
    const updated = await w.manager.update(ORG_ADMIN, webhook.id, { description: 'Deploys and rollbacks' });
    expect(updated).toEqual({ ...webhook, description: 'Deploys and rollbacks' });
    const cleared = await w.manager.update(CHANNEL_OWNER, webhook.id, { avatarUrl: null });
    expect(cleared).toEqual({ ...webhook, description: 'Deploys and rollbacks', avatarUrl: null });
    const base = { webhookId: webhook.id, channelId: 'ops', name: 'CI', at: w.clock.now() };
    expect(w.events.slice(1)).toEqual([
      {
        type: 'webhook.updated',
        ...base,
        actor: ORG_ADMIN,
        description: 'Deploys and rollbacks',
        avatarUrl: AVATAR,
        previous: { description: 'Deploys', avatarUrl: AVATAR },
      },
      {
        type: 'webhook.updated',
        ...base,
        actor: CHANNEL_OWNER,
        description: 'Deploys and rollbacks',
        avatarUrl: null,
        previous: { description: 'Deploys and rollbacks', avatarUrl: AVATAR },
      },
    ]);
  });

  it('an update that changes nothing emits no event', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', description: 'Deploys' });
    expect(await w.manager.update(CHANNEL_OWNER, webhook.id, { description: ' Deploys ' })).toEqual(webhook);
    expect(await w.manager.update(CHANNEL_OWNER, webhook.id, {})).toEqual(webhook);
    expect(w.events.map((event) => event.type)).toEqual(['webhook.created']);
  });

  it('never changes the name, the channel or the secret, whatever else the change holds', async () => {
    const w = await world();
    w.store.putChannel({ id: 'other', ownerId: CHANNEL_OWNER.userId, archived: false });
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    const before = w.store.getWebhook(webhook.id);
    const updated = await w.manager.update(CHANNEL_OWNER, webhook.id, {
      name: 'Renamed',
      channelId: 'other',
      secretHash: 'x',
      description: 'Mine',
    } as never);
    expect(updated).toEqual({ ...webhook, description: 'Mine' });
    expect(w.store.getWebhook(webhook.id)).toEqual({ ...before, description: 'Mine' });
  });

  it.each([
    ['a revoked webhook', 'webhook_revoked'],
    ['an unknown webhook', 'webhook_not_found'],
  ])('refuses %s with %s and changes nothing', async (what, code) => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', description: 'Deploys' });
    await w.manager.revoke(CHANNEL_OWNER, webhook.id);
    const id = what === 'a revoked webhook' ? webhook.id : 'wh_AAAAAAAAAAAAAAAAAAAAAA';
    expect((await rejection(w.manager.update(CHANNEL_OWNER, id, { description: 'Too late' }))).code).toBe(code);
    expect(w.store.getWebhook(webhook.id)?.description).toBe('Deploys');
  });

  it('a webhook revoked while the update runs is refused with webhook_revoked', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    const racing = createWebhookManager({
      store: {
        ...w.store,
        updateWebhookProfile: (id, change) => (w.store.revokeWebhook(id, 1), w.store.updateWebhookProfile(id, change)),
      },
      baseUrl: 'https://chat.example.com',
    });
    expect((await rejection(racing.update(CHANNEL_OWNER, webhook.id, { description: 'x' }))).code).toBe(
      'webhook_revoked',
    );
  });

  it('is for those who may manage the webhook only, checked before the change is looked at', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI' });
    expect((await rejection(w.manager.update(OTHER_MEMBER, webhook.id, { description: 'x'.repeat(9_000) }))).code).toBe(
      'forbidden',
    );
    expect((await rejection(w.manager.update(CHANNEL_OWNER, webhook.id, 'text' as never))).code).toBe(
      'invalid_argument',
    );
  });
});

describe('the profile rules', () => {
  const refusedDescriptions: Array<[string, unknown]> = [
    ['a number', 42],
    ['501 characters after trimming', 'é'.repeat(501)],
    ['a raw input over 4,096 units', `${' '.repeat(4_097)}x`],
    ['a NUL', 'a\u0000b'],
    ['a carriage return', 'a\rb'],
    ['a C1 control', 'a\u0085b'],
    ['a right-to-left override', 'a\u202Eb'],
    ['a lone surrogate', 'a\uD800b'],
  ];
  it.each(refusedDescriptions)('refuses a description with %s (invalid_description)', async (_, description) => {
    const w = await world();
    const error = await rejection(
      w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', description: description as string }),
    );
    expect(error.code).toBe('invalid_description');
  });

  it('takes 500 characters after trimming, emoji counted once, tabs and line breaks kept', async () => {
    const w = await world();
    const description = `${'🚀'.repeat(250)}\t${'x'.repeat(247)}\n.`;
    const { webhook } = await w.manager.create(CHANNEL_OWNER, {
      channelId: 'ops',
      name: 'CI',
      description: `  ${description}  `,
    });
    expect(webhook.description).toBe(description);
  });

  const refusedUrls: Array<[string, unknown]> = [
    ['http', 'http://chat.example.com/a.png'],
    ['a user name', 'https://user@chat.example.com/a.png'],
    ['a password', 'https://user:secret@chat.example.com/a.png'],
    ['a relative path', '/avatars/a.png'],
    ['a protocol-relative URL', '//chat.example.com/a.png'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:image/png;base64,iVBORw0KGgo='],
    ['a space', 'https://chat.example.com/a b.png'],
    ['a tab in the scheme', 'ht\ttps://chat.example.com/a.png'],
    ['a zero-width space', 'https://chat.example.com/\u200Ba.png'],
    ['leading spaces', ' https://chat.example.com/a.png'],
    ['2,049 characters', `https://chat.example.com/${'a'.repeat(2_049 - 25)}`],
    ['no host', 'https:///a.png'],
    ['a number', 7],
  ];
  it.each(refusedUrls)(
    'refuses an avatar URL with %s (invalid_avatar_url), without repeating it',
    async (_, avatarUrl) => {
      const w = await world();
      const error = await rejection(
        w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', avatarUrl: avatarUrl as string }),
      );
      expect(error.code).toBe('invalid_avatar_url');
      if (typeof avatarUrl === 'string' && avatarUrl.length > 12)
        expect(error.message).not.toContain(avatarUrl.slice(8));
    },
  );

  it('takes an https URL of 2,048 characters, with a port, a query and a fragment', async () => {
    const w = await world();
    const long = `https://chat.example.com/${'a'.repeat(2_048 - 25)}`;
    for (const avatarUrl of [long, 'https://cdn.example.com:8443/a.png?size=64&v=2#x', 'https://[::1]/a.png']) {
      const { webhook } = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', avatarUrl });
      expect(webhook.avatarUrl).toBe(avatarUrl);
    }
  });

  // Rule: an avatar URL is one the renderer would show as an image (the same function decides), and
  // an https one without credentials at that: whatever the renderer refuses, the manager refuses.
  it('refuses every URL the renderer would not show as an image', async () => {
    const w = await world();
    const candidate = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom(...XSS_STRINGS),
      fc
        .tuple(fc.webUrl(), fc.constantFrom(' ', '\t', '\u0000', '\u200B', '\u2028', '\\', '\u00A0'), fc.nat())
        .map(([url, char, at]) => {
          const place = at % (url.length + 1);
          return url.slice(0, place) + char + url.slice(place);
        }),
    );
    await fc.assert(
      fc.asyncProperty(candidate, async (avatarUrl) => {
        const created = await w.manager.create(CHANNEL_OWNER, { channelId: 'ops', name: 'CI', avatarUrl }).then(
          ({ webhook }) => webhook.avatarUrl,
          (error: { code: string }) => error.code,
        );
        if (safeImageUrl(avatarUrl, false) === undefined) expect(created).toBe('invalid_avatar_url');
        else if (created !== 'invalid_avatar_url') expect(new URL(avatarUrl).protocol).toBe('https:');
      }),
      { numRuns: 300, seed: 20_261_126 },
    );
  });
});
