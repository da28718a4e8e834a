import { isChannelWebhookError } from '../../errors.js';
import { followFeed } from '../../feed/follow-feed.js';
import type {
  FeedEntry,
  FeedPage,
  FeedStore,
  Message,
  ReadFeedOptions,
  WebhookRecord,
  WebhookStore,
} from '../../ports.js';
import { check, checkDeepEqual, checkEqual, ConformanceError } from '../assert.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../fixtures.js';
import type { Context, Suite } from './context.js';

// How long a test waits for the store to deliver what it must, before it fails.
const DELIVERY_MS = 10_000;

/**
 * The feed (`readFeed` and `watchFeed`), for a store that has it: cursors in reading order, reads
 * after a cursor, following live from the store and its peer, resuming, `cursor_expired` after
 * pruning and `invalid_cursor`. Each test marks itself skipped, with the reason, for a store
 * without the feed.
 */
export function registerFeedTests<S extends WebhookStore>({ options, test, t0 }: Suite<S>): void {
  const { describe } = options;
  const feedTest = (name: string, body: (context: Context<S>, feed: FeedStore) => Promise<void>) =>
    test(name, async (context) => {
      const { store, skipHere } = context;
      if (typeof store.readFeed !== 'function' || typeof store.watchFeed !== 'function')
        return skipHere('the store has no feed (readFeed and watchFeed)');
      await body(context, store as FeedStore);
    });

  /** A channel with a webhook of its own. */
  const channelOf = async ({ seed }: Context<S>) => {
    const webhook = makeWebhook(`c_${randomId()}`, t0);
    await seed(webhook);
    return webhook;
  };
  /** Stores a message of `webhook` created at `at` through a store or the peer; every other one with a key. */
  const post = async (
    through: WebhookStore,
    webhook: WebhookRecord,
    at: number,
    body = `#${at - t0}`,
  ): Promise<Message> => {
    const message = makeMessage(webhook, at, { body });
    const result = await through.insertMessage(insertInput(webhook, message, at % 2 === 0 ? `key-${at}` : null));
    checkEqual(result.outcome, 'created', `insert of ${body}`);
    return message;
  };

  describe('feed', () => {
    feedTest(
      "cursors increase in reading order, and a channel's read after a cursor returns exactly its later messages, at most limit",
      async (context, feed) => {
        const webhook = await channelOf(context);
        const other = await channelOf(context);
        const mine: Message[] = [];
        for (let i = 1; i <= 7; i++) {
          mine.push(await post(context.store, webhook, t0 + i));
          await post(context.store, other, t0 + i);
        }
        const all = await readSettled(feed, { channelId: webhook.channelId, limit: 100 });
        checkDeepEqual(messagesOf(all.entries), mine, "the channel's messages read from the start");
        checkIncreasing(all.entries, 'the cursors of one channel');
        const cursors = all.entries.map((entry) => entry.cursor);
        const first = await readSettled(feed, { channelId: webhook.channelId, limit: 3 });
        checkDeepEqual(first.entries, all.entries.slice(0, 3), 'the first page of 3');
        for (const [after, expected] of [
          [2, all.entries.slice(3, 6)],
          [5, all.entries.slice(6)],
          [6, []],
        ] as const) {
          const page = await readSettled(feed, { channelId: webhook.channelId, after: cursors[after], limit: 3 });
          checkDeepEqual(page.entries, expected, `the page of 3 after the cursor of message ${after + 1}`);
        }
      },
    );

    feedTest(
      "a read of every channel returns every channel's messages after a cursor, in order, at most limit",
      async (context, feed) => {
        // A store sharded by channel (a Durable Object per channel) may read one channel at a time only.
        const unavailable = await Promise.resolve()
          .then(() => feed.readFeed({ limit: 1 }))
          .then(
            () => false,
            (error: unknown) => isChannelWebhookError(error, 'feed_unavailable'),
          );
        if (unavailable)
          return context.skipHere(
            'the store reads the feed one channel at a time (feed_unavailable without channelId)',
          );
        const a = await channelOf(context);
        const b = await channelOf(context);
        const start = await post(context.store, a, t0);
        const [from] = (await readSettled(feed, { channelId: a.channelId, limit: 1 })).entries;
        checkDeepEqual(from?.message, start, 'the first message of the channel');
        const later: Message[] = [];
        for (let i = 1; i <= 6; i++) later.push(await post(context.peer, i % 3 === 0 ? a : b, t0 + i));
        const page = await readSettled(feed, { after: from!.cursor, limit: 100 });
        checkDeepEqual(messagesOf(page.entries), later, 'every channel after the cursor');
        checkIncreasing([from!, ...page.entries], 'the cursors of every channel');
        const limited = await readSettled(feed, { after: from!.cursor, limit: 4 });
        checkDeepEqual(limited.entries, page.entries.slice(0, 4), 'every channel after the cursor, limit 4');
        const rest = await readSettled(feed, { after: limited.entries[3]!.cursor, limit: 4 });
        checkDeepEqual(rest.entries, page.entries.slice(4), 'the page after it');
      },
    );

    feedTest(
      'watchFeed calls its listener for a message stored through the store or the peer, until it is ended',
      async (context, feed) => {
        const webhook = await channelOf(context);
        let calls = 0;
        let woken: (() => void) | undefined;
        const stop = feed.watchFeed((channelId) => {
          if (channelId === undefined || channelId === webhook.channelId) calls++;
          woken?.();
        });
        try {
          for (const through of [context.store, context.peer]) {
            const before = calls;
            const called = new Promise<void>((resolve) => (woken = () => calls > before && resolve()));
            await post(through, webhook, t0 + calls + 1);
            await within(
              called,
              `the listener after a message stored through the ${through === context.store ? 'store' : 'peer'}`,
            );
          }
        } finally {
          stop();
        }
      },
    );

    feedTest(
      'followFeed catches up over several pages, then delivers each new message once and in order, from the store and its peer',
      async (context, feed) => {
        const webhook = await channelOf(context);
        const expected: Message[] = [];
        for (let i = 1; i <= 5; i++) expected.push(await post(context.store, webhook, t0 + i));
        const controller = new AbortController();
        const follower = followFeed(feed, { channelId: webhook.channelId, signal: controller.signal, pageSize: 2 });
        try {
          // Three pages, the last one short: all of them come without a new message to wake the follower.
          const got = await take(follower, 5);
          checkDeepEqual(messagesOf(got), expected, 'the messages caught up');
          for (let i = 6; i <= 9; i++) {
            expected.push(await post(i % 2 === 0 ? context.store : context.peer, webhook, t0 + i));
            got.push(...(await take(follower, 1)));
          }
          // Nothing came twice: the next entry is the next message.
          expected.push(await post(context.peer, webhook, t0 + 10));
          got.push(...(await take(follower, 1)));
          checkDeepEqual(messagesOf(got), expected, 'the messages delivered');
          checkIncreasing(got, 'the cursors delivered');
        } finally {
          controller.abort();
          await follower.return();
        }
      },
    );

    feedTest(
      'following again after the last cursor delivers exactly the messages stored meanwhile',
      async (context, feed) => {
        const webhook = await channelOf(context);
        await post(context.store, webhook, t0 + 1);
        const first = followFeed(feed, { channelId: webhook.channelId });
        const [seen] = await take(first, 1);
        await first.return();
        const meanwhile: Message[] = [];
        for (let i = 2; i <= 6; i++)
          meanwhile.push(await post(i % 2 === 0 ? context.peer : context.store, webhook, t0 + i));
        const stop = new AbortController();
        const again = followFeed(feed, { channelId: webhook.channelId, after: seen!.cursor, signal: stop.signal });
        try {
          checkDeepEqual(messagesOf(await take(again, 5)), meanwhile, 'the messages after the cursor');
        } finally {
          stop.abort();
          await again.return();
        }
      },
    );

    feedTest('a cursor before pruned messages gets cursor_expired, and a later one reads on', async (context, feed) => {
      const own = context.store as S & { pruneMessages?: (before: number) => number | Promise<number> };
      const prune = options.pruneMessages
        ? (before: number) => options.pruneMessages!(context.store, before)
        : typeof own.pruneMessages === 'function'
          ? async (before: number) => {
              while ((await own.pruneMessages!(before)) > 0);
            }
          : null;
      if (prune === null)
        return context.skipHere('the store has no pruneMessages, and options.pruneMessages is not given');
      const webhook = await channelOf(context);
      const messages: Message[] = [];
      for (let i = 1; i <= 4; i++) messages.push(await post(context.store, webhook, t0 + i));
      const cursors = (await readSettled(feed, { channelId: webhook.channelId, limit: 4 })).entries.map(
        (entry) => entry.cursor,
      );
      await prune(t0 + 3);
      await checkFails(
        () => feed.readFeed({ channelId: webhook.channelId, after: cursors[0], limit: 10 }),
        'cursor_expired',
        'a read after the first, pruned, message',
      );
      const after = await readSettled(feed, { channelId: webhook.channelId, after: cursors[1], limit: 10 });
      checkDeepEqual(
        after.entries.map((entry) => entry.cursor),
        cursors.slice(2),
        'cursors after the last pruned message',
      );
      checkDeepEqual(messagesOf(after.entries), messages.slice(2), 'messages after the last pruned message');
      checkDeepEqual(
        messagesOf((await readSettled(feed, { channelId: webhook.channelId, limit: 10 })).entries),
        messages.slice(2),
        'messages from the start',
      );
    });

    feedTest('a string that is not a cursor of the store gets invalid_cursor', async (context, feed) => {
      const webhook = await channelOf(context);
      await post(context.store, webhook, t0 + 1);
      for (const after of ['not a cursor!', '']) {
        await checkFails(
          () => feed.readFeed({ channelId: webhook.channelId, after, limit: 10 }),
          'invalid_cursor',
          `a read after ${JSON.stringify(after)}`,
        );
        await checkFails(
          () => feed.readFeed({ after, limit: 10 }),
          'invalid_cursor',
          `a read of every channel after ${JSON.stringify(after)}`,
        );
      }
    });
  });
}

function messagesOf(entries: FeedEntry[]): Message[] {
  return entries.map((entry) => entry.message);
}

function checkIncreasing(entries: FeedEntry[], what: string): void {
  for (let i = 1; i < entries.length; i++) {
    check(
      entries[i - 1]!.cursor < entries[i]!.cursor,
      `${what}: cursor ${i} (${entries[i]!.cursor}) is not greater than cursor ${i - 1} (${entries[i - 1]!.cursor})`,
    );
  }
}

/**
 * One read, read again while the store holds entries back (a write elsewhere on its backend is
 * still open): the page as it is once nothing is held back, or once it is full.
 */
async function readSettled(feed: FeedStore, options: ReadFeedOptions): Promise<FeedPage> {
  const until = performance.now() + DELIVERY_MS;
  for (;;) {
    const page = await feed.readFeed(options);
    if (!page.heldBack || page.entries.length >= options.limit) return page;
    if (performance.now() > until)
      throw new ConformanceError(`readFeed still held entries back after ${DELIVERY_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The next `count` entries of a follower, each within the delivery time. */
async function take(follower: AsyncIterator<FeedEntry>, count: number): Promise<FeedEntry[]> {
  const entries: FeedEntry[] = [];
  while (entries.length < count) {
    const next = await within(follower.next(), `entry ${entries.length + 1} of ${count} from followFeed`);
    if (next.done === true) throw new ConformanceError('followFeed ended');
    entries.push(next.value);
  }
  return entries;
}

function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConformanceError(`${what}: nothing within ${DELIVERY_MS} ms`)), DELIVERY_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function checkFails(work: () => unknown, code: string, what: string): Promise<void> {
  let result: unknown;
  try {
    result = await work();
  } catch (error) {
    if (isChannelWebhookError(error) && error.code === code) return;
    throw new ConformanceError(
      `${what}: expected a ChannelWebhookError with code ${code}, got ${String((error as { code?: unknown })?.code ?? error)}`,
    );
  }
  throw new ConformanceError(
    `${what}: expected a ChannelWebhookError with code ${code}, got ${JSON.stringify(result)}`,
  );
}
