import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager, type Actor } from '../../src/lifecycle/create-webhook-manager.js';
import { isChannelWebhookError } from '../../src/errors.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import { hashSecret } from '../../src/secret/secret.js';
import { request, splitUrl } from '../support/setup.js';

const OWNER_OF_CHANNEL: Actor = { userId: 'u-chan', role: 'member' };
const ORG_OWNER: Actor = { userId: 'u-org-owner', role: 'owner' };
const ORG_ADMIN: Actor = { userId: 'u-org-admin', role: 'admin' };
const OTHER_MEMBER: Actor = { userId: 'u-other', role: 'member' };
const URL_SHAPE = /^https:\/\/chat\.example\.com\/api\/hooks\/channels\/wh_[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-]{43}$/;

async function world() {
  const clock = createFakeClock();
  const store = createMemoryStore();
  await store.putChannel({ id: 'ops', ownerId: OWNER_OF_CHANNEL.userId, archived: false });
  await store.putChannel({ id: 'old', ownerId: OWNER_OF_CHANNEL.userId, archived: true });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com/api/', clock });
  const handle = createWebhookHandler({ store, clock });
  const post = (url: string, text: string) => handle(request(url, { text }));
  return { clock, store, manager, handle, post };
}

/** Runs `action` and returns what it rejected with. */
async function rejection(action: Promise<unknown>): Promise<{ code: unknown; name: unknown; message: unknown }> {
  try {
    await action;
  } catch (error) {
    return error as { code: unknown; name: unknown; message: unknown };
  }
  throw new Error('expected a rejection');
}

function expectCode(error: unknown, code: string): void {
  expect(error).toMatchObject({ name: 'ChannelWebhookError', code, message: expect.any(String) });
  expect(isChannelWebhookError(error, code as never)).toBe(true);
}

describe('create', () => {
  it('creates an active webhook and returns its URL once', async () => {
    const w = await world();
    const { webhook, url } = await w.manager.create(OWNER_OF_CHANNEL, { channelId: 'ops', name: 'CI' });
    expect(webhook).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9_-]{22}$/),
      channelId: 'ops',
      name: 'CI',
      createdBy: OWNER_OF_CHANNEL.userId,
      createdAt: w.clock.now(),
      rotatedAt: null,
      revokedAt: null,
      lastPostAt: null,
      status: 'active',
      description: null,
      avatarUrl: null,
    });
    expect(url).toMatch(URL_SHAPE);
    expect(splitUrl(url).webhookId).toBe(webhook.id);
    expect((await w.post(url, 'hello')).status).toBe(201);
  });

  it.each([
    ['an organization owner', ORG_OWNER],
    ['an organization admin', ORG_ADMIN],
    ['the channel owner', OWNER_OF_CHANNEL],
  ])('%s may create, rotate, revoke, get and list', async (_, actor) => {
    const w = await world();
    const { webhook } = await w.manager.create(actor, { channelId: 'ops', name: 'CI' });
    expect((await w.manager.get(actor, webhook.id)).id).toBe(webhook.id);
    expect((await w.manager.list(actor, 'ops')).map((info) => info.id)).toEqual([webhook.id]);
    expect((await w.manager.rotate(actor, webhook.id)).webhook.id).toBe(webhook.id);
    expect((await w.manager.revoke(actor, webhook.id)).status).toBe('revoked');
  });

  it('another member is forbidden every operation', async () => {
    const w = await world();
    const { webhook } = await w.manager.create(OWNER_OF_CHANNEL, { channelId: 'ops', name: 'CI' });
    for (const action of [
      w.manager.create(OTHER_MEMBER, { channelId: 'ops', name: 'CI' }),
      w.manager.rotate(OTHER_MEMBER, webhook.id),
      w.manager.revoke(OTHER_MEMBER, webhook.id),
      w.manager.get(OTHER_MEMBER, webhook.id),
      w.manager.list(OTHER_MEMBER, 'ops'),
    ]) {
      expectCode(await rejection(action), 'forbidden');
    }
    expect((await w.manager.get(OWNER_OF_CHANNEL, webhook.id)).status).toBe('active');
    expect(await w.store.listWebhooks('ops')).toHaveLength(1);
  });

  it('creating in an archived channel is refused with channel_archived', async () => {
    const w = await world();
    expectCode(await rejection(w.manager.create(ORG_OWNER, { channelId: 'old', name: 'CI' })), 'channel_archived');
    expect(await w.store.listWebhooks('old')).toEqual([]);
  });

  it('creating in an unknown channel is refused with channel_not_found', async () => {
    const w = await world();
    expectCode(await rejection(w.manager.create(ORG_OWNER, { channelId: 'nope', name: 'CI' })), 'channel_not_found');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['81 code points', 'n'.repeat(81)],
    ['81 astral code points', '🚀'.repeat(81)],
    ['not a string', 42],
  ])('a name that is %s is refused with invalid_name', async (_, name) => {
    const w = await world();
    expectCode(
      await rejection(w.manager.create(ORG_OWNER, { channelId: 'ops', name: name as string })),
      'invalid_name',
    );
  });

  it.each([
    ['1 code point', 'n'],
    ['80 code points', 'n'.repeat(80)],
    ['80 astral code points', '🚀'.repeat(80)],
    ['80 code points with whitespace around', `  ${'n'.repeat(80)}  `],
    ['1,024 characters, most of them padding', `${' '.repeat(511)}${'n'.repeat(2)}${' '.repeat(511)}`],
    ['letters, digits, punctuation and emoji', 'Déploiement 🚀 (prod) #2'],
    ['a letter with a combining accent', 'Re\u0301sume\u0301'],
    ['an emoji ZWJ sequence', '👩\u200D💻'],
    ['an emoji with a variation selector', '❤\uFE0F'],
    ['Hangul syllables', '배포 알림'],
    ['Devanagari with vowel signs', 'तैनाती'],
  ])('a name of %s is accepted and stored trimmed', async (_, name) => {
    const w = await world();
    const { webhook, url } = await w.manager.create(ORG_OWNER, { channelId: 'ops', name });
    expect(webhook.name).toBe(name.trim());
    expect((await w.store.getWebhook(webhook.id))!.name).toBe(name.trim());
    await w.post(url, 'hi');
    expect((await w.store.listMessages('ops'))[0]!.author.name).toBe(name.trim());
  });

  it.each([
    ['padded past the 1,024-character cap', `CI${' '.repeat(1_000_000)}`],
    ['1,025 characters', `${' '.repeat(1_023)}CI`],
    ['with NUL', 'C\u0000I'],
    ['with a newline inside', 'C\nI'],
    ['with a tab inside', 'C\tI'],
    ['with DEL', 'CI\u007F'],
    ['with a C1 control (NEL)', 'CI\u0085'],
    ['with a C1 control (CSI)', '\u009BCI'],
    ['with a lone high surrogate', 'CI\uD83D'],
    ['with a lone low surrogate', '\uDE80CI'],
    ['with a right-to-left override', 'CI\u202Egpj.exe'],
    ['with a left-to-right embedding', '\u202ACI'],
    ['with a first-strong isolate', 'C\u2068I'],
    ['with a pop directional isolate', 'CI\u2069'],
    ['with a right-to-left mark', 'CI\u200F'],
    ['with a left-to-right mark', '\u200ECI'],
    ['with an Arabic letter mark', 'CI\u061C'],
    ['made only of U+3164 HANGUL FILLER', '\u3164'],
    ['made only of U+3164 repeated', '\u3164\u3164\u3164'],
    ['made only of U+200B ZERO WIDTH SPACE', '\u200B'],
    ['made only of U+2060 WORD JOINER', '\u2060\u2060'],
    ['made only of U+FEFF between zero-width spaces', '\u200B\uFEFF\u200B'],
    ['made only of U+115F and U+1160 HANGUL CHOSEONG/JUNGSEONG FILLER', '\u115F\u1160'],
    ['made only of U+FFA0 HALFWIDTH HANGUL FILLER', '\uFFA0'],
    ['made only of U+200C and U+200D joiners', '\u200C\u200D'],
    ['made only of U+180E MONGOLIAN VOWEL SEPARATOR', '\u180E'],
    ['made only of U+034F COMBINING GRAPHEME JOINER', '\u034F'],
    ['made only of variation selectors', '\uFE0F\uFE0E'],
    ['made only of combining marks', '\u0301\u0308\u20DD'],
    ['made only of U+00AD SOFT HYPHEN', '\u00AD'],
    ['made only of U+2800 BRAILLE PATTERN BLANK', '\u2800\u2800'],
    ['made only of tag characters', '\u{E0041}\u{E0042}'],
    ['made only of invisible characters and spaces', ' \u200B \u3164 '],
  ])('a name %s is refused with invalid_name and a clear message, and nothing is stored', async (_, name) => {
    const w = await world();
    const error = await rejection(w.manager.create(ORG_OWNER, { channelId: 'ops', name }));
    expectCode(error, 'invalid_name');
    expect(error.message).toMatch(
      /1,?024 characters|control characters, lone surrogates or bidirectional formatting characters \(found U\+[0-9A-F]{4}\)|at least one visible character/,
    );
    expect(await w.store.listWebhooks('ops')).toEqual([]);
  });
});

describe('secrets', () => {
  it('the secret is never in get or list output, nor in the store: only its sha256 hex hash', async () => {
    const w = await world();
    const { webhook, url } = await w.manager.create(ORG_OWNER, { channelId: 'ops', name: 'CI' });
    const { secret } = splitUrl(url);
    const shown = JSON.stringify([await w.manager.get(ORG_OWNER, webhook.id), await w.manager.list(ORG_OWNER, 'ops')]);
    expect(shown).not.toContain(secret);
    expect(shown).not.toContain(hashSecret(secret));
    const stored = await w.store.getWebhook(webhook.id);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.secretHash).toBe(hashSecret(secret));
  });

  it('every webhook gets its own secret', async () => {
    const w = await world();
    const urls = new Set<string>();
    for (let i = 0; i < 20; i++)
      urls.add(splitUrl((await w.manager.create(ORG_OWNER, { channelId: 'ops', name: `h${i}` })).url).secret);
    expect(urls.size).toBe(20);
  });
});

describe('rotate', () => {
  it('rotation keeps the id, gives a new URL, and kills the old URL at once', async () => {
    const w = await world();
    const created = await w.manager.create(ORG_OWNER, { channelId: 'ops', name: 'CI' });
    w.clock.advance(1_000);
    const rotated = await w.manager.rotate(ORG_ADMIN, created.webhook.id);
    expect(rotated.webhook).toEqual({ ...created.webhook, rotatedAt: w.clock.now() });
    expect(rotated.url).toMatch(URL_SHAPE);
    expect(rotated.url).not.toBe(created.url);
    expect(splitUrl(rotated.url).webhookId).toBe(created.webhook.id);
    expect((await w.post(created.url, 'old')).status).toBe(404);
    expect((await w.post(rotated.url, 'new')).status).toBe(201);
  });

  it('rotating an unknown webhook is refused with webhook_not_found', async () => {
    const w = await world();
    expectCode(await rejection(w.manager.rotate(ORG_OWNER, `wh_${'Z'.repeat(22)}`)), 'webhook_not_found');
  });
});

describe('revoke', () => {
  it('revocation is final: the URL answers 404, rotation is refused with webhook_revoked', async () => {
    const w = await world();
    const created = await w.manager.create(ORG_OWNER, { channelId: 'ops', name: 'CI' });
    w.clock.advance(2_000);
    const revoked = await w.manager.revoke(OWNER_OF_CHANNEL, created.webhook.id);
    expect(revoked).toEqual({ ...created.webhook, revokedAt: w.clock.now(), status: 'revoked' });
    expect((await w.post(created.url, 'after')).status).toBe(404);
    expectCode(await rejection(w.manager.rotate(ORG_OWNER, created.webhook.id)), 'webhook_revoked');
    expect((await w.post(created.url, 'still')).status).toBe(404);
  });

  it('revoking again keeps the first revocation time', async () => {
    const w = await world();
    const created = await w.manager.create(ORG_OWNER, { channelId: 'ops', name: 'CI' });
    const first = await w.manager.revoke(ORG_OWNER, created.webhook.id);
    w.clock.advance(5_000);
    expect(await w.manager.revoke(ORG_OWNER, created.webhook.id)).toEqual(first);
  });

  it('get and list show revoked webhooks, oldest first', async () => {
    const w = await world();
    const a = await w.manager.create(ORG_OWNER, { channelId: 'ops', name: 'A' });
    w.clock.advance(1);
    const b = await w.manager.create(ORG_OWNER, { channelId: 'ops', name: 'B' });
    await w.manager.revoke(ORG_OWNER, a.webhook.id);
    expect((await w.manager.list(ORG_OWNER, 'ops')).map((info) => [info.name, info.status])).toEqual([
      ['A', 'revoked'],
      ['B', 'active'],
    ]);
    expect(await w.manager.get(ORG_OWNER, b.webhook.id)).toEqual(b.webhook);
  });
});
