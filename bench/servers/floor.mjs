// The contract floor: a hand-written post that runs the checks the contract asks of a text-only
// post, in the contract's order, with Node's own tools and nothing else: no library, no schema
// compiler, no ports, no deadlines, no frozen records, no problem bodies. It answers as the library
// does (the stored message, `duplicate`, the rate-limit headers). The benchmark measures it in the
// same run as the library, to show how much of a pair's gap is the contract's own work. It is not a
// hard floor: node:crypto's SHA-256 of a 43-character secret costs about 2 µs more than the
// library's JavaScript one. It handles the posts the pairs send (`text`, `eventId` and the
// `Idempotency-Key` header) and refuses `blocks`, which it has no validator for.

import * as crypto from 'node:crypto';
import { MAX_BYTES } from './baseline.mjs';

const LIMIT = 60;
const WINDOW_MS = 60_000;
const ROUTE = /^\/hooks\/channels\/(wh_[A-Za-z0-9_-]{22})\/([A-Za-z0-9_-]{43})$/;
const FIELDS = new Set(['text', 'blocks', 'eventId']);
const decoder = new TextDecoder('utf-8', { fatal: true });
// Node's one-shot digest where it has one (20.12+), else a Hash object.
/** @type {(text: string) => Buffer} */
const sha256 =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'buffer')
    : (text) => crypto.createHash('sha256').update(text).digest();

/**
 * 1 to `max` characters once trimmed.
 * @param {string} text
 * @param {number} max
 */
const trimmedWithin = (text, max) => {
  const length = text.trim().length;
  return length >= 1 && length <= max;
};

/**
 * @typedef {{ status: number; headers: Record<string, string>; body: object }} FloorAnswer
 * @typedef {Readonly<Record<string, string | string[] | undefined>>} FloorHeaders
 * @typedef {(max: number) => Uint8Array | Promise<Uint8Array>} FloorBodyReader
 * @typedef {[path: string, webhookId: string, secret: string]} RouteMatch ROUTE's match
 */

/**
 * @param {number} status
 * @param {string} code
 * @returns {FloorAnswer}
 */
const refused = (status, code) => ({
  status,
  headers: { 'content-type': 'application/problem+json' },
  body: { status, code },
});

/**
 * `count` webhooks in one channel, and `post(method, path, headers, read)` where `read(max)` gives
 * the body's bytes (at most `max + 1`), synchronously or as a promise; the answer is
 * `{ status, headers, body }`, or a promise of it once the body had to be waited for.
 * @param {number} count
 */
export function createFloor(count) {
  /**
   * @typedef {{ id: string; channelId: string; body: string; blocks: []; author: { type: 'webhook'; id: string; name: string }; createdAt: string }} FloorMessage
   * @type {Map<string, { id: string; name: string; secretHash: Buffer; revokedAt: number | null; times: number[]; keys: Map<string, FloorMessage> }>}
   */
  const webhooks = new Map();
  /** @type {string[]} */
  const paths = [];
  /** @type {{ id: string; archived: boolean; messages: FloorMessage[] }} */
  const channel = { id: 'general', archived: false, messages: [] };
  for (let i = 0; i < count; i++) {
    const id = `wh_${crypto.randomBytes(16).toString('base64url').slice(0, 22)}`;
    const secret = crypto.randomBytes(32).toString('base64url');
    webhooks.set(id, {
      id,
      name: `bench ${i}`,
      secretHash: sha256(secret),
      revokedAt: null,
      times: [],
      keys: new Map(),
    });
    paths.push(`/hooks/channels/${id}/${secret}`);
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {FloorHeaders} headers
   * @param {FloorBodyReader} read
   * @returns {FloorAnswer | Promise<FloorAnswer>}
   */
  function post(method, path, headers, read) {
    if (method !== 'POST') return refused(405, 'method_not_allowed');
    const match = /** @type {RouteMatch | null} */ (ROUTE.exec(path));
    const webhook = match === null ? undefined : webhooks.get(match[1]);
    if (
      webhook === undefined ||
      // A webhook was found, so the path matched.
      !crypto.timingSafeEqual(sha256(/** @type {RouteMatch} */ (match)[2]), webhook.secretHash) ||
      webhook.revokedAt !== null
    ) {
      return refused(404, 'not_found');
    }
    const type = headers['content-type'];
    if (typeof type !== 'string' || !/^application\/json\s*(;|$)/i.test(type))
      return refused(415, 'unsupported_media_type');
    const now = Date.now();
    const { times } = webhook;
    while (times.length > 0 && /** @type {number} */ (times[0]) <= now - WINDOW_MS) times.shift();
    if (times.length >= LIMIT) return refused(429, 'rate_limited');
    times.push(now);
    const oldest = /** @type {number} */ (times[0]);
    const rateHeaders = {
      'ratelimit-policy': `"default";q=${LIMIT};w=${WINDOW_MS / 1000}`,
      ratelimit: `"default";r=${LIMIT - times.length};t=${Math.ceil((oldest + WINDOW_MS - now) / 1000)}`,
    };
    if (Number(headers['content-length']) > MAX_BYTES) return refused(413, 'payload_too_large');
    const bytes = read(MAX_BYTES);
    return bytes instanceof Promise
      ? bytes.then((body) => afterBody(webhook, headers, body, now, rateHeaders))
      : afterBody(webhook, headers, bytes, now, rateHeaders);
  }

  /**
   * @param {NonNullable<ReturnType<typeof webhooks.get>>} webhook
   * @param {FloorHeaders} headers
   * @param {Uint8Array} bytes
   * @param {number} now
   * @param {Record<string, string>} rateHeaders
   * @returns {FloorAnswer}
   */
  function afterBody(webhook, headers, bytes, now, rateHeaders) {
    if (bytes.length > MAX_BYTES) return refused(413, 'payload_too_large');
    let value;
    try {
      value = JSON.parse(decoder.decode(bytes));
    } catch {
      return refused(400, 'invalid_json');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return refused(400, 'invalid_payload');
    for (const key in value) if (!FIELDS.has(key)) return refused(400, 'invalid_payload');
    const { text, eventId } = value;
    if (value.blocks !== undefined || typeof text !== 'string') return refused(400, 'invalid_payload');
    if (!trimmedWithin(text, 10_000)) return refused(400, 'invalid_payload');
    // Node joins a repeated header into one string.
    const header = /** @type {string | undefined} */ (headers['idempotency-key']);
    if (eventId !== undefined && (typeof eventId !== 'string' || !trimmedWithin(eventId, 200)))
      return refused(400, 'invalid_payload');
    if (header !== undefined && !trimmedWithin(header, 200)) return refused(400, 'invalid_payload');
    if (eventId !== undefined && header !== undefined && eventId !== header)
      return refused(400, 'idempotency_key_mismatch');
    if (channel.archived) return refused(409, 'channel_archived');
    const key = eventId ?? header;
    const earlier = key === undefined ? undefined : webhook.keys.get(key);
    if (earlier !== undefined)
      return {
        status: 200,
        headers: { 'content-type': 'application/json', ...rateHeaders },
        body: { message: earlier, duplicate: true },
      };
    /** @type {FloorMessage} */
    const message = {
      id: crypto.randomUUID(),
      channelId: channel.id,
      body: text,
      blocks: [],
      author: { type: 'webhook', id: webhook.id, name: webhook.name },
      createdAt: new Date(now).toISOString(),
    };
    channel.messages.push(message);
    if (key !== undefined) webhook.keys.set(key, message);
    return {
      status: 201,
      headers: { 'content-type': 'application/json', ...rateHeaders },
      body: { message, duplicate: false },
    };
  }

  return { paths, post, stored: () => channel.messages.length };
}
