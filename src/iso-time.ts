// The last whole second formatted, and its first 20 characters (`2026-01-01T12:00:00.`).
let second = Number.NaN;
let prefix = '';

// Beyond these, `toISOString` writes a six-digit year with a sign, which the prefix would cut.
const FIRST_MS = 0;
const LAST_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/**
 * `new Date(ms).toISOString()`. `toISOString` costs over a microsecond, about what the rest of a
 * post's own work in process costs together, so posts within one second share the formatted
 * second and add only its milliseconds.
 */
export function isoTime(ms: number): string {
  const whole = Math.floor(ms);
  if (!(whole >= FIRST_MS && whole <= LAST_MS)) return new Date(ms).toISOString();
  const at = Math.floor(whole / 1000);
  if (at !== second) {
    second = at;
    prefix = new Date(at * 1000).toISOString().slice(0, 20);
  }
  const millis = whole - at * 1000;
  return `${prefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
