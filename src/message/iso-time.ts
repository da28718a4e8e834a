import { flatString } from './flat-string.js';

// The last time asked for and its text: posts in one millisecond share one string.
let lastMs = Number.NaN;
let lastText = '';
// The last whole second formatted, and its first 20 characters (`2026-01-01T12:00:00.`).
let second = Number.NaN;
let prefix = '';

// Beyond these, `toISOString` writes a six-digit year with a sign, which the prefix would cut.
const FIRST_MS = 0;
const LAST_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/**
 * `new Date(ms).toISOString()`, as one flat string. `toISOString` costs over half a microsecond,
 * about a tenth of a post's own work in process, so posts within one second share the formatted
 * second and add only its milliseconds, and posts within one millisecond share the whole text.
 * A message keeps its time for as long as it is stored, so the text is made one flat string.
 */
export function isoTime(ms: number): string {
  if (ms === lastMs) return lastText;
  const whole = Math.floor(ms);
  let text: string;
  if (!(whole >= FIRST_MS && whole <= LAST_MS)) text = new Date(ms).toISOString();
  else {
    const at = Math.floor(whole / 1000);
    if (at !== second) {
      second = at;
      prefix = new Date(at * 1000).toISOString().slice(0, 20);
    }
    const millis = whole - at * 1000;
    text = flatString(`${prefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`);
  }
  lastMs = ms;
  lastText = text;
  return text;
}
