/**
 * The wait before retry `retry` (1 for the first): "full jitter", a uniform draw below an
 * exponentially growing ceiling, so that senders that failed together do not retry together.
 */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * How long the answer asks to wait before a retry: `Retry-After` in seconds or as an HTTP date,
 * else the reset time of a `RateLimit` header (`"default";r=0;t=12`); `null` when it says nothing.
 */
export function requestedWait(headers: Headers, now: number): number | null {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = /(?:^|;)\s*t=(\d+)/.exec(headers.get('ratelimit') ?? '');
  return reset === null ? null : Number(reset[1]) * 1000;
}
