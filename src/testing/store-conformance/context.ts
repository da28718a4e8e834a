import type { Channel, Message, WebhookRecord, WebhookStore } from '../../ports.js';
import { ConformanceError } from '../assert.js';
import { skipTest, type TestApi } from '../test-api.js';

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
   * another process's view). When given, the race tests spread their callers over both and the
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
  putChannel?: (store: S, channel: Channel) => void | Promise<void>;
  /**
   * Deletes a channel, for the test that an insert into a deleted channel answers
   * `channel_not_found`. Default: none, and that test shows as skipped.
   */
  deleteChannel?: (store: S, channelId: string) => void | Promise<void>;
  /**
   * A channel's messages, oldest first, to check what was stored beyond what `insertMessage`
   * answered. Default: the store's own `listMessages`. Without either, those extra checks are left
   * out and the listing test is skipped where the framework can mark a running test skipped.
   */
  listMessages?: (store: S, channelId: string) => Message[] | Promise<Message[]>;
  /** Callers in the race tests. Default 25. */
  concurrency?: number;
  /**
   * Whether messages, keys and a history record's pointers with U+0000 and lone surrogates must
   * come back exactly. Valid JSON can carry both; a store that keeps them in SQL `text` columns
   * cannot. Default `true`; with `false` the messages' test shows as skipped, and a record with such
   * pointers need only be kept, its pointers as the store can keep them.
   */
  unusualStrings?: boolean;
  /**
   * Removes every message created before `before` (epoch ms) from what the store keeps, as its
   * retention does, for the test that a cursor before a removed message gets `cursor_expired`.
   * Default: the store's own `pruneMessages(before)`, called until it removes nothing (the memory,
   * SQLite stores have one). Without either, that test is skipped where the framework can mark a
   * running test skipped.
   */
  pruneMessages?: (store: S, before: number) => void | Promise<void>;
  /** Name of the outer `describe`. Default `'WebhookStore conformance'`. */
  name?: string;
  /** The groups to run, each a `describe` of its own. Default: all. */
  groups?: readonly StoreConformanceGroup[];
}

/**
 * A group of the store suite: `channels`, `webhooks` (records, rotation, revocation, hashes only),
 * `messages` (the idempotent insert), `guarded insert` (what refuses it, races, `lastPostAt`),
 * `profile` (`updateWebhookProfile`), `history` (`recordPosts` and `listPosts`) and `feed`
 * (`readFeed` and `watchFeed`); the last two are skipped, with their reason, for a store that has neither.
 *
 * @example
 * ```ts
 * runStoreConformance({ describe, it, createStore, groups: ['messages'] satisfies StoreConformanceGroup[] });
 * ```
 */
export type StoreConformanceGroup =
  | 'channels'
  | 'webhooks'
  | 'messages'
  | 'guarded insert'
  | 'profile'
  | 'history'
  | 'feed';

/** What each conformance test gets: the store, its peer and the seeding helpers. */
export interface Context<S extends WebhookStore = WebhookStore> {
  store: S;
  /** The peer instance, or the store itself when there is none. */
  peer: WebhookStore;
  putChannel: (channel: Channel) => Promise<void>;
  /** Puts an active channel for the webhook (unless there is one) and inserts the webhook. */
  seed: (webhook: WebhookRecord) => Promise<void>;
  listMessages: ((channelId: string) => Promise<Message[]>) | null;
  /**
   * Marks the running test skipped, with `reason`, where the framework can (Vitest's and
   * `node:test`'s context, Mocha's `this`); the test then returns. For what only a store made can tell.
   */
  skipHere: (reason: string) => void;
}

/** Declares one test that runs against a fresh store. */
export type DefineTest<S extends WebhookStore = WebhookStore> = (
  name: string,
  body: (context: Context<S>) => Promise<void>,
) => void;

/** What a group of conformance tests needs to register itself. */
export interface Suite<S extends WebhookStore = WebhookStore> {
  options: StoreConformanceOptions<S>;
  test: DefineTest<S>;
  /** Registers a test left out, as skipped with `reason`. */
  skip: (name: string, reason: string) => void;
  /** A fixed time the tests build records at, epoch ms. */
  t0: number;
  concurrency: number;
}

export function createSuite<S extends WebhookStore>(options: StoreConformanceOptions<S>): Suite<S> {
  const test: DefineTest<S> = (name, body) => {
    options.it(name, async function (this: unknown, ...args: unknown[]) {
      const runner = (args[0] ?? this) as { skip?: (note?: string) => void } | undefined;
      const skipHere = (reason: string) => {
        if (typeof runner?.skip === 'function') runner.skip(reason);
      };
      const store = await options.createStore();
      const peer = options.createPeer === undefined ? null : await options.createPeer(store);
      try {
        await body(contextOf(options, store, peer, skipHere));
      } finally {
        await options.dispose?.(store, peer);
      }
    });
  };
  return {
    options,
    test,
    skip: (name, reason) => skipTest(options.it, name, reason),
    t0: Date.UTC(2026, 0, 1, 12),
    concurrency: options.concurrency ?? 25,
  };
}

function contextOf<S extends WebhookStore>(
  options: StoreConformanceOptions<S>,
  store: S,
  peer: WebhookStore | null,
  skipHere: (reason: string) => void,
): Context<S> {
  const own = store as S &
    Partial<{ putChannel(channel: Channel): unknown; listMessages(id: string): Message[] | Promise<Message[]> }>;
  const putChannel = async (channel: Channel) => {
    if (options.putChannel) await options.putChannel(store, channel);
    else if (typeof own.putChannel === 'function') await own.putChannel(channel);
    else throw new ConformanceError('the store has no putChannel: pass options.putChannel to seed channels');
  };
  const listMessages = options.listMessages
    ? async (channelId: string) => options.listMessages!(store, channelId)
    : typeof own.listMessages === 'function'
      ? async (channelId: string) => own.listMessages!(channelId)
      : null;
  const seed = async (webhook: WebhookRecord) => {
    if ((await store.getChannel(webhook.channelId)) === null)
      await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: false });
    await store.insertWebhook(webhook);
  };
  return { store, peer: peer ?? store, putChannel, seed, listMessages, skipHere };
}
