/**
 * Largest accepted request body, in bytes (the contract's 64 KiB).
 *
 * @example
 * ```ts
 * if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return res.writeHead(413).end();
 * ```
 */
export const MAX_BODY_BYTES = 65_536;
/**
 * Requests per webhook per window, by default.
 *
 * @example
 * ```ts
 * const strict = createMemoryRateLimiter({ limit: DEFAULT_RATE_LIMIT / 2 });
 * ```
 */
export const DEFAULT_RATE_LIMIT = 60;
/**
 * The rate-limit window, by default, in ms.
 *
 * @example
 * ```ts
 * const hourly = createMemoryRateLimiter({ limit: 600, windowMs: 60 * DEFAULT_RATE_WINDOW_MS });
 * ```
 */
export const DEFAULT_RATE_WINDOW_MS = 60_000;
/**
 * How many history records a store keeps per webhook (`WebhookStore.recordPosts`), its oldest dropped first.
 *
 * @example
 * ```ts
 * const records = await store.listPosts?.(webhookId, POST_HISTORY_LIMIT);
 * ```
 */
export const POST_HISTORY_LIMIT = 100;
