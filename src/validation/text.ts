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
