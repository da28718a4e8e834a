import { describe, expect, it, vi } from 'vitest';
import type { ChannelWebhookError } from '../../src/errors.js';
import type { RateLimiter } from '../../src/ports.js';
import {
  BASE_URL,
  expectedMessage,
  problem,
  problemHeaders,
  setup,
  splitUrl,
  successHeaders,
} from '../support/setup.js';

describe('429 rate limited', () => {
  it('the 61st post in 60 s answers 429 with retry-after, and a post succeeds once the window slid', async () => {
    const s = await setup();
    for (let i = 0; i < 60; i++) {
      const response = await s.post({ text: `post ${i}` });
      expect(response.status).toBe(201);
      expect(response.headers.ratelimit).toBe(`"default";r=${59 - i};t=60`);
    }
    const read = vi.fn(async () => '{"text":"one too many"}');
    const refused = await s.post(undefined, { raw: read });
    expect(refused).toEqual({
      status: 429,
      headers: problemHeaders({ remaining: 0, seconds: 60 }, { 'retry-after': '60' }),
      body: problem(429, 'rate_limited'),
    });
    expect(read).not.toHaveBeenCalled();

    s.clock.advance(59_999);
    expect((await s.post({ text: 'still too early' })).status).toBe(429);
    s.clock.advance(1);
    const accepted = await s.post({ text: 'after the window' });
    expect(accepted).toEqual({
      status: 201,
      headers: successHeaders(59, 60),
      body: { message: expectedMessage(s, { text: 'after the window' }), duplicate: false },
    });
    expect(await s.store.listMessages('general')).toHaveLength(61);
  });

  it('the detail asks for the same key only of a post that sent one, and for an eventId only if the body has one', async () => {
    const s = await setup();
    for (let i = 0; i < 60; i++) await s.post({ text: `post ${i}` });
    const keyless = await s.post({ text: 'no key' });
    expect(keyless.body).toEqual(
      problem(429, 'rate_limited', {
        detail:
          'More than 60 requests in 60 seconds on this webhook. Retry after 60 s, with the same eventId if the body has one.',
      }),
    );
    const keyed = await s.post({ text: 'a key' }, { idempotencyKey: 'deploy-42' });
    expect(keyed.body).toEqual(
      problem(429, 'rate_limited', {
        detail: 'More than 60 requests in 60 seconds on this webhook. Retry after 60 s with the same Idempotency-Key.',
      }),
    );
  });

  it('retry-after counts whole seconds until the oldest counted post leaves the window', async () => {
    const s = await setup();
    expect((await s.post({ text: 'first' })).status).toBe(201);
    s.clock.advance(30_500);
    for (let i = 0; i < 59; i++) expect((await s.post({ text: `burst ${i}` })).status).toBe(201);
    const refused = await s.post({ text: 'refused' });
    expect(refused).toEqual({
      status: 429,
      headers: problemHeaders({ remaining: 0, seconds: 30 }, { 'retry-after': '30' }),
      body: problem(429, 'rate_limited'),
    });
    s.clock.advance(29_500);
    expect(await s.post({ text: 'retried' })).toEqual({
      status: 201,
      headers: successHeaders(0, 31),
      body: { message: expectedMessage(s, { text: 'retried' }), duplicate: false },
    });
  });

  it('refused posts do not extend the window: retrying through a 429 storm succeeds after 60 s', async () => {
    const s = await setup();
    for (let i = 0; i < 60; i++) await s.post({ text: `post ${i}` });
    for (let second = 0; second < 60; second += 5) {
      expect((await s.post({ text: 'hammering' })).status).toBe(429);
      s.clock.advance(5_000);
    }
    expect((await s.post({ text: 'through' })).status).toBe(201);
  });

  it('once limited, 405, 404 and 415 still answer first, and 429 comes before any body check', async () => {
    const s = await setup();
    for (let i = 0; i < 60; i++) await s.post({ text: `post ${i}` });
    const { webhookId } = splitUrl(s.url);
    expect((await s.post({ text: 'x' }, { method: 'GET' })).status).toBe(405);
    expect(
      (await s.post({ text: 'x' }, { url: `${BASE_URL}/hooks/channels/${webhookId}/${'B'.repeat(43)}` })).status,
    ).toBe(404);
    expect((await s.post({ text: 'x' }, { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await s.post(undefined, { raw: '{broken' })).status).toBe(429);
    expect((await s.post(undefined, { raw: '{}', headers: { 'content-length': '70000' } })).status).toBe(429);
  });

  it('the limit is per webhook', async () => {
    const s = await setup();
    const other = await s.manager.create(
      { userId: 'u-owner', role: 'member' },
      { channelId: 'general', name: 'Other' },
    );
    for (let i = 0; i < 60; i++) await s.post({ text: `post ${i}` });
    expect((await s.post({ text: 'refused' })).status).toBe(429);
    expect((await s.post({ text: 'other hook' }, { url: other.url })).status).toBe(201);
  });
});

describe('rate-count rule', () => {
  it('400 and 413 answers count toward the limit', async () => {
    const s = await setup();
    for (let i = 0; i < 30; i++) {
      const response = await s.post(undefined, { raw: '{not json' });
      expect(response.status).toBe(400);
      expect(response.headers.ratelimit).toBe(`"default";r=${59 - i};t=60`);
    }
    for (let i = 30; i < 60; i++) {
      const response = await s.post(undefined, { raw: '{}', headers: { 'content-length': '70000' } });
      expect(response.status).toBe(413);
      expect(response.headers.ratelimit).toBe(`"default";r=${59 - i};t=60`);
    }
    expect(await s.post({ text: 'valid but late' })).toEqual({
      status: 429,
      headers: problemHeaders({ remaining: 0, seconds: 60 }, { 'retry-after': '60' }),
      body: problem(429, 'rate_limited'),
    });
  });

  it('409 and duplicate answers count toward the limit', async () => {
    const s = await setup();
    for (let i = 0; i < 30; i++)
      expect((await s.post({ text: 'same' }, { idempotencyKey: 'k' })).status).toBe(i === 0 ? 201 : 200);
    await s.store.putChannel({ id: 'general', ownerId: 'u-owner', archived: true });
    for (let i = 30; i < 60; i++) expect((await s.post({ text: 'archived' })).status).toBe(409);
    expect((await s.post({ text: 'late' })).status).toBe(429);
  });

  it('404, 405 and 415 answers do not count toward the limit', async () => {
    const s = await setup();
    const { webhookId } = splitUrl(s.url);
    const wrongSecret = `${BASE_URL}/hooks/channels/${webhookId}/${'B'.repeat(43)}`;
    for (let i = 0; i < 40; i++) {
      expect((await s.post({ text: 'x' }, { url: wrongSecret })).status).toBe(404);
      expect((await s.post({ text: 'x' }, { method: 'PUT' })).status).toBe(405);
      expect((await s.post({ text: 'x' }, { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    }
    for (let i = 0; i < 60; i++) {
      const response = await s.post({ text: `post ${i}` });
      expect(response.status).toBe(201);
      expect(response.headers.ratelimit).toBe(`"default";r=${59 - i};t=60`);
    }
  });
});

describe('rate limiter failure', () => {
  const failing = (hit: RateLimiter['hit']): RateLimiter => ({ hit });

  it("with onRateLimiterError 'allow' (the default), a failing limiter lets the post through and reports the error", async () => {
    const cause = new Error('ECONNREFUSED 10.0.0.7:6379');
    const s = await setup({ rateLimiter: failing(() => Promise.reject(cause)) });
    const response = await s.post({ text: 'unthrottled' });
    expect(response).toEqual({
      status: 201,
      // No rate-limit headers: nothing was counted.
      headers: { 'content-type': 'application/json' },
      body: { message: expectedMessage(s, { text: 'unthrottled' }), duplicate: false },
    });
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]!.context).toEqual({ stage: 'rate_limiter', webhookId: s.webhookId });
    expect(deepCode(s.errors[0]!.error, cause)).toBe(true);
  });

  it("with onRateLimiterError 'allow', a limiter that hangs past rateLimiterTimeoutMs lets the post through", async () => {
    const s = await setup({ rateLimiter: failing(() => new Promise(() => {})), rateLimiterTimeoutMs: 20 });
    const response = await s.post({ text: 'unthrottled' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ message: expectedMessage(s, { text: 'unthrottled' }), duplicate: false });
    expect(s.errors.map((reported) => reported.context)).toEqual([{ stage: 'rate_limiter', webhookId: s.webhookId }]);
  });

  it("with onRateLimiterError 'reject', a failing limiter answers 500 and stores nothing", async () => {
    const s = await setup({
      rateLimiter: failing(() => Promise.reject(new Error('ECONNREFUSED'))),
      onRateLimiterError: 'reject',
    });
    const read = vi.fn(async () => '{"text":"hi"}');
    const response = await s.post(undefined, { raw: read });
    expect(response).toEqual({
      status: 500,
      headers: problemHeaders(),
      body: problem(500, 'rate_limiter_failed'),
    });
    expect(JSON.stringify(response.body)).not.toContain('ECONNREFUSED');
    expect(read).not.toHaveBeenCalled();
    expect(await s.store.listMessages('general')).toEqual([]);
    expect(s.errors.map((reported) => reported.context)).toEqual([{ stage: 'rate_limiter', webhookId: s.webhookId }]);
  });

  it("with onRateLimiterError 'reject', a limiter that hangs past rateLimiterTimeoutMs answers 500", async () => {
    const s = await setup({
      rateLimiter: failing(() => new Promise(() => {})),
      rateLimiterTimeoutMs: 20,
      onRateLimiterError: 'reject',
    });
    const response = await s.post({ text: 'hi' });
    expect(response).toEqual({ status: 500, headers: problemHeaders(), body: problem(500, 'rate_limiter_failed') });
  });
});

/** Whether `error` is `cause` or a ChannelWebhookError of a limiter code caused by it. */
function deepCode(error: unknown, cause: Error): boolean {
  if (error === cause) return true;
  const code = (error as ChannelWebhookError).code;
  return (code === 'rate_limiter_failed' || code === 'rate_limiter_timeout') && (error as Error).cause === cause;
}
