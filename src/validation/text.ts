/** Number of Unicode code points in `text` (a surrogate pair counts once). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/** Whether `text`, trimmed, has between 1 and `max` code points. */
export function hasTrimmedLength(text: string, max: number): boolean {
  const trimmed = text.trim();
  if (trimmed.length === 0) return false;
  // A code point takes one or two UTF-16 units, so `length <= max` already proves it.
  return trimmed.length <= max || codePointLength(trimmed) <= max;
}

/** Longest pointer reference token echoed back, in UTF-16 units; a longer one is cut and marked. */
export const MAX_POINTER_TOKEN = 64;
/** The mark that ends a cut reference token. */
export const TRUNCATION_MARK = '…';

/**
 * `pointer` with every reference token longer than {@link MAX_POINTER_TOKEN} cut to that many units
 * and ended by {@link TRUNCATION_MARK}: a property name is the sender's input, and an error list must
 * not reflect it at any length. The cut never splits a surrogate pair or a `~0`/`~1` escape.
 */
export function boundPointer(pointer: string): string {
  if (pointer.length <= MAX_POINTER_TOKEN) return pointer;
  return pointer
    .split('/')
    .map((token) => {
      if (token.length <= MAX_POINTER_TOKEN) return token;
      let end = MAX_POINTER_TOKEN;
      const last = token.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end--;
      else if (token[end - 1] === '~') end--;
      return token.slice(0, end) + TRUNCATION_MARK;
    })
    .join('/');
}
