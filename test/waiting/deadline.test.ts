import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeadline, settleWithin } from '../../src/waiting/deadline.js';
import type { ChannelWebhookError } from '../../src/errors.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import type { WebhookStore } from '../../src/ports.js';
import { settle, setup } from '../support/setup.js';

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('createDeadline', () => {
  // Rule: a value answered synchronously comes back as it is: no timer, no promise.
  it('passes a synchronous answer through untouched, without a timer', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const deadline = createDeadline(1_000, 'store_timeout', 'the store did not answer in time');
    const answer = { id: 'wh_1' };
    expect(deadline(answer)).toBe(answer);
    expect(deadline(null)).toBeNull();
    expect(setTimer).not.toHaveBeenCalled();
  });

  // Rule: each call that answers with a promise has its own timer, and none outlives its call.
  it('gives each pending call its own timer and clears it when the call settles', async () => {
    vi.useFakeTimers();
    const deadline = createDeadline(1_000, 'store_timeout', 'the store did not answer in time');
    const first = deadline(Promise.resolve('a'));
    const second = deadline(Promise.reject(new Error('down')));
    expect(vi.getTimerCount()).toBe(2);
    await expect(first).resolves.toBe('a');
    await expect(second).rejects.toThrow('down');
    expect(vi.getTimerCount()).toBe(0);
  });

  // A runtime that drops a request's timers when that request ends (Cloudflare's workerd) must not
  // leave the next request without a deadline.
  it('still times out a call after the timers of an earlier call were dropped', async () => {
    vi.useFakeTimers();
    const deadline = createDeadline(1_000, 'store_timeout', 'the store did not answer in time');
    void Promise.resolve(deadline(never())).catch(() => undefined);
    vi.clearAllTimers();
    const hanging = Promise.resolve(deadline(never()));
    const outcome = hanging.then(
      () => 'resolved',
      (error: ChannelWebhookError) => `${error.name}:${error.code}:${error.message}`,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toBe('ChannelWebhookError:store_timeout:the store did not answer in time (1000 ms)');
  });

  it('rejects a call that takes longer than its deadline, and drops its late result', async () => {
    vi.useFakeTimers();
    const deadline = createDeadline(50, 'rate_limiter_timeout', 'the rate limiter did not answer in time');
    let answer!: (value: string) => void;
    const slow = Promise.resolve(deadline(new Promise<string>((resolve) => (answer = resolve))));
    const outcome = slow.then(String, (error: ChannelWebhookError) => error.code);
    await vi.advanceTimersByTimeAsync(49);
    answer('late');
    expect(await outcome).toBe('late');
    const slower = Promise.resolve(deadline(new Promise<string>((resolve) => (answer = resolve))));
    const outcome2 = slower.then(String, (error: ChannelWebhookError) => error.code);
    await vi.advanceTimersByTimeAsync(50);
    answer('too late');
    expect(await outcome2).toBe('rate_limiter_timeout');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('settleWithin', () => {
  it('settles like the work, or with the time-out error, and leaves no timer', async () => {
    vi.useFakeTimers();
    await expect(settleWithin(Promise.resolve(1), 10, () => new Error('late'))).resolves.toBe(1);
    const late = settleWithin(never(), 10, () => new Error('late'));
    const caught = late.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(10);
    expect(await caught).toBe('late');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the handler on ports that answer synchronously', () => {
  it('arms no timer for a whole post through the memory store and limiter', async () => {
    const s = await setup({ wrapStore: (store) => ({ ...store, recordPosts: undefined, listPosts: undefined }) });
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const response = await s.post({ text: 'no timers' });
    expect(response.status).toBe(201);
    expect(setTimer).not.toHaveBeenCalled();
  });

  it("with the post history, arms one timer for a tick's posts: the history's batch, written after the answers", async () => {
    const s = await setup();
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const responses = await Promise.all([s.post({ text: 'one' }), s.post({ text: 'two' }), s.post({ text: 'three' })]);
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
    expect(setTimer).toHaveBeenCalledTimes(1);
    expect(s.store.listPosts!(s.webhook.id, 10)).toEqual([]);
    await settle();
    expect(s.store.listPosts!(s.webhook.id, 10)).toHaveLength(3);
  });

  it('a wrapped port that answers with a promise gets its deadline', async () => {
    const s = await setup();
    const slow: WebhookStore = { ...s.store, getWebhook: () => never() };
    const handle = createWebhookHandler({ store: slow, storeTimeoutMs: 20 });
    const response = await handle({
      method: 'POST',
      url: s.url,
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ code: 'store_failed' });
  });
});
