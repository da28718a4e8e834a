import { ChannelWebhookError } from '../errors.js';
import type { WebhookHandler } from './handler-types.js';

/**
 * Throws a `ChannelWebhookError` with code `invalid_argument` unless `handle` is a function, so an
 * adapter built on something else (the options object, the store) fails at once, not on a post.
 *
 * @param handle - what the adapter factory was given as the core handler.
 * @param factory - the factory's name, for the error message.
 * @example
 * ```ts
 * checkHandle(handle, 'createFetchHandler');
 * ```
 */
export function checkHandle(handle: WebhookHandler, factory: string): void {
  if (typeof handle !== 'function') {
    throw new ChannelWebhookError(
      'invalid_argument',
      `${factory} needs the handler from createWebhookHandler(), got ${handle === null ? 'null' : typeof handle}`,
    );
  }
}
