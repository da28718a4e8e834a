import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookStore } from '../../src/ports.js';
import { deepText, expectedMessage, problem, problemHeaders, setup, splitUrl } from '../support/setup.js';

const LEAKY = 'connect ECONNREFUSED db.internal:5432 user=chat password=hunter2';
const STORE_FAILED = {
  status: 500,
  headers: problemHeaders({ remaining: 59, seconds: 60 }),
  body: problem(500, 'store_failed'),
};

type Method = 'getWebhook' | 'insertMessage';

/** The store with `method` replaced, the first `times` calls only. */
function breaking(method: Method, behaviour: () => Promise<never>, times = Infinity) {
  return (store: MemoryStore): WebhookStore => {
    let calls = 0;
    const original = store[method].bind(store) as (...args: unknown[]) => unknown;
    return {
      ...store,
      [method]: (...args: unknown[]) => (calls++ < times ? behaviour() : original(...args)),
    } as WebhookStore;
  };
}

const throwing = () => Promise.reject(new Error(LEAKY));
const hanging = () => new Promise<never>(() => {});

describe('500 store failure', () => {
  it('a store that throws on insert answers 500 without leaking the error', async () => {
    const s = await setup({ wrapStore: breaking('insertMessage', throwing) });
    const response = await s.post({ text: 'hi' });
    expect(response).toEqual(STORE_FAILED);
    const text = JSON.stringify(response);
    for (const fragment of ['ECONNREFUSED', 'hunter2', 'db.internal']) expect(text).not.toContain(fragment);
    expect(s.errors.map((reported) => reported.context)).toEqual([{ stage: 'store', webhookId: s.webhookId }]);
  });

  it('a store that throws on the webhook lookup answers 500 without leaking the error', async () => {
    const s = await setup({ wrapStore: breaking('getWebhook', throwing) });
    const response = await s.post({ text: 'hi' });
    expect(response).toEqual({ status: 500, headers: problemHeaders(), body: problem(500, 'store_failed') });
    expect(JSON.stringify(response)).not.toContain('hunter2');
  });

  it('a store that hangs on insert past storeTimeoutMs answers 500', async () => {
    const s = await setup({ wrapStore: breaking('insertMessage', hanging), storeTimeoutMs: 20 });
    const started = performance.now();
    expect(await s.post({ text: 'hi' })).toEqual(STORE_FAILED);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(s.errors.map((reported) => reported.context)).toEqual([{ stage: 'store', webhookId: s.webhookId }]);
  });

  it('a store that hangs on the webhook lookup past storeTimeoutMs answers 500', async () => {
    const s = await setup({ wrapStore: breaking('getWebhook', hanging), storeTimeoutMs: 20 });
    expect(await s.post({ text: 'hi' })).toEqual({
      status: 500,
      headers: problemHeaders(),
      body: problem(500, 'store_failed'),
    });
  });

  it('a store that hangs on the guarded insert past storeTimeoutMs answers 500', async () => {
    const s = await setup({ wrapStore: breaking('insertMessage', hanging), storeTimeoutMs: 20 });
    expect(await s.post({ text: 'hi' })).toEqual(STORE_FAILED);
  });

  it('after a failed insert, a retry with the same key stores the message exactly once', async () => {
    const s = await setup({ wrapStore: breaking('insertMessage', throwing, 1) });
    expect((await s.post({ text: 'hi' }, { idempotencyKey: 'evt' })).status).toBe(500);
    const retry = await s.post({ text: 'hi' }, { idempotencyKey: 'evt' });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ message: expectedMessage(s, { text: 'hi' }), duplicate: false });
    expect((await s.post({ text: 'hi' }, { idempotencyKey: 'evt' })).status).toBe(200);
    expect(await s.store.listMessages('general')).toHaveLength(1);
  });
});

describe('onError', () => {
  it('never receives the secret, whatever fails', async () => {
    const scenarios = [
      await setup({ wrapStore: breaking('insertMessage', throwing) }),
      await setup({ wrapStore: breaking('getWebhook', throwing) }),
      await setup({ wrapStore: breaking('insertMessage', hanging), storeTimeoutMs: 10 }),
      await setup({ rateLimiter: { hit: () => Promise.reject(new Error('limiter down')) } }),
      await setup({
        rateLimiter: { hit: () => Promise.reject(new Error('limiter down')) },
        onRateLimiterError: 'reject',
      }),
      await setup({ onMessage: () => Promise.reject(new Error('fan-out failed')) }),
    ];
    for (const s of scenarios) {
      await s.post({ text: 'hi' }, { idempotencyKey: 'k' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(s.errors.length).toBeGreaterThan(0);
      const { secret } = splitUrl(s.url);
      expect(deepText(s.errors)).not.toContain(secret);
    }
  });
});
