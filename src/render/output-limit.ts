import type { RenderableMessage } from './render-types.js';

/** `toHtml` writes at most this many characters per character of the message, plus {@link OUTPUT_FLOOR}. */
export const HTML_PER_CHARACTER = 16;
/** `toPlainText` writes at most this many characters per character of the message, plus {@link OUTPUT_FLOOR}. */
export const TEXT_PER_CHARACTER = 8;
/** What any message may render to whatever its size, so that resolvers' text fits a short message. */
export const OUTPUT_FLOOR = 8_192;

/** The message's size as stored: its body and its blocks as JSON, in UTF-16 code units. */
export function messageSize(message: RenderableMessage): number {
  let blocks = 0;
  try {
    blocks = JSON.stringify(message.blocks ?? []).length;
  } catch {
    // Not JSON (a cycle, a BigInt), so not a stored message: the floor alone bounds it.
  }
  return (message.body ?? '').length + blocks;
}

/** `value` cut to at most `length` code units, never between the two halves of a surrogate pair. */
export function cutAt(value: string, length: number): string {
  if (length <= 0) return '';
  const high = value.charCodeAt(length - 1);
  return value.slice(0, high >= 0xd800 && high <= 0xdbff ? length - 1 : length);
}
