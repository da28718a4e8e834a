import { POST_HISTORY_LIMIT } from '../../limits.js';
import type { PostRecord, WebhookStore } from '../../ports.js';
import { check, checkDeepEqual, checkEqual, ConformanceError } from '../assert.js';
import { randomId } from '../fixtures.js';
import type { Context, Suite } from './context.js';

type HistoryStore = WebhookStore & Required<Pick<WebhookStore, 'recordPosts' | 'listPosts'>>;

const MINUTE = 60_000;

/** A record of one post, a 201 unless `fields` says otherwise. */
function makePostRecord(webhookId: string, at: number, fields: Partial<PostRecord> = {}): PostRecord {
  return {
    webhookId,
    at,
    status: 201,
    code: null,
    errors: [],
    idempotencyKey: null,
    messageId: `msg_${randomId()}`,
    bodyBytes: 42,
    count: 1,
    ...fields,
  };
}

const rateLimited = (webhookId: string, at: number, count = 1): PostRecord =>
  makePostRecord(webhookId, at, { status: 429, code: 'rate_limited', messageId: null, bodyBytes: null, count });

const unsupported = (webhookId: string, at: number, count = 1): PostRecord =>
  makePostRecord(webhookId, at, {
    status: 415,
    code: 'unsupported_media_type',
    messageId: null,
    bodyBytes: null,
    count,
  });

/**
 * The post history (`recordPosts` and `listPosts`, optional): records back exactly and newest
 * first, at most 100 a webhook, a minute's 429s as one record and its 415s as another, concurrent
 * writers, pointers a sender chose, copies.
 */
export function registerHistoryTests<S extends WebhookStore>({ options, test, t0, concurrency }: Suite<S>): void {
  const { describe } = options;
  const unusualStrings = options.unusualStrings ?? true;

  /** Declares a test that runs when the store keeps a history, and shows as skipped otherwise. */
  const historyTest = (name: string, body: (store: HistoryStore, peer: HistoryStore) => Promise<void>) =>
    test(name, async (context: Context<S>) => {
      const store = withHistory(context.store, 'the store');
      const peer = withHistory(context.peer, 'the peer');
      if (store === null || peer === null)
        return context.skipHere('the store keeps no history: it has neither recordPosts nor listPosts');
      await body(store, peer);
    });

  describe('history', () => {
    historyTest('records come back exactly as recorded, newest first, at most `limit`', async (store, peer) => {
      const webhookId = `wh_${randomId()}`;
      const records = [
        makePostRecord(webhookId, t0, { idempotencyKey: 'deploy-41' }),
        makePostRecord(webhookId, t0 + 1_000, {
          status: 400,
          code: 'invalid_payload',
          errors: [
            {
              pointer: '/blocks/0/fields',
              message: 'is not an allowed property',
              hint: "Section `fields` are Slack-only: put each field on its own line of the section's mrkdwn `text`.",
            },
            { header: 'idempotency-key', message: 'must be sent at most once' },
          ],
          messageId: null,
          bodyBytes: 812,
        }),
        makePostRecord(webhookId, t0 + 2_000, { status: 200, idempotencyKey: 'deploy-41', bodyBytes: 0 }),
        makePostRecord(webhookId, t0 + 3_000, {
          status: 415,
          code: 'unsupported_media_type',
          messageId: null,
          bodyBytes: null,
        }),
      ];
      await store.recordPosts(records.slice(0, 1));
      await peer.recordPosts(records.slice(1));
      const newestFirst = [...records].reverse();
      checkDeepEqual(await peer.listPosts(webhookId, POST_HISTORY_LIMIT), newestFirst, 'listPosts');
      checkDeepEqual(await store.listPosts(webhookId, 2), newestFirst.slice(0, 2), 'listPosts with limit 2');
      checkDeepEqual(
        await store.listPosts(`wh_${randomId()}`, POST_HISTORY_LIMIT),
        [],
        'listPosts of a webhook with no records',
      );
    });

    historyTest(
      `keeps the last ${POST_HISTORY_LIMIT} records of each webhook, dropping its oldest first, whatever the batches`,
      async (store, peer) => {
        const [busy, quiet] = [`wh_${randomId()}`, `wh_${randomId()}`];
        const all: PostRecord[] = [];
        let at = t0;
        // Batches of one, of some, and of more than the limit at once, interleaved with another webhook.
        for (const size of [1, 37, 64, 150, 3]) {
          const batch = Array.from({ length: size }, (_, i) =>
            makePostRecord(busy, at++, { idempotencyKey: `key-${all.length + i}` }),
          );
          all.push(...batch);
          await (size % 2 === 0 ? peer : store).recordPosts([...batch, makePostRecord(quiet, at++)]);
        }
        const kept = await peer.listPosts(busy, POST_HISTORY_LIMIT + 50);
        checkEqual(kept.length, POST_HISTORY_LIMIT, 'records kept for the busy webhook');
        checkDeepEqual(
          kept,
          all.slice(-POST_HISTORY_LIMIT).reverse(),
          'the busy webhook keeps its newest records, newest first',
        );
        checkEqual(
          (await store.listPosts(quiet, POST_HISTORY_LIMIT)).length,
          5,
          "records kept for the other webhook, untouched by the busy one's",
        );
      },
    );

    historyTest("a minute's 429s are one record: its count summed, at its first, in its place", async (store, peer) => {
      const webhookId = `wh_${randomId()}`;
      const minute = Math.ceil(t0 / MINUTE) * MINUTE;
      const stored = makePostRecord(webhookId, minute + 45_000);
      // In one batch, then in others, with other records between them.
      await store.recordPosts([rateLimited(webhookId, minute + 1_000), rateLimited(webhookId, minute + 2_000, 2)]);
      await peer.recordPosts([stored, rateLimited(webhookId, minute + 30_000, 3)]);
      await store.recordPosts([rateLimited(webhookId, minute + 59_999)]);
      // The next minute starts a record of its own.
      const next = rateLimited(webhookId, minute + MINUTE + 1);
      await peer.recordPosts([next]);
      const kept = await store.listPosts(webhookId, POST_HISTORY_LIMIT);
      checkDeepEqual(
        kept,
        [next, stored, rateLimited(webhookId, minute + 1_000, 7)],
        'listPosts after 429s over two minutes',
      );
    });

    historyTest("a minute's 415s are one record too, apart from its 429s", async (store, peer) => {
      const webhookId = `wh_${randomId()}`;
      const minute = Math.ceil(t0 / MINUTE) * MINUTE;
      const stored = makePostRecord(webhookId, minute + 45_000);
      await store.recordPosts([
        unsupported(webhookId, minute + 1_000),
        rateLimited(webhookId, minute + 1_500),
        unsupported(webhookId, minute + 2_000, 2),
      ]);
      await peer.recordPosts([
        stored,
        unsupported(webhookId, minute + 30_000, 3),
        rateLimited(webhookId, minute + 31_000),
      ]);
      await store.recordPosts([unsupported(webhookId, minute + 59_999)]);
      const next = unsupported(webhookId, minute + MINUTE + 1);
      await peer.recordPosts([next]);
      checkDeepEqual(
        await store.listPosts(webhookId, POST_HISTORY_LIMIT),
        [next, stored, rateLimited(webhookId, minute + 1_500, 2), unsupported(webhookId, minute + 1_000, 7)],
        'listPosts after 415s and 429s over two minutes',
      );
    });

    historyTest('a merged 429 takes no place: a full history keeps every other record', async (store) => {
      const webhookId = `wh_${randomId()}`;
      const minute = Math.ceil(t0 / MINUTE) * MINUTE;
      const first = rateLimited(webhookId, minute);
      const others = Array.from({ length: POST_HISTORY_LIMIT - 1 }, (_, i) =>
        makePostRecord(webhookId, minute + 1 + i),
      );
      await store.recordPosts([first, ...others]);
      for (let i = 0; i < 5; i++) await store.recordPosts([rateLimited(webhookId, minute + 1_000 + i, 10)]);
      const kept = await store.listPosts(webhookId, POST_HISTORY_LIMIT);
      checkEqual(kept.length, POST_HISTORY_LIMIT, 'records kept');
      checkDeepEqual(
        kept,
        [...others.reverse(), rateLimited(webhookId, minute, 51)],
        'the history after five more 429s of the same minute',
      );
    });

    historyTest(
      `${concurrency} concurrent batches for one webhook each take places of their own`,
      async (store, peer) => {
        const webhookId = `wh_${randomId()}`;
        const batches = Array.from({ length: concurrency }, (_, b) =>
          Array.from({ length: 3 }, (_, i) =>
            makePostRecord(webhookId, t0 + b * 10 + i, { idempotencyKey: `batch-${b}-${i}` }),
          ),
        );
        await Promise.all(batches.map((batch, b) => (b % 2 === 0 ? store : peer).recordPosts(batch)));
        const kept = await store.listPosts(webhookId, POST_HISTORY_LIMIT);
        const expected = Math.min(POST_HISTORY_LIMIT, concurrency * 3);
        checkEqual(kept.length, expected, 'records kept');
        checkEqual(new Set(kept.map((record) => record.idempotencyKey)).size, expected, 'distinct records kept');
        // Each batch keeps its own order: a later record of a batch comes before an earlier one.
        for (const [b] of batches.entries()) {
          const places = [0, 1, 2]
            .map((i) => kept.findIndex((record) => record.idempotencyKey === `batch-${b}-${i}`))
            .filter((place) => place !== -1);
          checkDeepEqual(
            places,
            [...places].sort((x, y) => y - x),
            `the places of batch ${b}'s records`,
          );
        }
      },
    );

    historyTest('records are kept whole: unusual keys, every field null, an empty batch', async (store, peer) => {
      const webhookId = `wh_${randomId()}`;
      const key = unusualStrings ? 'key \u0000 \uD800 "quoted" 🚀' : 'key "quoted" 🚀';
      const records = [
        makePostRecord(webhookId, t0, { idempotencyKey: key }),
        makePostRecord(webhookId, t0 + 1, {
          status: 500,
          code: 'store_failed',
          messageId: null,
          bodyBytes: null,
          idempotencyKey: null,
        }),
      ];
      await store.recordPosts(records);
      await peer.recordPosts([]);
      checkDeepEqual(await peer.listPosts(webhookId, POST_HISTORY_LIMIT), [...records].reverse(), 'listPosts');
    });

    historyTest(
      'a 400 whose pointers a sender chose (U+0000, lone surrogates) is kept, and so is the rest of its batch',
      async (store, peer) => {
        // A property name is the sender's to choose, and a 400's pointer repeats it.
        const [hostile, other] = [`wh_${randomId()}`, `wh_${randomId()}`];
        const refused = makePostRecord(hostile, t0 + 1, {
          status: 400,
          code: 'invalid_payload',
          errors: ['/\u0000', '/\uD800', '/a\uDFFFb', '/\uDBFF\u0000'].map((pointer) => ({
            pointer,
            message: 'is not an allowed property',
          })),
          messageId: null,
        });
        const stored = [makePostRecord(other, t0), makePostRecord(hostile, t0 + 2), makePostRecord(other, t0 + 3)];
        await store.recordPosts([stored[0]!, refused, stored[1]!, stored[2]!]);
        checkDeepEqual(
          await peer.listPosts(other, POST_HISTORY_LIMIT),
          [stored[2], stored[0]],
          "listPosts of the other webhook in the 400's batch",
        );
        const kept = await peer.listPosts(hostile, POST_HISTORY_LIMIT);
        if (unusualStrings) checkDeepEqual(kept, [stored[1], refused], "listPosts of the 400's webhook");
        else {
          checkDeepEqual(kept[0], stored[1], "the newest record of the 400's webhook");
          checkDeepEqual(
            kept.slice(1).map((record) => [record.status, record.errors.length]),
            [[400, 4]],
            "the 400's record, its pointers as the store can keep them",
          );
        }
      },
    );

    historyTest('returned records are copies or frozen: changing one changes nothing stored', async (store) => {
      const webhookId = `wh_${randomId()}`;
      const record = makePostRecord(webhookId, t0, {
        status: 400,
        code: 'invalid_json',
        errors: [{ pointer: '', message: 'must be valid JSON' }],
      });
      const given = structuredClone(record);
      await store.recordPosts([given]);
      given.errors[0]!.message = 'changed after recording';
      given.status = 599;
      const [found] = await store.listPosts(webhookId, 1);
      check(found !== undefined, 'listPosts found nothing');
      try {
        found.errors[0]!.message = 'changed after reading';
        found.count = 99;
      } catch {
        // A frozen record refuses the change outright, which keeps the store just as safe.
      }
      checkDeepEqual(await store.listPosts(webhookId, 1), [record], 'the record after both copies were changed');
    });
  });
}

/** The store's history methods, or `null` when it has neither; one without the other is a mistake. */
function withHistory(store: WebhookStore, which: string): HistoryStore | null {
  const has = [typeof store.recordPosts === 'function', typeof store.listPosts === 'function'];
  if (has[0] !== has[1])
    throw new ConformanceError(
      `${which} has ${has[0] ? 'recordPosts but no listPosts' : 'listPosts but no recordPosts'}: give both or neither`,
    );
  return has[0] ? (store as HistoryStore) : null;
}
