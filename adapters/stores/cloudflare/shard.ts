import { sha256 } from '@noble/hashes/sha2';

// A shard is 5 base64url characters (30 bits): the first five of the SHA-256 of a channel id. One
// object holds every channel of one shard, so in practice one object per channel (two channels meet
// in one object once in about a billion pairs, which costs nothing but their sharing its throughput).
export const SHARD_LENGTH = 5;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const WEBHOOK_ID = /^wh_[A-Za-z0-9_-]{22}$/;
const encoder = new TextEncoder();

/** The shard of a channel: where its state, its webhooks, their messages and their rate windows live. */
export function channelShard(channelId: string): string {
  return hashShard(`channel:${channelId}`);
}

/**
 * The shard a webhook id names: the five characters after `wh_` of an id made by
 * {@link newShardedWebhookId}, which are its channel's shard. An id made elsewhere (imported from
 * another store) names a shard all the same, whose object then keeps a route to the channel's.
 * Anything that is no webhook id (a rate limiter's other keys) is hashed.
 */
export function keyShard(key: string): string {
  return WEBHOOK_ID.test(key) ? key.slice(3, 3 + SHARD_LENGTH) : hashShard(`key:${key}`);
}

/** `wh_`, the channel's shard, then 17 random base64url characters (102 bits). */
export function newShardedWebhookId(channelId: string): string {
  let id = `wh_${channelShard(channelId)}`;
  for (const byte of crypto.getRandomValues(new Uint8Array(22 - SHARD_LENGTH))) id += ALPHABET[byte & 63];
  return id;
}

function hashShard(text: string): string {
  const [a, b, c, d] = sha256(encoder.encode(text));
  const bits = ((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 2;
  let shard = '';
  for (let i = SHARD_LENGTH - 1; i >= 0; i--) shard += ALPHABET[(bits >>> (6 * i)) & 63];
  return shard;
}
