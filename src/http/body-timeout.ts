import { ChannelWebhookError } from '../errors.js';

/** The body deadline of the adapters when none is given, in ms. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

// Timers longer than this fire at once (Node warns), which would cut off every body.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Checks an adapter factory's options object and its `bodyTimeoutMs`, so that a mistake fails when
 * the app is built rather than on the first post, and returns the deadline (default 10,000 ms).
 *
 * @param options - what the caller passed, possibly nothing.
 * @param factory - the factory's name, for the error message.
 * @example
 * ```ts
 * const bodyTimeoutMs = resolveBodyTimeout(options, 'createFetchHandler');
 * ```
 */
export function resolveBodyTimeout(options: { bodyTimeoutMs?: number } | undefined, factory: string): number {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new ChannelWebhookError('invalid_argument', `${factory}: options must be an object, got ${String(options)}`);
  }
  const bodyTimeoutMs = options?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (typeof bodyTimeoutMs !== 'number' || !(bodyTimeoutMs > 0) || bodyTimeoutMs > MAX_TIMER_MS) {
    throw new ChannelWebhookError(
      'invalid_argument',
      `${factory}: bodyTimeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, got ${String(bodyTimeoutMs)}`,
    );
  }
  return bodyTimeoutMs;
}
