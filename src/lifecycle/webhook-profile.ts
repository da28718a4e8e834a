import { ChannelWebhookError } from '../errors.js';
import type { WebhookProfileChange } from '../ports.js';
import { safeImageUrl } from '../render/safe-url.js';
import { codePointLength } from '../validation/text.js';

/** Longest description, in code points, after trimming. */
export const MAX_DESCRIPTION_CODE_POINTS = 500;

/** Longest raw `description` looked at, in UTF-16 code units: longer input is refused before any other work. */
const MAX_DESCRIPTION_INPUT_LENGTH = 4_096;

/** Longest avatar URL, in UTF-16 code units. */
export const MAX_AVATAR_URL_LENGTH = 2_048;

// As in a name (see webhook-name.ts), but a description may run over lines: tab and line feed are
// its own; every other control, lone surrogate and bidirectional formatting character is refused.
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDFFF]/u;

/**
 * Checks a profile change (`description` and `avatarUrl` of a webhook) and returns it as it is
 * stored: a field left out stays out, `null` or a blank string clears it, a description is trimmed.
 * Throws `invalid_description` or `invalid_avatar_url`; any other key is not looked at.
 */
export function cleanProfileChange(input: { description?: unknown; avatarUrl?: unknown }): WebhookProfileChange {
  const change: WebhookProfileChange = {};
  if (input.description !== undefined) change.description = cleanDescription(input.description);
  if (input.avatarUrl !== undefined) change.avatarUrl = cleanAvatarUrl(input.avatarUrl);
  return change;
}

/** A description as stored: trimmed plain text, or `null` for none. */
export function cleanDescription(description: unknown): string | null {
  if (description === null) return null;
  if (typeof description !== 'string') throw invalidDescription('a description must be a string or null');
  if (description.length > MAX_DESCRIPTION_INPUT_LENGTH) {
    throw invalidDescription(
      `a description must be at most ${MAX_DESCRIPTION_INPUT_LENGTH} characters long before trimming`,
    );
  }
  const trimmed = description.trim();
  if (trimmed.length === 0) return null;
  if (codePointLength(trimmed) > MAX_DESCRIPTION_CODE_POINTS) {
    throw invalidDescription(
      `a description must have at most ${MAX_DESCRIPTION_CODE_POINTS} characters after trimming`,
    );
  }
  const unsafe = UNSAFE.exec(trimmed);
  if (unsafe !== null) {
    const codeUnit = unsafe[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw invalidDescription(
      `a description must not contain control characters other than tab and line feed, lone surrogates or bidirectional formatting characters (found U+${codeUnit})`,
    );
  }
  return trimmed;
}

/**
 * An avatar URL as stored, or `null` for none. It must be one the renderer shows as an image (its
 * one rule of safe URLs: no control, format or space character anywhere, and a URL that parses),
 * and also `https:`, without user name or password, and at most {@link MAX_AVATAR_URL_LENGTH}
 * characters. The message never repeats the URL.
 */
export function cleanAvatarUrl(avatarUrl: unknown): string | null {
  if (avatarUrl === null || avatarUrl === '') return null;
  if (typeof avatarUrl !== 'string') throw invalidAvatarUrl('an avatar URL must be a string or null');
  if (avatarUrl.length > MAX_AVATAR_URL_LENGTH)
    throw invalidAvatarUrl(`an avatar URL must be at most ${MAX_AVATAR_URL_LENGTH} characters long`);
  if (safeImageUrl(avatarUrl, false) === undefined) {
    throw invalidAvatarUrl('an avatar URL must be an absolute https URL without spaces or control characters');
  }
  const parsed = new URL(avatarUrl);
  if (parsed.protocol !== 'https:')
    throw invalidAvatarUrl(`an avatar URL must be https, not ${parsed.protocol.slice(0, -1)}`);
  if (parsed.username !== '' || parsed.password !== '')
    throw invalidAvatarUrl('an avatar URL must not carry a user name or password');
  return avatarUrl;
}

function invalidDescription(message: string): ChannelWebhookError {
  return new ChannelWebhookError('invalid_description', message);
}

function invalidAvatarUrl(message: string): ChannelWebhookError {
  return new ChannelWebhookError('invalid_avatar_url', message);
}
