import { redactWebhookUrl, webhookPathPattern } from '../http/redact.js';
import type { SendErrorCause } from './send-types.js';

const REDACTED = '[redacted]';

// A shorter string is too common to take out of every text, and no credential.
const MIN_SECRET_LENGTH = 8;

// How many errors of a cause chain a failure keeps: enough for fetch's `TypeError: fetch failed`,
// its socket or DNS error, and one more.
const CAUSE_DEPTH = 4;

/**
 * A function that takes the secret of `url` (a URL the sender's options check accepted) out of any
 * text: the secret segment of a webhook URL (or, for a URL of another shape, its path and each of
 * its segments and query values) wherever it appears, raw, normalized or decoded, and every webhook
 * URL's secret as `redactWebhookUrl` finds it.
 */
export function createScrubber(url: string): (text: string) => string {
  const secrets = [...new Set([url, new URL(url).href].flatMap(secretForms))]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) => redactWebhookUrl(secrets.reduce((scrubbed, secret) => scrubbed.split(secret).join(REDACTED), text));
}

// The secret of a webhook URL is what follows its id; a URL of another shape (a relay of the
// sender's own) may hold one in any segment or query value, so each of them counts.
function secretForms(url: string): string[] {
  const match = webhookPathPattern.exec(url);
  const { pathname, search, hash, searchParams } = new URL(url);
  const secrets =
    match === null
      ? [`${pathname}${search}${hash}`, ...pathname.split('/'), ...searchParams.values()]
      : [match[0].slice(match[1]!.length)];
  return secrets.flatMap((secret) => {
    try {
      return [secret, decodeURIComponent(secret)];
    } catch {
      return [secret];
    }
  });
}

/**
 * `error` as a failure may carry it ({@link SendErrorCause}): name, code and message scrubbed, and
 * its cause the same way, a few levels deep. The error itself is not kept: fetch's errors carry the
 * URL they were given in properties of their own (`base`, `input`) and in their stack.
 */
export function scrubCause(error: unknown, scrub: (text: string) => string, depth = CAUSE_DEPTH): SendErrorCause {
  if (typeof error !== 'object' || error === null) return { name: typeof error, message: scrub(String(error)) };
  const { name, code, message, cause } = error as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  return {
    name: typeof name === 'string' ? scrub(name) : 'Error',
    ...(typeof code === 'string' || typeof code === 'number' ? { code: scrub(String(code)) } : {}),
    message: typeof message === 'string' ? scrub(message) : '',
    ...(depth > 1 && cause !== undefined && cause !== null ? { cause: scrubCause(cause, scrub, depth - 1) } : {}),
  };
}
