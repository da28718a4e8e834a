/** What stands in for a webhook secret in a redacted URL. */
const REDACTED = '[redacted]';

// Every piece is written with escapes (`\x5c` for a backslash), never raw characters, so that the
// string form reads the same in JavaScript, PCRE (nginx, whose quoted strings eat `\\`) and RE2
// (Caddy, Go), and can be pasted into a config file as it is.

// A path separator as some runtime reads it: Bun and the WHATWG URL parser take a backslash for a
// slash, and the encoded forms cost nothing to cover. Two backslashes go together, so that a JSON
// record's escaped backslash is kept whole.
const SEPARATOR = '(?:/|\\x5c\\x5c|\\x5c|%2[fF]|%5[cC])';

// One character of a URL in a log line. The URL ends at the query, the fragment, white space or a
// control character (a terminal colour code), and at a `"` that closes a JSON or logfmt string
// (followed by `,`, `}` or `]`, white space or the end), so that a JSON record around it stays
// valid. Any other `"` is part of the path, since Bun accepts a raw one there; a backslash goes
// with the character after it, so that JSON's `\"` and `\\` do not end the URL early.
const URL_CHAR = '(?:[^?#"\\x5c\\x00-\\x20]|"[^,}\\]\\x00-\\x20]|\\x5c"[^,}\\]\\x00-\\x20]|\\x5c[^"\\x00-\\x20])';

// One character of a path segment: a URL character that is not a separator (JSON's `\"` is one).
const SEGMENT_CHAR = '(?:[^/?#"\\x5c\\x00-\\x20]|"[^,}\\]\\x00-\\x20]|\\x5c"[^,}\\]\\x00-\\x20])';

// Up to this many segments may stand between `hooks` and `channels`: enough for any dot segments a
// client could mean, and a bound on the work for a line full of `/hooks/` that a backtracking
// engine (JavaScript, PCRE) would otherwise retry from each one.
const MAX_SEGMENTS_BETWEEN = 16;

const caseless = (word: string) =>
  [...word].map((letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`).join('');

// `hooks` and `channels` as whole segments, in any case, with segments between them: a runtime that
// resolves dot segments turns `/hooks/x/../channels/` into `/hooks/channels/` (and `/hooks/./channels/`,
// `/hooks/%2e/channels/` alike). Only a raw slash or backslash separates these, so each segment ends
// at one place and the search does not branch.
const ROUTE = `${SEPARATOR}${caseless('hooks')}${SEPARATOR}(?:${SEGMENT_CHAR}*[/\\x5c]){0,${MAX_SEGMENTS_BETWEEN}}?${caseless('channels')}${SEPARATOR}`;

/**
 * The string form of {@link webhookPathPattern}, for proxies and log pipelines, in a syntax that
 * JavaScript, PCRE (nginx) and RE2 (Caddy, Go) all read the same way. Capture group 1 is the route
 * up to and including the separator after the webhook id; the rest of the match, everything after
 * it up to the query or fragment, holds the secret. Replace a match with group 1 followed by
 * `[redacted]`.
 *
 * It finds every form of a webhook URL that a runtime or framework accepts, and the near misses that
 * carry a live secret: `hooks` and `channels` in any case, a slash written as `\`, `%2F` or `%5C`,
 * dot segments in plain or encoded form anywhere (`/./`, `/%2e/`, `/x/../`, `/%2E%2E/`; up to 16
 * segments between `hooks` and `channels`), doubled slashes, a trailing slash and extra segments.
 * The URL ends at `?`, `#`, white space, a control character, or a `"` followed by `,`, `}`, `]`,
 * white space or the end (the end of a JSON or logfmt string).
 *
 * @example
 * ```ts
 * const pattern = new RegExp(webhookPathPatternSource, 'g');
 * 'POST /api/hooks/channels/wh_1/s3cret HTTP/1.1'.replace(pattern, '$1[redacted]');
 * // 'POST /api/hooks/channels/wh_1/[redacted] HTTP/1.1'
 * '/api/hooks/channels/wh_1/./s3cret?x=1'.replace(pattern, '$1[redacted]');
 * // '/api/hooks/channels/wh_1/[redacted]?x=1'
 * ```
 */
export const webhookPathPatternSource = `(${ROUTE}${SEGMENT_CHAR}*${SEPARATOR})${URL_CHAR}+`;

/**
 * Finds a webhook URL's `/hooks/channels/{webhook_id}/{secret}` anywhere in a string, in any form a
 * runtime accepts (see {@link webhookPathPatternSource}): a path, an absolute URL or a whole log
 * line. Group 1 is the part to keep (up to the separator after the webhook id); the rest of the
 * match holds the secret. It has no `g` flag, so it holds no state between calls; to replace every
 * occurrence, use {@link redactWebhookUrl} or `new RegExp(webhookPathPattern, 'g')`.
 *
 * @example
 * ```ts
 * webhookPathPattern.test('POST /api/hooks/channels/wh_1/s3cret HTTP/1.1'); // true
 * line.replace(new RegExp(webhookPathPattern, 'g'), '$1[redacted]');
 * ```
 */
export const webhookPathPattern = new RegExp(webhookPathPatternSource);

const EVERY_WEBHOOK_PATH = new RegExp(webhookPathPatternSource, 'g');

/**
 * Replaces the secret of every webhook URL in `url` with `[redacted]`: everything after
 * `/hooks/channels/{id}/` up to the query or fragment goes, so a mistyped URL (a trailing slash, an
 * extra segment) and every form a runtime accepts (`/./`, `/%2e/`, `/x/../`, backslashes, any case
 * of `/hooks/channels/`, encoded slashes) lose their secret too. Scheme, host, mount prefix, the
 * webhook id, the query string and the fragment stay. Safe to log. Works on paths, absolute URLs,
 * whole log lines and JSON log records; idempotent (redacting twice gives the same string); a
 * string with no webhook URL in it comes back unchanged.
 *
 * @param url - a path (with or without a query), an absolute URL, or any text that may contain one.
 * @returns the same text with each secret replaced by `[redacted]`.
 * @example
 * ```ts
 * redactWebhookUrl('/api/hooks/channels/wh_1/s3cret?source=ci');
 * // '/api/hooks/channels/wh_1/[redacted]?source=ci'
 * redactWebhookUrl('https://chat.example.com/hooks/channels/wh_1/s3cret/');
 * // 'https://chat.example.com/hooks/channels/wh_1/[redacted]'
 * app.use(morgan(':method :redacted-url :status')); // see docs/security.md, "Secrets out of logs"
 * ```
 */
export function redactWebhookUrl(url: string): string {
  return url.replace(EVERY_WEBHOOK_PATH, `$1${REDACTED}`);
}
