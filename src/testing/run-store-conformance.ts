import { createWebhookManager } from '../manager/create-webhook-manager.js';
import type { Channel, Message, WebhookRecord, WebhookStore } from '../ports.js';
import { ConformanceError, check, checkDeepEqual, checkEqual, checkRejects } from './assert.js';
import { insertInput, makeMessage, makeWebhook, randomId, recordFields, sha256Hex } from './fixtures.js';
import type { TestApi } from './test-api.js';

/**
 * Options of {@link runStoreConformance}.
 *
 * @example
 * ```ts
 * const options: StoreConformanceOptions = { describe, it, createStore: () => createMyStore(), concurrency: 50 };
 * ```
 */
export interface StoreConformanceOptions<S extends WebhookStore = WebhookStore> extends TestApi {
  /**
   * Makes a store to test. Called once per test. Stores may share one backend (one database):
   * every test uses fresh random ids.
   */
  createStore: () => S | Promise<S>;
  /**
   * A second instance over the same backend as the stores `createStore` makes (another pool,
   * another process's view). When given, the race test spreads its callers over both and the
   * visibility tests read through it. Default: none (all checks on one instance).
   */
  createPeer?: (store: S) => WebhookStore | Promise<WebhookStore>;
  /** Releases what `createStore`/`createPeer` made, after each test. Default: nothing. */
  dispose?: (store: S, peer: WebhookStore | null) => void | Promise<void>;
  /**
   * Creates or replaces a channel, so `getChannel` and the guarded `insertMessage` have something
   * to find. Default: the store's own `putChannel` (as the memory and PostgreSQL stores have). One
   * of the two is required.
   */
  putChannel?: (store: S, channel: Channel) => Promise<void>;
  /**
   * A channel's messages, oldest first, to check what was stored beyond what `insertMessage`
   * answered. Default: the store's own `listMessages`. Without either, those extra checks are left out.
   */
  listMessages?: (store: S, channelId: string) => Promise<Message[]>;
  /** Callers in the race tests. Default 25. */
  concurrency?: number;
  /**
   * Whether messages and keys with U+0000 and lone surrogates must come back exactly. Valid JSON
   * can carry both; a store that keeps them in SQL `text` columns cannot. Default `true`.
   */
  unusualStrings?: boolean;
  /** Name of the outer `describe`. Default `'WebhookStore conformance'`. */
  name?: string;
}

/**
 * Registers the conformance tests of a {@link WebhookStore}: every port method's contract,
 * including the idempotent insert under concurrent callers (exactly one stores, all get its message),
 * keys scoped per webhook, rotation and revocation visible at once, messages back exactly as sent,
 * and secrets never reaching the store. Call it at the top level of a test file, passing your
 * framework's `describe` and `it`.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { runStoreConformance } from 'channel-webhooks/testing';
 * import { createMyStore } from '../src/my-store.js';
 *
 * runStoreConformance({
 *   describe,
 *   it,
 *   createStore: () => createMyStore({ url: process.env.DATABASE_URL }),
 *   putChannel: (store, channel) => store.seedChannel(channel),
 * });
 * ```
 */
export function runStoreConformance<S extends WebhookStore>(options: StoreConformanceOptions<S>): void {
  const { describe, it } = options;
  const concurrency = options.concurrency ?? 25;
  const unusualStrings = options.unusualStrings ?? true;
  const t0 = Date.UTC(2026, 0, 1, 12);

  interface Context {
    store: S;
    peer: WebhookStore;
    putChannel: (channel: Channel) => Promise<void>;
    /** Puts an active channel for the webhook and inserts the webhook. */
    seed: (webhook: WebhookRecord) => Promise<void>;
    listMessages: ((channelId: string) => Promise<Message[]>) | null;
  }

  const test = (name: string, body: (context: Context) => Promise<void>) => {
    it(name, async () => {
      const store = await options.createStore();
      const peer = options.createPeer === undefined ? null : await options.createPeer(store);
      const own = store as S & Partial<{ putChannel(channel: Channel): unknown; listMessages(id: string): Message[] | Promise<Message[]> }>;
      const putChannel = options.putChannel
        ? (channel: Channel) => options.putChannel!(store, channel)
        : typeof own.putChannel === 'function'
          ? async (channel: Channel) => {
              await own.putChannel!(channel);
            }
          : () => {
              throw new ConformanceError('the store has no putChannel: pass options.putChannel to seed channels');
            };
      const listMessages = options.listMessages
        ? (channelId: string) => options.listMessages!(store, channelId)
        : typeof own.listMessages === 'function'
          ? async (channelId: string) => own.listMessages!(channelId)
          : null;
      const seed = async (webhook: WebhookRecord) => {
        if ((await store.getChannel(webhook.channelId)) === null) await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: false });
        await store.insertWebhook(webhook);
      };
      try {
        await body({ store, peer: peer ?? store, putChannel, seed, listMessages });
      } finally {
        await options.dispose?.(store, peer);
      }
    });
  };

  describe(options.name ?? 'WebhookStore conformance', () => {
    {
      describe('channels', () => {
        test('getChannel returns the channel as put, and null for an unknown id', async ({ store, peer, putChannel }) => {
          const channel: Channel = { id: `c_${randomId()}`, ownerId: `u_${randomId(8)}`, archived: false };
          await putChannel(channel);
          checkDeepEqual(await store.getChannel(channel.id), channel, 'getChannel after putChannel');
          checkDeepEqual(await peer.getChannel(channel.id), channel, 'getChannel on the peer');
          checkEqual(await store.getChannel(`c_${randomId()}`), null, 'getChannel of an unknown id');
        });

        test('archiving a channel is visible to the next getChannel and getWebhook', async ({ store, peer, putChannel }) => {
          const channel: Channel = { id: `c_${randomId()}`, ownerId: 'u_owner', archived: false };
          await putChannel(channel);
          const webhook = makeWebhook(channel.id, t0);
          await store.insertWebhook(webhook);
          check((await peer.getWebhook(webhook.id)) !== null, 'getWebhook found nothing after insertWebhook');

          await putChannel({ ...channel, archived: true });
          checkDeepEqual(await peer.getChannel(channel.id), { ...channel, archived: true }, 'getChannel after archiving');
          check((await peer.getWebhook(webhook.id)) !== null, 'getWebhook found nothing after archiving its channel');
        });
      });
    }

    describe('webhooks', () => {
      test('getWebhook returns the record exactly as inserted, and null for an unknown id', async ({ store, peer }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0, { name: 'Déploiement 🚀 bot' });
        await store.insertWebhook(webhook);
        const found = await peer.getWebhook(webhook.id);
        check(found !== null, 'getWebhook found nothing after insertWebhook');
        checkDeepEqual(recordFields(found), webhook, 'getWebhook');
        checkEqual(typeof found.createdAt, 'number', 'typeof createdAt');
        checkEqual(await store.getWebhook(`wh_${randomId()}`), null, 'getWebhook of an unknown id');
      });

      test('insertWebhook rejects an id that is taken and keeps the first record', async ({ store, peer }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await store.insertWebhook(webhook);
        await checkRejects(() => peer.insertWebhook({ ...webhook, name: 'Impostor' }), 'insertWebhook with a taken id');
        const found = await store.getWebhook(webhook.id);
        check(found !== null, 'getWebhook found nothing');
        checkDeepEqual(recordFields(found), webhook, 'the first record after a rejected second insert');
      });

      test('listWebhooks returns the channel\'s webhooks oldest first, revoked ones included, no others', async ({ store, peer }) => {
        const channelId = `c_${randomId()}`;
        // Inserted in creation order, as a clock that never goes back produces them.
        const webhooks = Array.from({ length: 5 }, (_, i) => makeWebhook(channelId, t0 + i * 1_000, { name: `hook ${i}` }));
        for (const [i, webhook] of webhooks.entries()) {
          await store.insertWebhook(webhook);
          if (i === 1) await store.insertWebhook(makeWebhook(`c_${randomId()}`, t0 + 1_500));
        }
        await store.revokeWebhook(webhooks[2]!.id, t0 + 9_000);
        const expected = webhooks.map((webhook, i) => (i === 2 ? { ...webhook, revokedAt: t0 + 9_000 } : webhook));
        checkDeepEqual((await peer.listWebhooks(channelId)).map(recordFields), expected, 'listWebhooks');
        checkDeepEqual(await store.listWebhooks(`c_${randomId()}`), [], 'listWebhooks of a channel without webhooks');
      });

      test('updateWebhookSecret replaces the hash and sets rotatedAt; the next getWebhook sees it', async ({ store, peer }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await store.insertWebhook(webhook);
        const rotated = { ...webhook, secretHash: 'b'.repeat(64), rotatedAt: t0 + 5_000 };
        const updated = await store.updateWebhookSecret(webhook.id, rotated.secretHash, rotated.rotatedAt);
        check(updated !== null, 'updateWebhookSecret returned null for an active webhook');
        checkDeepEqual(recordFields(updated), rotated, 'updateWebhookSecret result');
        const seen = await peer.getWebhook(webhook.id);
        check(seen !== null, 'getWebhook found nothing after rotation');
        checkDeepEqual(recordFields(seen), rotated, 'the next getWebhook after rotation');
      });

      test('updateWebhookSecret refuses a revoked or unknown webhook and changes nothing', async ({ store, peer }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await store.insertWebhook(webhook);
        await store.revokeWebhook(webhook.id, t0 + 1_000);
        checkEqual(await peer.updateWebhookSecret(webhook.id, 'c'.repeat(64), t0 + 2_000), null, 'updateWebhookSecret of a revoked webhook');
        const found = await store.getWebhook(webhook.id);
        check(found !== null, 'getWebhook found nothing');
        checkDeepEqual(recordFields(found), { ...webhook, revokedAt: t0 + 1_000 }, 'the revoked webhook after a refused rotation');
        checkEqual(await store.updateWebhookSecret(`wh_${randomId()}`, 'c'.repeat(64), t0), null, 'updateWebhookSecret of an unknown id');
      });

      test('revokeWebhook is visible at once and a second call keeps the first time', async ({ store, peer }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await store.insertWebhook(webhook);
        const revoked = await store.revokeWebhook(webhook.id, t0 + 1_000);
        check(revoked !== null, 'revokeWebhook returned null for an existing webhook');
        checkDeepEqual(recordFields(revoked), { ...webhook, revokedAt: t0 + 1_000 }, 'revokeWebhook result');
        const seen = await peer.getWebhook(webhook.id);
        check(seen !== null, 'getWebhook found nothing after revocation');
        checkEqual(seen.revokedAt, t0 + 1_000, 'revokedAt seen by the next getWebhook');
        const again = await peer.revokeWebhook(webhook.id, t0 + 9_000);
        check(again !== null, 'a second revokeWebhook returned null');
        checkEqual(again.revokedAt, t0 + 1_000, 'revokedAt after a second revokeWebhook');
        checkEqual(await store.revokeWebhook(`wh_${randomId()}`, t0), null, 'revokeWebhook of an unknown id');
      });

      test('returned records are copies or frozen: changing one changes nothing stored', async ({ store }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await store.insertWebhook(webhook);
        webhook.name = 'changed after insert';
        const found = await store.getWebhook(webhook.id);
        check(found !== null, 'getWebhook found nothing');
        checkEqual(found.name, 'Deploy bot', 'name after the inserted object was changed');
        try {
          found.secretHash = 'changed after read';
        } catch {
          // A frozen record refuses the change outright, which keeps the store just as safe.
        }
        const again = await store.getWebhook(webhook.id);
        check(again !== null && again.secretHash !== 'changed after read', 'a change to a returned record reached the store');
      });

      {
        test('the store only ever holds the hash of a secret, never the secret', async ({ store, peer, putChannel }) => {
          const channel: Channel = { id: `c_${randomId()}`, ownerId: 'u_owner', archived: false };
          await putChannel(channel);
          const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
          const actor = { userId: 'u_owner', role: 'member' as const };
          const created = await manager.create(actor, { channelId: channel.id, name: 'CI' });
          const rotated = await manager.rotate(actor, created.webhook.id);
          for (const [label, url] of [['created', created.url], ['rotated', rotated.url]] as const) {
            const secret = url.slice(url.lastIndexOf('/') + 1);
            const everything = JSON.stringify([await peer.getWebhook(created.webhook.id), await peer.listWebhooks(channel.id)]);
            check(!everything.includes(secret), `the ${label} secret is readable from the store`);
            if (label === 'rotated') {
              const found = await peer.getWebhook(created.webhook.id);
              checkEqual(found?.secretHash, await sha256Hex(secret), 'secretHash after rotation (SHA-256 hex of the secret)');
            }
          }
        });
      }
    });

    describe('messages', () => {
      test('insertMessage stores a new message and returns it exactly, outcome created', async ({ store, seed, listMessages }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const message = makeMessage(webhook, t0 + 1, { body: 'Build #42 passed' });
        const result = await store.insertMessage(insertInput(webhook, message, 'event-1'));
        checkDeepEqual(result, { outcome: 'created', message }, 'insertMessage result');
        if (listMessages !== null) checkDeepEqual(await listMessages(webhook.channelId), [message], 'listMessages');
      });

      test('a repeated key returns the first message unchanged, outcome duplicate', async ({ store, peer, seed, listMessages }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const first = makeMessage(webhook, t0 + 1, { body: 'first', blocks: [{ type: 'divider' }] });
        const second = makeMessage(webhook, t0 + 2, { body: 'second', blocks: [] });
        checkDeepEqual(await store.insertMessage(insertInput(webhook, first, 'key-1')), { outcome: 'created', message: first }, 'first insert');
        checkDeepEqual(await peer.insertMessage(insertInput(webhook, second, 'key-1')), { outcome: 'duplicate', message: first }, 'repeat with the same key');
        if (listMessages !== null) checkDeepEqual(await listMessages(webhook.channelId), [first], 'listMessages after a repeat');
      });

      test(`${concurrency} concurrent inserts with one key: exactly one stores, all get its message`, async ({ store, peer, seed, listMessages }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const attempts = Array.from({ length: concurrency }, (_, i) => makeMessage(webhook, t0 + i, { body: `attempt ${i}` }));
        const results = await Promise.all(
          attempts.map((message, i) => (i % 2 === 0 ? store : peer).insertMessage(insertInput(webhook, message, 'same-key'))),
        );
        const winners = results.filter((result) => result.outcome === 'created');
        checkEqual(winners.length, 1, 'number of callers told created');
        const stored = (winners[0] as { message: Message }).message;
        check(attempts.some((attempt) => attempt.id === stored.id), 'the stored message is none of the attempts');
        for (const [i, result] of results.entries()) {
          check(result.outcome === 'created' || result.outcome === 'duplicate', `caller ${i} was told ${result.outcome}`);
          checkDeepEqual(result.message, stored, `message returned to caller ${i}`);
        }
        if (listMessages !== null) checkDeepEqual(await listMessages(webhook.channelId), [stored], 'listMessages after the race');
      });

      test('keys are scoped per webhook', async ({ store, seed }) => {
        const channelId = `c_${randomId()}`;
        const a = makeWebhook(channelId, t0);
        const b = makeWebhook(channelId, t0 + 1);
        await seed(a);
        await seed(b);
        const fromA = makeMessage(a, t0 + 2, { body: 'from a' });
        const fromB = makeMessage(b, t0 + 3, { body: 'from b' });
        checkDeepEqual(await store.insertMessage(insertInput(a, fromA, 'shared')), { outcome: 'created', message: fromA }, 'insert on webhook a');
        checkDeepEqual(await store.insertMessage(insertInput(b, fromB, 'shared')), { outcome: 'created', message: fromB }, 'same key on webhook b');
      });

      test('a null key always stores, also concurrently', async ({ store, peer, seed, listMessages }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const messages = Array.from({ length: 6 }, (_, i) => makeMessage(webhook, t0 + i, { body: 'same body' }));
        const results = await Promise.all(messages.map((message, i) => (i % 2 === 0 ? store : peer).insertMessage(insertInput(webhook, message, null))));
        for (const [i, result] of results.entries()) checkDeepEqual(result, { outcome: 'created', message: messages[i] }, `keyless insert ${i}`);
        if (listMessages !== null) {
          const listed = await listMessages(webhook.channelId);
          checkDeepEqual(listed.map((m) => m.id).sort(), messages.map((m) => m.id).sort(), 'ids listed after keyless inserts');
        }
      });

      test('keys are compared exactly: no trimming, no case folding', async ({ store, seed }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const keys = ['evt', 'EVT', ' evt', 'evt ', 'e\u0301vt', 'évt'];
        for (const [i, key] of keys.entries()) {
          const message = makeMessage(webhook, t0 + i, { body: `key ${JSON.stringify(key)}` });
          checkDeepEqual(await store.insertMessage(insertInput(webhook, message, key)), { outcome: 'created', message }, `insert with key ${JSON.stringify(key)}`);
        }
      });

      test('messages come back exactly as sent: unicode, nested blocks, key order', async ({ store, peer, seed, listMessages }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const blocks = [
          { type: 'header', text: { type: 'plain_text', text: 'Ünïcödé 🚀 — 日本語 \t"quoted" \\ back', emoji: true } },
          { text: { text: '*bold* <https://example.com|link>', type: 'mrkdwn', verbatim: false }, type: 'section', block_id: 'b1' },
          { type: 'markdown', text: '# Title\n\n- 1\n- 2 👩‍👩‍👧' },
          {
            type: 'rich_text',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'x', style: { bold: true } }, { type: 'emoji', name: 'tada' }] }],
          },
          { type: 'context', elements: [{ type: 'image', image_url: 'https://example.com/a.png', alt_text: 'a' }] },
          { type: 'divider' },
        ];
        const message = makeMessage(webhook, t0 + 1, { body: '  padded, untrimmed  \n🙂 é e\u0301 ', blocks });
        const key = 'κλειδί-🔑';
        const first = await store.insertMessage(insertInput(webhook, message, key));
        const again = await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), key));
        check(first.outcome === 'created' && again.outcome === 'duplicate', `outcomes ${first.outcome} and ${again.outcome}`);
        for (const [label, got] of [['created', first.message], ['duplicate', again.message]] as const) {
          checkDeepEqual(got, message, `the ${label} message`);
          checkEqual(JSON.stringify(got.blocks), JSON.stringify(blocks), `key order of the ${label} message's blocks`);
        }
        if (listMessages !== null) {
          const listed = await listMessages(webhook.channelId);
          checkDeepEqual(listed, [message], 'listMessages');
          checkEqual(JSON.stringify(listed[0]!.blocks), JSON.stringify(blocks), 'key order of the listed blocks');
        }
      });

      if (unusualStrings) {
        test('U+0000 and lone surrogates come back exactly, in the body, blocks and key', async ({ store, peer, seed }) => {
          const webhook = makeWebhook(`c_${randomId()}`, t0);
          await seed(webhook);
          const odd = 'nul:\u0000 high:\ud800 low:\udc00 end';
          const message = makeMessage(webhook, t0 + 1, { body: odd, blocks: [{ type: 'markdown', text: odd }] });
          checkDeepEqual(await store.insertMessage(insertInput(webhook, message, odd)), { outcome: 'created', message }, 'insert with unusual strings');
          const repeat = await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), odd));
          checkDeepEqual(repeat, { outcome: 'duplicate', message }, 'repeat with the unusual key');
          const other = makeMessage(webhook, t0 + 3);
          checkDeepEqual(await store.insertMessage(insertInput(webhook, other, 'nul:\u0000 high:\ud801 low:\udc00 end')), { outcome: 'created', message: other }, 'a key differing only in a surrogate');
        });
      }

      test('listMessages returns only the channel\'s messages, oldest first', async ({ store, seed, listMessages }) => {
        if (listMessages === null) return;
        const channelId = `c_${randomId()}`;
        const webhook = makeWebhook(channelId, t0);
        const other = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        await seed(other);
        const inserted: Message[] = [];
        for (let i = 0; i < 5; i++) {
          const message = makeMessage(webhook, t0 + i, { body: `#${i}` });
          await store.insertMessage(insertInput(webhook, message, i % 2 === 0 ? `k${i}` : null));
          await store.insertMessage(insertInput(other, makeMessage(other, t0 + i), null));
          inserted.push(message);
        }
        checkDeepEqual(await listMessages(channelId), inserted, 'listMessages');
        checkDeepEqual(await listMessages(`c_${randomId()}`), [], 'listMessages of an empty channel');
      });
    });
  });
}
