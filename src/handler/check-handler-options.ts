import { fn, MILLISECONDS, oneOf, required } from '../arguments/argument-rules.js';
import { checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { CLOCK, HANDLER_STORE, RATE_LIMITER } from '../arguments/port-rules.js';
import type { WebhookHandlerOptions } from './handler-types.js';

const OPTIONS: OptionsShape = {
  store: required(HANDLER_STORE),
  rateLimiter: RATE_LIMITER,
  clock: CLOCK,
  onMessage: fn('a function (message) => void'),
  onError: fn('a function (error, context) => void'),
  onRateLimiterError: oneOf('allow', 'reject'),
  storeTimeoutMs: MILLISECONDS,
  rateLimiterTimeoutMs: MILLISECONDS,
};

/**
 * Throws a `ChannelWebhookError` with code `invalid_argument` for options `createWebhookHandler`
 * cannot work with, so that a mistake fails when the app is built, not on the first post.
 */
export function checkHandlerOptions(options: WebhookHandlerOptions): void {
  checkOptions('createWebhookHandler', options, OPTIONS);
}
