import { ChannelWebhookError } from '../errors.js';
import type { ReadFeedOptions } from '../ports.js';

/**
 * The cursors of the library's stores: the store's epoch (8 hex digits, drawn when its feed began)
 * and one or two positions, each as 16 hex digits, joined by `-`. Every part has a fixed width, so
 * the cursors of one store compare as plain strings in feed order; the epoch tells a cursor of this
 * feed from one of its earlier life (a memory store before a restart, a database created anew).
 *
 * @example
 * ```ts
 * const parts: CursorParts | null = parseCursor(after, 1);
 * ```
 */
export interface CursorParts {
  epoch: string;
  positions: bigint[];
}

const EPOCH = /^[0-9a-f]{8}$/;
const POSITION = /^[0-9a-f]{16}$/;
const MAX_POSITION = 2n ** 64n - 1n;

/**
 * A new epoch: 32 random bits as 8 hex digits.
 *
 * @example
 * ```ts
 * await db.feed.insertIfAbsent({ id: 1, epoch: newEpoch() }); // once, when the store's feed begins
 * ```
 */
export function newEpoch(): string {
  return crypto.getRandomValues(new Uint32Array(1))[0]!.toString(16).padStart(8, '0');
}

/**
 * The cursor of `positions` (each from 0 to 2^64 - 1) in the feed of `epoch`.
 *
 * @example
 * ```ts
 * const entries = rows.map((row) => ({ cursor: formatCursor(epoch, row.seq), message: toMessage(row) }));
 * ```
 */
export function formatCursor(epoch: string, ...positions: Array<bigint | number | string>): string {
  let cursor = epoch;
  for (const position of positions) cursor += `-${BigInt(position).toString(16).padStart(16, '0')}`;
  return cursor;
}

/**
 * The parts of `cursor`, or `null` when it is not a cursor of `count` positions.
 *
 * @example
 * ```ts
 * const parsed = parseCursor(after, 1);
 * if (parsed === null) throw invalidCursor('My store', after);
 * if (parsed.epoch !== epoch) throw cursorExpired('My store', 'it comes from another database');
 * const last = parsed.positions[0]!;
 * ```
 */
export function parseCursor(cursor: string, count: number): CursorParts | null {
  const parts = cursor.split('-');
  if (parts.length !== count + 1 || !EPOCH.test(parts[0]!)) return null;
  const positions: bigint[] = [];
  for (const part of parts.slice(1)) {
    if (!POSITION.test(part)) return null;
    const position = BigInt(`0x${part}`);
    if (position > MAX_POSITION) return null;
    positions.push(position);
  }
  return { epoch: parts[0]!, positions };
}

/**
 * The error of a string that is not a cursor of the store's kind.
 *
 * @example
 * ```ts
 * if (parseCursor(after, 1) === null) throw invalidCursor('My store', after);
 * ```
 */
export function invalidCursor(store: string, cursor: string): ChannelWebhookError {
  const shown = cursor.length > 80 ? `${JSON.stringify(cursor.slice(0, 80))}…` : JSON.stringify(cursor);
  return new ChannelWebhookError('invalid_cursor', `${store}: ${shown} is not a feed cursor of this store`);
}

/**
 * The error of a cursor older than what the store keeps.
 *
 * @example
 * ```ts
 * if (last < prunedThrough) throw cursorExpired('My store', 'messages after it were pruned');
 * ```
 */
export function cursorExpired(store: string, why: string): ChannelWebhookError {
  return new ChannelWebhookError(
    'cursor_expired',
    `${store}: the feed cursor is older than what the store keeps (${why}): read again from the start`,
  );
}

/**
 * Checks what `readFeed` was asked, so every store refuses a bad call alike (`invalid_argument`).
 *
 * @example
 * ```ts
 * readFeed(options) {
 *   checkReadFeedOptions('My store', options);
 *   // …
 * }
 * ```
 */
export function checkReadFeedOptions(store: string, options: ReadFeedOptions): void {
  const { channelId, after, limit } = (options ?? {}) as Partial<ReadFeedOptions>;
  const bad = (what: string) => new ChannelWebhookError('invalid_argument', `${store}: readFeed: ${what}`);
  if (typeof options !== 'object' || options === null)
    throw bad('options must be an object { channelId?, after?, limit }');
  if (channelId !== undefined && typeof channelId !== 'string') throw bad('channelId must be a string when given');
  if (after !== undefined && typeof after !== 'string') throw bad('after must be a cursor string when given');
  if (!Number.isSafeInteger(limit) || (limit as number) < 1) throw bad('limit must be a whole number of at least 1');
}
