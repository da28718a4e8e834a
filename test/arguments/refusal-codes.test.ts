import { describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../adapters/frameworks/express/index.js';
import { createFetchHandler } from '../../adapters/frameworks/fetch/index.js';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import { createKoaMiddleware } from '../../adapters/frameworks/koa/index.js';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import type { WebhookHandler, WebhookHandlerOptions } from '../../src/handler/handler-types.js';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';

/** Runs `build` and returns the code of what it threw, or 'no error'. */
function thrownCode(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect((error as Error).name).toBe('ChannelWebhookError');
    return (error as { code: string }).code;
  }
  return 'no error';
}

const store = createMemoryStore();
const handle: WebhookHandler = createWebhookHandler({ store });

// Rule: a factory given an argument it cannot work with throws ChannelWebhookError
// `invalid_argument` when the app is built, never a TypeError or RangeError, never later on a post.
describe('factories refuse bad arguments with invalid_argument', () => {
  it.each<[string, unknown]>([
    ['no options', undefined],
    ['no store', {}],
    ['a store without insertMessage', { store: { getWebhook: () => null } }],
    ['a rate limiter without hit', { store, rateLimiter: {} }],
    ['a clock without now', { store, clock: Date }],
    ['an onMessage that is not a function', { store, onMessage: 'broadcast' }],
    ['an onError that is not a function', { store, onError: {} }],
    ['an unknown onRateLimiterError', { store, onRateLimiterError: 'ignore' }],
    ['a zero storeTimeoutMs', { store, storeTimeoutMs: 0 }],
    ['a NaN storeTimeoutMs', { store, storeTimeoutMs: Number.NaN }],
    ['a storeTimeoutMs as text', { store, storeTimeoutMs: '5000' }],
    ['a rateLimiterTimeoutMs past the timer range', { store, rateLimiterTimeoutMs: 2 ** 31 }],
    ['a negative rateLimiterTimeoutMs', { store, rateLimiterTimeoutMs: -1 }],
  ])('createWebhookHandler: %s', (_, options) => {
    expect(thrownCode(() => createWebhookHandler(options as WebhookHandlerOptions))).toBe('invalid_argument');
  });

  it.each<[string, unknown]>([
    ['null options', null],
    ['a zero limit', { limit: 0 }],
    ['a fractional limit', { limit: 1.5 }],
    ['a limit as text', { limit: '60' }],
    ['a zero window', { windowMs: 0 }],
    ['an infinite window', { windowMs: Number.POSITIVE_INFINITY }],
    ['a window as text', { windowMs: '60000' }],
  ])('createMemoryRateLimiter: %s', (_, options) => {
    expect(thrownCode(() => createMemoryRateLimiter(options as never))).toBe('invalid_argument');
  });

  it('createFakeClock: a start that is not a finite number, or a move backwards', () => {
    expect(thrownCode(() => createFakeClock(Number.NaN))).toBe('invalid_argument');
    const clock = createFakeClock();
    expect(thrownCode(() => clock.advance(-1))).toBe('invalid_argument');
    expect(thrownCode(() => clock.set(Number.POSITIVE_INFINITY))).toBe('invalid_argument');
  });

  it.each([
    ['createExpressMiddleware', (h: unknown, o?: unknown) => createExpressMiddleware(h as WebhookHandler, o as never)],
    ['createKoaMiddleware', (h: unknown, o?: unknown) => createKoaMiddleware(h as WebhookHandler, o as never)],
    ['createFetchHandler', (h: unknown, o?: unknown) => createFetchHandler(h as WebhookHandler, o as never)],
    ['createNodeListener', (h: unknown, o?: unknown) => createNodeListener(h as WebhookHandler, o as never)],
  ])('%s: a handler that is not a function, or options that are not an object', (_, create) => {
    expect(thrownCode(() => create(undefined))).toBe('invalid_argument');
    expect(thrownCode(() => create({ store }))).toBe('invalid_argument');
    expect(thrownCode(() => create(handle, 5_000))).toBe('invalid_argument');
    expect(thrownCode(() => create(handle, null))).toBe('invalid_argument');
    expect(thrownCode(() => create(handle, {}))).toBe('no error');
  });

  it('createFetchHandler and createNodeListener: a fallback that is not a function', () => {
    expect(thrownCode(() => createFetchHandler(handle, { fallback: 'https://example.com' as never }))).toBe(
      'invalid_argument',
    );
    expect(thrownCode(() => createNodeListener(handle, { fallback: 'https://example.com' as never }))).toBe(
      'invalid_argument',
    );
    expect(thrownCode(() => createNodeListener(handle, { bodyTimeoutMs: 0 }))).toBe('invalid_argument');
  });

  it('the limits of a valid call are accepted', () => {
    expect(
      thrownCode(() =>
        createWebhookHandler({
          store,
          storeTimeoutMs: 2 ** 31 - 1,
          rateLimiterTimeoutMs: 1,
          onRateLimiterError: 'reject',
        }),
      ),
    ).toBe('no error');
    expect(thrownCode(() => createMemoryRateLimiter({ limit: 1, windowMs: 0.5 }))).toBe('no error');
  });
});
