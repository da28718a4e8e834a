import type { DenoKv, DenoKvEntry } from './deno-kv.js';
import { getAll } from './frames.js';
import type { KeyLayout } from './key-layout.js';
import {
  ChannelWebhookError,
  type FeedPage,
  type Message,
  type ReadFeedOptions,
} from '../../../src/store-kit/index.js';

// A cursor is the versionstamp of the commit that stored the message: 20 hex digits.
const CURSOR = /^[0-9a-f]{20}$/;
// How long a watcher waits before watching again after its watch broke.
const REWATCH_MS = 1_000;

/**
 * One page of the feed. A message's cursor is the versionstamp of the commit that stored it, which
 * is also the last part of its keys; versionstamps grow in commit order, and a commit with a smaller
 * one can never appear after a read that saw a larger one (the KV gives out a versionstamp when it
 * commits, and a strong read sees every commit before it). So a read never has to hold anything
 * back, and a page is a range of keys after the cursor: `heldBack` is always `false`. The KV keeps
 * every message, so no cursor expires.
 */
export async function readFeedPage(
  kv: DenoKv,
  keys: KeyLayout,
  { channelId, after, limit }: ReadFeedOptions,
  readMessage: (channelId: string, versionstamp: string, entry?: DenoKvEntry) => Promise<Message>,
): Promise<FeedPage> {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new ChannelWebhookError(
      'invalid_argument',
      `Deno KV store: readFeed's limit must be an integer of at least 1, got ${String(limit)}`,
    );
  }
  if (after !== undefined && (typeof after !== 'string' || !CURSOR.test(after))) {
    throw new ChannelWebhookError('invalid_cursor', 'Deno KV store: readFeed was given a cursor it never gave out');
  }
  const prefix = channelId === undefined ? keys.feed() : keys.messagesOf(channelId);
  // A key part just above the cursor's and below every later versionstamp.
  const start = after === undefined ? undefined : [...prefix, `${after}\u0000`];
  const found: DenoKvEntry[] = [];
  for await (const entry of kv.list(start === undefined ? { prefix } : { prefix, start }, { limit })) found.push(entry);
  const versionstamps = found.map((entry) => entry.key.at(-1) as string);
  if (channelId !== undefined) {
    const messages = await Promise.all(found.map((entry, i) => readMessage(channelId, versionstamps[i]!, entry)));
    return { entries: messages.map((message, i) => ({ cursor: versionstamps[i]!, message })), heldBack: false };
  }
  // The feed's entries name the channel each message is stored under.
  const firsts = await getAll(
    kv,
    found.map((entry, i) => keys.message(entry.value as string, versionstamps[i]!)),
  );
  const messages = await Promise.all(
    found.map((entry, i) => readMessage(entry.value as string, versionstamps[i]!, firsts[i])),
  );
  return { entries: messages.map((message, i) => ({ cursor: versionstamps[i]!, message })), heldBack: false };
}

/**
 * Calls `listener` whenever the feed's head may have moved: each commit that stores a message sets
 * the head, and `kv.watch` reports its new versionstamp (it may fold several into one report, which
 * the port allows). The watch's first report, right after it starts, is the call "after every
 * (re)connection"; a watch that breaks is started again. Every `pollMs` (unless 0) the head is also
 * read, for commits the watch does not see: another process's, on a local file.
 */
export function watchFeedHead(kv: DenoKv, keys: KeyLayout, listener: () => void, pollMs: number): () => void {
  let stopped = false;
  let reader: ReadableStreamDefaultReader<DenoKvEntry[]> | undefined;
  let seen: string | null | undefined;
  const notify = (versionstamp: string | null) => {
    seen = versionstamp;
    if (stopped) return;
    try {
      listener();
    } catch {
      // A listener's failure is the listener's: the watch goes on for the next message.
    }
  };
  const watch = async () => {
    while (!stopped) {
      try {
        reader = kv.watch([keys.feedHead()]).getReader();
        for (let read = await reader.read(); !read.done && !stopped; read = await reader.read())
          notify(read.value[0]?.versionstamp ?? null);
      } catch {
        // The watch broke (the KV closed or a connection dropped): watch again after a pause.
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, REWATCH_MS));
    }
  };
  void watch();
  const poll =
    pollMs > 0
      ? setInterval(() => {
          kv.get(keys.feedHead()).then(
            ({ versionstamp }) => {
              if (versionstamp !== seen) notify(versionstamp);
            },
            () => undefined,
          );
        }, pollMs)
      : undefined;
  return () => {
    stopped = true;
    clearInterval(poll);
    reader?.cancel().catch(() => undefined);
  };
}
