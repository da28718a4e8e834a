import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import {
  createWebhookSender,
  type SendAttempt,
  type WebhookSender,
  type WebhookSenderOptions,
} from '../../src/send/index.js';
import { listen } from '../support/http.js';
import { startFaultyEndpoint, type FaultyEndpoint } from './fault-proxy.js';

let endpoint: FaultyEndpoint;
beforeAll(async () => {
  endpoint = await startFaultyEndpoint();
});
afterAll(() => endpoint.close());
beforeEach(() => endpoint.inject([]));

const waits: number[] = [];
beforeEach(() => {
  waits.length = 0;
});
const fast = (options: Partial<WebhookSenderOptions> = {}) =>
  createWebhookSender({
    url: endpoint.url,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
const secretOf = (url: string) => url.split('/').pop()!;
const seenSince = (before: number) => endpoint.seen.slice(before);

describe('createWebhookSender, against the real handler over HTTP', () => {
  it('stores a post (201), and a resend with the same key is a success that says it was a duplicate (200)', async () => {
    const sender = fast();
    const first = await sender.send({ text: 'Deploy 42 finished' }, { idempotencyKey: 'deploy-42' });
    expect(first).toEqual({
      ok: true,
      status: 201,
      duplicate: false,
      idempotencyKey: 'deploy-42',
      attempts: 1,
      message: expect.objectContaining({
        body: 'Deploy 42 finished',
        blocks: [],
        author: expect.objectContaining({ type: 'webhook', name: 'CI' }),
      }),
    });
    const again = await sender.send({ text: 'Deploy 42 finished, again' }, { idempotencyKey: 'deploy-42' });
    expect(again).toEqual({ ...first, status: 200, duplicate: true });
  });

  it('uses the payload’s eventId as the header key and sends the payload unchanged', async () => {
    const before = endpoint.seen.length;
    const payload = { text: 'keyed by eventId', eventId: 'evt-7' };
    const result = await fast().send(payload);
    expect(result).toMatchObject({ ok: true, idempotencyKey: 'evt-7' });
    expect(seenSince(before)).toEqual([{ key: 'evt-7', body: JSON.stringify(payload), fault: 'pass' }]);
  });

  it('generates one UUID key for an event without one, and sends it on every retry', async () => {
    endpoint.inject(['500', 'drop']);
    const before = endpoint.seen.length;
    const result = await fast().send({ text: 'generated key' });
    const keys = seenSince(before).map((request) => request.key);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys)).toEqual(new Set([result.idempotencyKey]));
    expect(seenSince(before).every((request) => !request.body.includes('eventId'))).toBe(true);
  });

  it('sends nothing when the caller’s key differs from the payload’s eventId', async () => {
    const before = endpoint.seen.length;
    const result = await fast().send({ text: 'x', eventId: 'a' }, { idempotencyKey: 'b' });
    expect(result).toMatchObject({ ok: false, code: 'not_sent', attempts: 0, idempotencyKey: 'b', status: null });
    expect(seenSince(before)).toEqual([]);
  });

  it('returns the endpoint’s 400 with its pointers, after one attempt', async () => {
    const before = endpoint.seen.length;
    const result = await fast().send({ text: 'x', colour: 'red' } as never);
    expect(result).toMatchObject({
      ok: false,
      code: 'refused',
      status: 400,
      attempts: 1,
      problem: { code: 'invalid_payload', errors: [{ pointer: '/colour', message: 'is not an allowed property' }] },
      message: 'the endpoint answered 400 invalid_payload: One field is invalid; see errors.',
      possiblyStored: false,
    });
    expect(seenSince(before)).toHaveLength(1);
  });

  it('answers a wrong secret with a refused 404 and never puts the secret in its message', async () => {
    const url = endpoint.directUrl.replace(/[^/]+$/, 'A'.repeat(43));
    const result = await fast({ url }).send({ text: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'refused', status: 404, problem: { code: 'not_found' } });
    expect(JSON.stringify(result)).not.toContain('A'.repeat(43));
  });

  it('waits as Retry-After asks on 429, then retries with the same key', async () => {
    endpoint.inject(['429', '429']);
    const attempts: SendAttempt[] = [];
    const result = await fast().send(
      { text: 'after 429' },
      { idempotencyKey: 'k-429', onAttempt: (attempt) => attempts.push(attempt) },
    );
    expect(result).toMatchObject({ ok: true, attempts: 3, duplicate: false });
    expect(waits).toEqual([2_000, 2_000]);
    expect(attempts.map(({ outcome, status, retryInMs, error }) => ({ outcome, status, retryInMs, error }))).toEqual([
      { outcome: 'retry', status: 429, retryInMs: 2_000, error: null },
      { outcome: 'retry', status: 429, retryInMs: 2_000, error: null },
      { outcome: 'stored', status: 201, retryInMs: null, error: null },
    ]);
  });

  it('retries a 408 after the backoff, with the same key, and stores the message once', async () => {
    endpoint.inject(['408']);
    const before = endpoint.seen.length;
    const attempts: SendAttempt[] = [];
    const result = await fast().send(
      { text: 'after 408' },
      { idempotencyKey: 'k-408', onAttempt: (attempt) => attempts.push(attempt) },
    );
    expect(result).toMatchObject({ ok: true, status: 201, attempts: 2, duplicate: false, idempotencyKey: 'k-408' });
    expect(seenSince(before).map(({ key, fault }) => [key, fault])).toEqual([
      ['k-408', '408'],
      ['k-408', 'pass'],
    ]);
    expect(attempts.map(({ outcome, status }) => [outcome, status])).toEqual([
      ['retry', 408],
      ['stored', 201],
    ]);
    expect(waits).toHaveLength(1);
    expect(endpoint.store.listMessages('general').filter((message) => message.body === 'after 408')).toHaveLength(1);
  });

  it('gives up at once when a 429 asks to wait past the deadline, saying how long it asked', async () => {
    endpoint.inject(['429']);
    const clock = createFakeClock();
    const result = await fast({ clock, timeoutMs: 1_500 }).send({ text: 'too late' });
    expect(result).toMatchObject({
      ok: false,
      code: 'deadline_exceeded',
      attempts: 1,
      status: 429,
      retryAfterMs: 2_000,
      message:
        'the endpoint asked to wait 2 s, past the 1.5 s deadline, after 1 attempt; the last answered 429 rate_limited',
      possiblyStored: false,
    });
    expect(waits).toEqual([]);
  });

  it('retries 500, network errors and time-outs with full-jitter backoff up to maxAttempts, then names the last failure', async () => {
    endpoint.inject(['500', 'drop', 'stall', '500', '500']);
    const attempts: SendAttempt[] = [];
    const result = await fast({
      maxAttempts: 4,
      baseDelayMs: 1_000,
      maxDelayMs: 3_000,
      attemptTimeoutMs: 500,
      random: () => 0.999,
    }).send({ text: 'never stored' }, { onAttempt: (attempt) => attempts.push(attempt) });
    expect(result).toMatchObject({
      ok: false,
      code: 'retries_exhausted',
      attempts: 4,
      status: 500,
      problem: { code: 'store_failed' },
      possiblyStored: true,
    });
    expect(result.ok || result.message).toBe('4 attempts failed; the last answered 500 store_failed');
    expect(waits).toEqual([999, 1_998, 2_997]);
    expect(attempts.map(({ outcome, error }) => [outcome, error])).toEqual([
      ['retry', null],
      ['retry', 'network'],
      ['retry', 'timeout'],
      ['gave_up', null],
    ]);
    expect(attempts[2]!.durationMs).toBeGreaterThanOrEqual(490);
  });

  it('reads an answer whose characters of several bytes arrive split across chunks, each character whole', async () => {
    endpoint.inject(['pieces']);
    const text = 'Déploiement ✓ terminé 🚀 — ünïcødé';
    const result = await fast().send({ text });
    expect(result).toMatchObject({ ok: true, status: 201, attempts: 1, message: { body: text } });
    expect(endpoint.seen.at(-1)?.fault).toBe('pieces');
  });

  it('retries when the answer is lost after the message was stored, and reports the stored message as a duplicate', async () => {
    endpoint.inject(['drop_after']);
    const result = await fast().send({ text: 'answer lost' }, { idempotencyKey: 'lost-1' });
    expect(result).toMatchObject({
      ok: true,
      duplicate: true,
      status: 200,
      attempts: 2,
      message: { body: 'answer lost' },
    });
    expect(endpoint.store.listMessages('general').filter((message) => message.body === 'answer lost')).toHaveLength(1);
  });

  it('stops on an AbortSignal, during an attempt and during a wait', async () => {
    endpoint.inject(['stall']);
    const during = new AbortController();
    // Aborted once the proxy holds the attempt: aborted earlier, on a loaded machine, the attempt
    // could still reach the proxy after the next inject() and take the fault meant for the next send.
    const stalledFrom = endpoint.seen.length;
    const abortOnceStalled = () =>
      endpoint.seen.length > stalledFrom ? during.abort() : setTimeout(abortOnceStalled, 10);
    setTimeout(abortOnceStalled, 10);
    const started = performance.now();
    const inFlight = await createWebhookSender({ url: endpoint.url }).send({ text: 'x' }, { signal: during.signal });
    expect(inFlight).toMatchObject({ ok: false, code: 'aborted', attempts: 1 });
    // Well before the 10 s attempt time-out, which is what would end it without the signal.
    expect(performance.now() - started).toBeLessThan(5_000);

    endpoint.inject(['500']);
    const waiting = new AbortController();
    const result = await createWebhookSender({ url: endpoint.url, baseDelayMs: 60_000, random: () => 0.5 }).send(
      { text: 'y' },
      { signal: waiting.signal, onAttempt: () => setTimeout(() => waiting.abort(), 20) },
    );
    expect(result).toMatchObject({ ok: false, code: 'aborted', attempts: 1, status: 500 });

    const before = endpoint.seen.length;
    expect(await fast().send({ text: 'z' }, { signal: AbortSignal.abort() })).toMatchObject({ code: 'aborted' });
    expect(seenSince(before)).toEqual([]);
  });

  it('stops at the total deadline: no attempt starts after it', async () => {
    endpoint.inject(['500', '500', '500']);
    const clock = createFakeClock();
    const sender = createWebhookSender({
      url: endpoint.url,
      clock,
      timeoutMs: 10_000,
      random: () => 0.5,
      sleep: async (ms) => {
        clock.advance(ms + 6_000);
      },
    });
    const result = await sender.send({ text: 'deadline' });
    expect(result).toMatchObject({
      ok: false,
      code: 'deadline_exceeded',
      attempts: 2,
      status: 500,
      message: 'the 10 s deadline ran out after 2 attempts; the last answered 500 store_failed',
      possiblyStored: true,
    });
  });

  it('refuses bad options with invalid_argument, without the secret in the message', () => {
    const secret = secretOf(endpoint.url);
    expect(() => createWebhookSender({ url: `ftp://x/hooks/channels/a/${secret}` })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(() => createWebhookSender({ url: 'not a url' })).toThrow(
      'createWebhookSender: options.url must be an absolute http(s) URL: it is not a URL.',
    );
    expect(() => createWebhookSender({ url: endpoint.url, maxAttempts: 0 })).toThrow(
      'createWebhookSender: options.maxAttempts must be an integer of at least 1: got 0.',
    );
    expect(() => createWebhookSender({ url: endpoint.url, attemptTimeoutMs: Number.NaN })).toThrow(/attemptTimeoutMs/);
    try {
      createWebhookSender({ url: `ftp://x/hooks/channels/a/${secret}` });
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('names a refused connection without the secret, and says that nothing was stored', async () => {
    const closed = await listen(createServer());
    const url = `${closed.origin}${new URL(endpoint.directUrl).pathname}`;
    await closed.close();
    const result = await fast({ url, maxAttempts: 2 }).send({ text: 'x' });
    expect(result).toMatchObject({
      ok: false,
      code: 'retries_exhausted',
      attempts: 2,
      status: null,
      possiblyStored: false,
    });
    expect(result.ok || result.message).toMatch(
      /^2 attempts failed; the last could not connect \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/,
    );
    expect(result.ok || result.cause).toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
    expect(JSON.stringify(result)).not.toContain(secretOf(url));
  });
});

describe('a key a header cannot carry', () => {
  it('travels as the payload’s eventId alone: a key with a non-ASCII character is stored once, and found again', async () => {
    const before = endpoint.seen.length;
    const payload = { text: 'deploy ✓', eventId: 'deploy-✓-42' };
    const first = await fast().send(payload);
    expect(first).toMatchObject({ ok: true, status: 201, attempts: 1, idempotencyKey: 'deploy-✓-42' });
    const again = await fast().send(payload);
    expect(again).toMatchObject({ ok: true, status: 200, duplicate: true, attempts: 1 });
    expect(seenSince(before)).toEqual([
      { key: undefined, body: JSON.stringify(payload), fault: 'pass' },
      { key: undefined, body: JSON.stringify(payload), fault: 'pass' },
    ]);
  });

  it('with white space at either end, which HTTP strips from a header, is stored under the key as written', async () => {
    // Straight to the real handler: a header would reach it trimmed and differ from the eventId (400 key_mismatch).
    const payload = { text: 'padded key', eventId: ' deploy-43 ' };
    const first = await fast({ url: endpoint.directUrl }).send(payload);
    expect(first).toMatchObject({ ok: true, status: 201, idempotencyKey: ' deploy-43 ' });
    const again = await fast({ url: endpoint.directUrl }).send({ text: 'padded key, again', eventId: ' deploy-43 ' });
    expect(again).toMatchObject({
      ok: true,
      status: 200,
      duplicate: true,
      message: { id: first.ok && first.message.id },
    });
  });

  it('given as idempotencyKey is added to a payload without an eventId, the same on every retry', async () => {
    endpoint.inject(['500']);
    const before = endpoint.seen.length;
    const result = await fast().send({ text: 'keyed by option' }, { idempotencyKey: 'ключ-1' });
    expect(result).toMatchObject({ ok: true, status: 201, attempts: 2, idempotencyKey: 'ключ-1' });
    const sent = JSON.stringify({ text: 'keyed by option', eventId: 'ключ-1' });
    expect(seenSince(before).map(({ key, body }) => ({ key, body }))).toEqual([
      { key: undefined, body: sent },
      { key: undefined, body: sent },
    ]);
  });

  it('that fits nowhere fails at once as not_sent, saying why, and sends nothing', async () => {
    const before = endpoint.seen.length;
    const cases: [Parameters<WebhookSender['send']>, string][] = [
      [
        [{ text: 'x' }, { idempotencyKey: '✓'.repeat(201) }],
        'the key cannot travel in a header (it holds a character other than printable ASCII), nor as the payload’s eventId, which is 1–200 characters after trimming',
      ],
      [
        [['not', 'an', 'object'] as never, { idempotencyKey: ' k ' }],
        'the key cannot travel in a header (HTTP strips white space at either end), and the payload has no place for it as eventId',
      ],
      [
        [{ text: 'x', eventId: 42 } as never, { idempotencyKey: 'k\n2' }],
        'the key cannot travel in a header (it holds a character other than printable ASCII), and the payload has no place for it as eventId',
      ],
      [
        [{ text: 'x', eventId: 'a-✓' }, { idempotencyKey: 'b-✓' }],
        'the key differs from the payload’s eventId; the endpoint would refuse the pair',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await fast().send(...args);
      expect(result).toEqual({
        ok: false,
        code: 'not_sent',
        message,
        idempotencyKey: args[1]!.idempotencyKey,
        attempts: 0,
        status: null,
        problem: null,
        retryAfterMs: null,
        possiblyStored: false,
      });
    }
    expect(seenSince(before)).toEqual([]);
  });
});
