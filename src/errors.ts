/**
 * Stable codes of {@link ChannelWebhookError}. Test `error.code`, not `instanceof`, across entry points.
 *
 * @example
 * ```ts
 * const status: Record<string, number> = { forbidden: 403, webhook_not_found: 404, channel_archived: 409 };
 * res.status(status[(error as ChannelWebhookError).code] ?? 500);
 * ```
 */
export type ChannelWebhookErrorCode =
  | 'forbidden'
  | 'channel_not_found'
  | 'channel_archived'
  | 'webhook_not_found'
  | 'webhook_revoked'
  | 'invalid_name'
  | 'invalid_argument'
  | 'store_failed'
  | 'store_timeout'
  | 'rate_limiter_failed'
  | 'rate_limiter_timeout'
  | 'payload_too_large'
  | 'body_read_failed'
  | 'body_read_timeout'
  | 'misconfigured'
  | 'invalid_description'
  | 'invalid_avatar_url'
  | 'history_unavailable'
  | 'test_unavailable'
  | 'feed_unavailable'
  | 'cursor_expired'
  | 'invalid_cursor'
  | 'schema_too_new'
  | 'feed_notifier_failed';

/**
 * The one error class of the library. Every error it throws or reports carries a stable `code`
 * and, where another error caused it, that error as `cause`.
 *
 * @example
 * ```ts
 * try {
 *   await manager.create(actor, { channelId, name: 'CI' });
 * } catch (error) {
 *   if ((error as ChannelWebhookError).code === 'forbidden') return res.status(403).end();
 *   throw error;
 * }
 * ```
 */
export class ChannelWebhookError extends Error {
  /** A stable, machine-readable code. */
  readonly code: ChannelWebhookErrorCode;

  constructor(code: ChannelWebhookErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChannelWebhookError';
    this.code = code;
  }
}

/**
 * Whether `value` is a {@link ChannelWebhookError} with `code` (by its `code` and `name`, so it also
 * works across bundles and realms).
 *
 * @example
 * ```ts
 * if (isChannelWebhookError(error, 'forbidden')) res.status(403).end();
 * ```
 */
export function isChannelWebhookError(value: unknown, code?: ChannelWebhookErrorCode): value is ChannelWebhookError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown };
  return candidate.name === 'ChannelWebhookError' && (code === undefined || candidate.code === code);
}
