import { checkMilliseconds } from '../deadline.js';
import { ChannelWebhookError } from '../errors.js';
import type { WebhookHandlerOptions } from './handler-types.js';

const invalid = (message: string): ChannelWebhookError => new ChannelWebhookError('invalid_argument', `createWebhookHandler: ${message}`);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Throws a `ChannelWebhookError` with code `invalid_argument` for options `createWebhookHandler`
 * cannot work with, so that a mistake fails when the app is built, not on the first post.
 */
export function checkHandlerOptions(options: WebhookHandlerOptions): void {
  if (!isObject(options)) throw invalid(`options must be an object with a store, got ${String(options)}`);
  const { store, rateLimiter, clock, onMessage, onError, onRateLimiterError } = options;
  if (!isObject(store) || typeof store.getWebhook !== 'function' || typeof store.insertMessage !== 'function') {
    throw invalid('needs a store with getWebhook and insertMessage, e.g. createMemoryStore()');
  }
  if (rateLimiter !== undefined && (!isObject(rateLimiter) || typeof rateLimiter.hit !== 'function')) {
    throw invalid('rateLimiter must have a hit(key, now) method, e.g. createMemoryRateLimiter()');
  }
  if (clock !== undefined && (!isObject(clock) || typeof clock.now !== 'function')) throw invalid('clock must have a now() method');
  if (onMessage !== undefined && typeof onMessage !== 'function') throw invalid('onMessage must be a function');
  if (onError !== undefined && typeof onError !== 'function') throw invalid('onError must be a function');
  if (onRateLimiterError !== undefined && onRateLimiterError !== 'allow' && onRateLimiterError !== 'reject') {
    throw invalid(`onRateLimiterError must be 'allow' or 'reject', got ${String(onRateLimiterError)}`);
  }
  for (const name of ['storeTimeoutMs', 'rateLimiterTimeoutMs'] as const) {
    if (options[name] !== undefined) checkMilliseconds(options[name], name, 'createWebhookHandler');
  }
}
