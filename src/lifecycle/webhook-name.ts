import { ChannelWebhookError } from '../errors.js';
import { codePointLength } from '../validation/text.js';

/** Longest webhook name, in code points, after trimming. */
export const MAX_NAME_CODE_POINTS = 80;

/**
 * Longest raw `name` the manager looks at, in UTF-16 code units, before trimming. Longer input is
 * refused before any other work, so a megabyte of padding costs nothing.
 */
export const MAX_NAME_INPUT_LENGTH = 1_024;

// C0 and C1 controls and DEL; the bidi embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) and marks (U+200E, U+200F, U+061C), which can make an author name display as
// something else; and, with the `u` flag, only lone surrogates (a pair is one code point).
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDFFF]/u;

// One code point that draws something. Not: spaces, default-ignorable code points (zero-width
// spaces and joiners, U+2060, U+FEFF, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, variation
// selectors), combining marks on nothing, format characters, or the blank Braille pattern U+2800: a
// name made only of these shows as nothing, so its messages would look authorless.
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\p{Cc}\p{Cf}\u2800]/u;

/**
 * Checks a webhook name and returns it trimmed, the form it is stored and shown in.
 * Throws `invalid_name` for anything else.
 */
export function cleanWebhookName(name: unknown): string {
  if (typeof name !== 'string') throw invalidName('a webhook name must be a string');
  if (name.length > MAX_NAME_INPUT_LENGTH) {
    throw invalidName(`a webhook name must be at most ${MAX_NAME_INPUT_LENGTH} characters long before trimming`);
  }
  const trimmed = name.trim();
  if (trimmed.length === 0 || codePointLength(trimmed) > MAX_NAME_CODE_POINTS) {
    throw invalidName(`a webhook name must have 1 to ${MAX_NAME_CODE_POINTS} characters after trimming`);
  }
  const unsafe = UNSAFE.exec(trimmed);
  if (unsafe !== null) {
    const codeUnit = unsafe[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw invalidName(
      `a webhook name must not contain control characters, lone surrogates or bidirectional formatting characters (found U+${codeUnit})`,
    );
  }
  if (!VISIBLE.test(trimmed)) throw invalidName('a webhook name must have at least one visible character');
  return trimmed;
}

function invalidName(message: string): ChannelWebhookError {
  return new ChannelWebhookError('invalid_name', message);
}
