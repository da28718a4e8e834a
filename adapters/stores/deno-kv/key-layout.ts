import { sha256 } from '@noble/hashes/sha2';
import type { DenoKvKeyPart } from './deno-kv.js';

/**
 * The version of the key layout below. A release that changes the layout raises it and migrates
 * the keys of the older one; the store refuses a KV whose version is newer than its own.
 *
 * @example
 * ```ts
 * const { value } = await kv.get(['channel-webhooks', 'version']);
 * if (value !== DENO_KV_LAYOUT_VERSION) console.warn('written by another release of channel-webhooks');
 * ```
 */
export const DENO_KV_LAYOUT_VERSION = 1;

type Key = readonly DenoKvKeyPart[];

/**
 * Every key the store and the limiter write, under the prefix: `C` is a channel id, `W` a webhook id,
 * `K` an idempotency key, `R` a limiter key (each through {@link keyPart}); a key ending in a
 * versionstamp is written with `kv.commitVersionstamp()`, which the KV replaces by its commit's
 * versionstamp, and is read back with it.
 */
export function keyLayout(prefix: string) {
  return {
    version: (): Key => [prefix, 'version'],
    channel: (channelId: string): Key => [prefix, 'channel', keyPart(channelId)],
    webhook: (webhookId: string): Key => [prefix, 'webhook', keyPart(webhookId)],
    // Kept apart from the webhook so that posts never write the webhook's own key: they check it.
    lastPost: (webhookId: string): Key => [prefix, 'last-post', keyPart(webhookId)],
    webhooksOf: (channelId: string): Key => [prefix, 'webhooks-of', keyPart(channelId)],
    newWebhookOf: (channelId: string, createdAt: number, versionstamp: symbol): Key => [
      prefix,
      'webhooks-of',
      keyPart(channelId),
      createdAt,
      versionstamp,
    ],
    messagesOf: (channelId: string): Key => [prefix, 'message', keyPart(channelId)],
    message: (channelId: string, versionstamp: string | symbol): Key => [
      prefix,
      'message',
      keyPart(channelId),
      versionstamp,
    ],
    messagePart: (channelId: string, part: number, versionstamp: string | symbol): Key => [
      prefix,
      'message-part',
      keyPart(channelId),
      part,
      versionstamp,
    ],
    feed: (): Key => [prefix, 'feed'],
    feedEntry: (versionstamp: string | symbol): Key => [prefix, 'feed', versionstamp],
    feedHead: (): Key => [prefix, 'feed-head'],
    idempotencyKey: (webhookId: string, key: string): Key => [prefix, 'key', keyPart(webhookId), keyPart(key)],
    rate: (key: string): Key => [prefix, 'rate', keyPart(key)],
    postHead: (webhookId: string): Key => [prefix, 'post-head', keyPart(webhookId)],
    posts: (webhookId: string): Key => [prefix, 'post', keyPart(webhookId)],
    post: (webhookId: string, slot: number): Key => [prefix, 'post', keyPart(webhookId), slot],
    postPart: (webhookId: string, slot: number, part: number): Key => [
      prefix,
      'post-part',
      keyPart(webhookId),
      slot,
      part,
    ],
  };
}

/** The keys of one prefix. */
export type KeyLayout = ReturnType<typeof keyLayout>;

// Longer ids are hashed: a KV key holds at most 2,048 bytes, and an idempotency key may be sent
// with any amount of white space around its 200 characters.
const MAX_PLAIN_BYTES = 256;
const encoder = new TextEncoder();
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * An id or a key as a part of a KV key, one to one: the string itself when it is well-formed Unicode
 * of at most 256 bytes of UTF-8 (readable in a KV browser), else the SHA-256 of its UTF-16 code
 * units as bytes. KV encodes a string part as UTF-8, where every lone surrogate becomes U+FFFD, so
 * two such strings would share a key; code units keep every string apart. A byte part never equals a
 * string part, so the two forms cannot meet.
 */
export function keyPart(text: string): string | Uint8Array {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most ids need no encoding to be measured.
  const fits =
    text.length * 3 <= MAX_PLAIN_BYTES ||
    (text.length <= MAX_PLAIN_BYTES && encoder.encode(text).length <= MAX_PLAIN_BYTES);
  if (fits && !LONE_SURROGATE.test(text)) return text;
  const units = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    units[2 * i] = unit & 0xff;
    units[2 * i + 1] = unit >> 8;
  }
  return sha256(units);
}
