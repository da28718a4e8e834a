import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWebhookSender, type SendAttempt } from '../../src/send/index.js';
import { REFUSALS, startFaultyEndpoint, TRANSIENT_FAULTS, type Fault, type FaultyEndpoint } from './fault-proxy.js';

const MAX_ATTEMPTS = 4;
// Faults after which the client cannot know whether the endpoint stored the message: the request
// may have reached it (a dropped or stalled connection) or did (a 500 is the endpoint's own).
const MAY_STORE: readonly Fault[] = ['drop', 'drop_after', 'stall', 'stall_after', '500'];
const BASE_DELAY_MS = 100;
// Long enough that an attempt reaches the proxy before it times out, on a loaded machine too: an
// attempt abandoned on its way would leave its fault to the next one.
const ATTEMPT_TIMEOUT_MS = 500;

let endpoint: FaultyEndpoint;
beforeAll(async () => {
  endpoint = await startFaultyEndpoint();
});
afterAll(() => endpoint.close());

/** What the client must come to under `faults`, attempt by attempt, with the same key throughout. */
function expected(faults: Fault[]) {
  let stored = false;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const fault = faults[attempt - 1] ?? 'pass';
    if ((REFUSALS as readonly string[]).includes(fault))
      return { code: 'refused', status: Number(fault), attempts: attempt, stored };
    if (fault === 'pass') return { ok: true, duplicate: stored, attempts: attempt, stored: true };
    if (fault === 'drop_after' || fault === 'stall_after') stored = true;
  }
  return { code: 'retries_exhausted', attempts: MAX_ATTEMPTS, stored };
}

// The rule: whatever faults the network and the endpoint inject, one logical event ends as exactly
// one stored message, or as a failure that names why (with at most the one message an attempt stored
// before its answer was lost); every attempt carries the event's one key; a refusal is never retried;
// a 429 is waited out as Retry-After asks, every other retry after the full-jitter backoff.
it('ends each event as exactly one stored message or a failure that names why, and never retries a refusal', async () => {
  let event = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom<Fault>(...TRANSIENT_FAULTS, ...REFUSALS, 'pass'), { maxLength: MAX_ATTEMPTS + 1 }),
      async (faults) => {
        const text = `event ${++event}`;
        const waits: number[] = [];
        const attempts: SendAttempt[] = [];
        const sender = createWebhookSender({
          url: endpoint.url,
          maxAttempts: MAX_ATTEMPTS,
          baseDelayMs: BASE_DELAY_MS,
          attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
          random: () => 0.5,
          sleep: async (ms) => {
            waits.push(ms);
          },
        });
        endpoint.inject(faults);
        const before = endpoint.seen.length;
        const result = await sender.send({ text }, { onAttempt: (attempt) => attempts.push(attempt) });
        const want = expected(faults);

        const seen = endpoint.seen.slice(before);
        expect(seen).toHaveLength(want.attempts);
        expect(new Set(seen.map((request) => request.key))).toEqual(new Set([result.idempotencyKey]));
        expect(seen.every((request) => request.body === JSON.stringify({ text }))).toBe(true);
        expect(endpoint.store.listMessages('general').filter((message) => message.body === text)).toHaveLength(
          want.stored ? 1 : 0,
        );
        expect(result.attempts).toBe(want.attempts);
        if (want.ok) {
          expect(result).toMatchObject({
            ok: true,
            duplicate: want.duplicate,
            status: want.duplicate ? 200 : 201,
            message: { body: text },
          });
        } else {
          expect(result).toMatchObject({ ok: false, code: want.code });
          if (!result.ok)
            expect(result.message).toMatch(
              want.code === 'refused' ? /^the endpoint answered \d{3}/ : /^4 attempts failed; the last /,
            );
          // A failure that says nothing was stored must be right: a resend without the key would then post once.
          if (!result.ok) expect(result.possiblyStored).toBe(seen.some((request) => MAY_STORE.includes(request.fault)));
          if (want.status !== undefined) expect(result).toMatchObject({ status: want.status });
        }
        const retryWaits = seen
          .slice(0, -1)
          .map((request, index) => (request.fault === '429' ? 2_000 : Math.floor(0.5 * BASE_DELAY_MS * 2 ** index)));
        expect(waits).toEqual(retryWaits);
        expect(attempts.map((attempt) => attempt.retryInMs).slice(0, -1)).toEqual(retryWaits);
        expect(attempts.map((attempt) => attempt.attempt)).toEqual(seen.map((_, index) => index + 1));
      },
    ),
    { numRuns: 50, interruptAfterTimeLimit: 25_000 },
  );
}, 60_000);
