/** What stands in for a webhook secret in a redacted URL. */
const REDACTED = '[redacted]';

// A segment ends at a slash, a query, a fragment, white space, a quote or a control character (a
// terminal colour code), so that the pattern also works on whole log lines and JSON log records, not
// only on bare URLs. Written with escapes, never raw characters, so the string form can be pasted.
const SEGMENT = '[^/?#\\s"\\x00-\\x1f]+';

/**
 * The string form of {@link webhookPathPattern}, for proxies and log pipelines, in a syntax that
 * JavaScript, PCRE (nginx) and RE2 (Caddy, Go) all read the same way. Capture group 1
 * is everything up to and including the slash before the secret (prefix, `/hooks/channels/` and
 * the webhook id); the rest of the match is the secret. Replace a match with group 1 followed by
 * `[redacted]`.
 *
 * @example
 * ```ts
 * webhookPathPatternSource; // '(/hooks/channels/[^/?#\\s"\\x00-\\x1f]+/)[^/?#\\s"\\x00-\\x1f]+'
 * 'POST /api/hooks/channels/wh_1/s3cret HTTP/1.1'.replace(new RegExp(webhookPathPatternSource, 'g'), '$1[redacted]');
 * // 'POST /api/hooks/channels/wh_1/[redacted] HTTP/1.1'
 * ```
 */
export const webhookPathPatternSource = `(/hooks/channels/${SEGMENT}/)${SEGMENT}`;

/**
 * Finds a webhook URL's `/hooks/channels/{webhook_id}/{secret}` anywhere in a string: a path, an
 * absolute URL or a whole access-log line. Group 1 is the part to keep (up to the slash before the
 * secret); the rest of the match is the secret. It has no `g` flag, so it holds no state between
 * calls; to replace every occurrence, use {@link redactWebhookUrl} or
 * `new RegExp(webhookPathPattern, 'g')`.
 *
 * @example
 * ```ts
 * webhookPathPattern.test('POST /api/hooks/channels/wh_1/s3cret HTTP/1.1'); // true
 * line.replace(new RegExp(webhookPathPattern, 'g'), '$1[redacted]');
 * ```
 */
export const webhookPathPattern = new RegExp(webhookPathPatternSource);

// A lookbehind instead of a capture, so that a secret segment is found even where it overlaps the
// previous match (`/hooks/channels/hooks/channels/{id}/{secret}`), which a single left-to-right
// pass of webhookPathPattern would skip.
const SECRET_SEGMENT = new RegExp(`(?<=/hooks/channels/${SEGMENT}/)${SEGMENT}`, 'g');

/**
 * Replaces the secret of every webhook URL in `url` with `[redacted]`, leaving everything else as
 * it was: scheme, host, mount prefix, the webhook id, the query string and the fragment. Safe to
 * log. Works on paths, absolute URLs and whole log lines; idempotent (redacting twice gives the
 * same string); a string with no webhook URL in it comes back unchanged. The segment after
 * `/hooks/channels/{id}/` is redacted even when more path follows it (a mistyped URL with a
 * trailing slash still carries a live secret).
 *
 * @param url - a path (with or without a query), an absolute URL, or any text that may contain one.
 * @returns the same text with each secret replaced by `[redacted]`.
 * @example
 * ```ts
 * redactWebhookUrl('/api/hooks/channels/wh_1/s3cret?source=ci');
 * // '/api/hooks/channels/wh_1/[redacted]?source=ci'
 * redactWebhookUrl('https://chat.example.com/hooks/channels/wh_1/s3cret');
 * // 'https://chat.example.com/hooks/channels/wh_1/[redacted]'
 * app.use(morgan(':method :redacted-url :status')); // see the README, "Secrets out of logs"
 * ```
 */
export function redactWebhookUrl(url: string): string {
  return url.replace(SECRET_SEGMENT, REDACTED);
}
