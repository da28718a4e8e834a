import type { RenderableMessage } from './render-types.js';

/** `toHtml` writes at most this many characters per character of the message, plus {@link OUTPUT_FLOOR}. */
export const HTML_PER_CHARACTER = 16;
/** `toPlainText` writes at most this many characters per character of the message, plus {@link OUTPUT_FLOOR}. */
export const TEXT_PER_CHARACTER = 8;
/** What any message may render to whatever its size, so that resolvers' text fits a short message. */
export const OUTPUT_FLOOR = 8_192;

/** The message's size as stored: its body and its blocks as JSON, in UTF-16 code units. */
function messageSize(message: RenderableMessage): number {
  let blocks = 0;
  try {
    blocks = JSON.stringify(message.blocks ?? []).length;
  } catch {
    // Not JSON (a cycle, a BigInt), so not a stored message: the floor alone bounds it.
  }
  return (message.body ?? '').length + blocks;
}

/** What is left of an output's limit. */
export interface Room {
  /** Characters that may still be written. */
  readonly left: number;
  /** Whether `size` more characters fit. */
  fits(size: number): boolean;
  /** Takes `size` characters when they fit, and says whether they did. */
  take(size: number): boolean;
}

/**
 * The room `perCharacter` × the message's size + {@link OUTPUT_FLOOR}, less `reserved`. Most
 * messages render within the floor, so the message is measured only when the floor runs out.
 */
export function createRoom(message: RenderableMessage, perCharacter: number, reserved: number): Room {
  let left = OUTPUT_FLOOR - reserved;
  let measured = false;
  const fits = (size: number): boolean => {
    if (size > left && !measured) {
      measured = true;
      left += perCharacter * messageSize(message);
    }
    return size <= left;
  };
  return {
    get left() {
      return left;
    },
    fits,
    take(size) {
      if (!fits(size)) return false;
      left -= size;
      return true;
    },
  };
}

/** Room inside `outer` for a part built before it is written there: it counts against `outer` without using it. */
export function createInnerRoom(outer: Room): Room {
  let used = 0;
  return {
    get left() {
      return outer.left - used;
    },
    fits: (size) => outer.fits(used + size),
    take(size) {
      if (!outer.fits(used + size)) return false;
      used += size;
      return true;
    },
  };
}

/** `value` cut to at most `length` code units, never between the two halves of a surrogate pair. */
export function cutAt(value: string, length: number): string {
  if (length <= 0) return '';
  const high = value.charCodeAt(length - 1);
  return value.slice(0, high >= 0xd800 && high <= 0xdbff ? length - 1 : length);
}
