import { checkMilliseconds } from '../deadline.js';
import { ChannelWebhookError } from '../errors.js';

/** The body deadline of the adapters when none is given, in ms. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

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
  return checkMilliseconds(options?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, 'bodyTimeoutMs', factory);
}
