import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWebhookSender, type SendAttempt } from '../../src/send/index.js';
import { startFaultyEndpoint, type FaultyEndpoint } from './fault-proxy.js';

const T0 = Date.UTC(2026, 0, 1);

/** A 503 problem answer without `Retry-After`: the sender backs off by itself. */
const overloaded = () =>
  new Response(
    JSON.stringify({
      type: 'about:blank',
      title: 'Store failed',
      status: 503,
      detail: 'try again',
      code: 'store_failed',
    }),
    {
      status: 503,
      headers: { 'content-type': 'application/problem+json' },
    },
  );

// Rule: an attempt gets `attemptTimeoutMs` or what is left of `timeoutMs`, whichever is less, so
// that `send` resolves by its total deadline even when the endpoint stalls on the last attempt.
describe('an attempt never outlives the sender’s total deadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an attempt stalled 500 ms before the deadline is abandoned at the deadline, and send resolves then', async () => {
    vi.useFakeTimers({ now: T0 });
    const calls: { startedAt: number; abortedAt: number | null }[] = [];
    const fetch = (_url: string, init: RequestInit): Promise<Response> => {
      const call = { startedAt: Date.now() - T0, abortedAt: null as number | null };
      calls.push(call);
      if (calls.length === 1) return Promise.resolve(overloaded());
      // The endpoint never answers: only the attempt's own abort ends it.
      return new Promise((_, reject) => {
        init.signal!.addEventListener('abort', () => {
          call.abortedAt = Date.now() - T0;
          reject(init.signal!.reason);
        });
      });
    };
    // The first answer is a 503 at 0 ms; the backoff, half of 3,000 ms, starts the second attempt
    // at 1,500 ms, with 500 ms left of the 2,000 ms deadline and a 10,000 ms attemptTimeoutMs.
    const sender = createWebhookSender({
      url: 'https://chat.example.com/hooks/channels/wh_1/secret',
      fetch,
      timeoutMs: 2_000,
      attemptTimeoutMs: 10_000,
      baseDelayMs: 3_000,
      random: () => 0.5,
    });
    const attempts: SendAttempt[] = [];
    let settledAt: number | null = null;
    const sending = sender
      .send(
        { text: 'Deploy 42 finished' },
        { idempotencyKey: 'deploy-42', onAttempt: (attempt) => attempts.push(attempt) },
      )
      .finally(() => {
        settledAt = Date.now() - T0;
      });
    await vi.runAllTimersAsync();
    const result = await sending;

    expect(calls).toEqual([
      { startedAt: 0, abortedAt: null },
      { startedAt: 1_500, abortedAt: 2_000 },
    ]);
    expect(settledAt).toBe(2_000);
    expect(result).toEqual({
      ok: false,
      code: 'deadline_exceeded',
      message: 'the 2 s deadline leaves no time for attempt 3; the last timed out',
      idempotencyKey: 'deploy-42',
      attempts: 2,
      // The stalled attempt was cut off after it was sent: it may have been stored.
      possiblyStored: true,
      status: null,
      problem: null,
      retryAfterMs: null,
      cause: expect.objectContaining({ name: 'AbortError' }),
    });
    expect(attempts).toEqual([
      {
        attempt: 1,
        idempotencyKey: 'deploy-42',
        outcome: 'retry',
        status: 503,
        error: null,
        durationMs: 0,
        retryInMs: 1_500,
      },
      {
        attempt: 2,
        idempotencyKey: 'deploy-42',
        outcome: 'gave_up',
        status: null,
        error: 'timeout',
        durationMs: 500,
        retryInMs: null,
      },
    ]);
  });

  describe('over HTTP, on the real clock', () => {
    let endpoint: FaultyEndpoint;
    beforeAll(async () => {
      endpoint = await startFaultyEndpoint();
    });
    afterAll(() => endpoint.close());

    // A behaviour check, not a speed target: a stalled attempt ends at the 3 s deadline rather
    // than after its own 10 s, so the bounds are loose; 3 s leaves the first attempt and its
    // backoff room on a loaded machine, where 1 s did not.
    it('an attempt to an endpoint that stalls ends at the total deadline, not at attemptTimeoutMs', async () => {
      endpoint.inject(['500', 'stall']);
      const before = endpoint.seen.length;
      const sender = createWebhookSender({
        url: endpoint.url,
        timeoutMs: 3_000,
        attemptTimeoutMs: 10_000,
        baseDelayMs: 400,
        random: () => 0.5,
      });
      const attempts: SendAttempt[] = [];
      const started = performance.now();
      const result = await sender.send(
        { text: 'stalled' },
        { idempotencyKey: 'stall-1', onAttempt: (attempt) => attempts.push(attempt) },
      );
      const took = performance.now() - started;

      expect(result).toMatchObject({
        ok: false,
        code: 'deadline_exceeded',
        attempts: 2,
        status: null,
        message: 'the 3 s deadline leaves no time for attempt 3; the last timed out',
      });
      expect(attempts.map(({ outcome, status, error }) => [outcome, status, error])).toEqual([
        ['retry', 500, null],
        ['gave_up', null, 'timeout'],
      ]);
      expect(attempts[1]!.durationMs).toBeLessThan(6_000);
      expect(took).toBeLessThan(8_000);
      expect(endpoint.seen.slice(before).map(({ key, fault }) => [key, fault])).toEqual([
        ['stall-1', '500'],
        ['stall-1', 'stall'],
      ]);
    });
  });
});
