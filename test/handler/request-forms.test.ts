import { describe, expect, it } from 'vitest';
import { setup } from '../support/setup.js';

// Rule: handle() reads header names in any case, as HTTP does, and a Fetch Request passed to it
// is answered with the misconfigured problem that points at the Fetch adapter, not a 415 that
// sends the developer after the wrong problem.
describe('handle() given a plain mistake', () => {
  it('reads Content-Type and Idempotency-Key in any case', async () => {
    const s = await setup();
    const post = () =>
      s.handle({
        method: 'POST',
        url: s.url,
        headers: { 'Content-Type': 'application/json', 'IDEMPOTENCY-KEY': 'deploy-1' },
        body: '{"text":"hi"}',
      });
    const first = await post();
    const again = await post();
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual({ message: (first.body as { message: unknown }).message, duplicate: true });
  });

  it('prefers the lower-case name when a header comes in two cases', async () => {
    const s = await setup();
    const response = await s.handle({
      method: 'POST',
      url: s.url,
      headers: { 'Content-Type': 'text/plain', 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    expect(response.status).toBe(201);
  });

  it('answers a Fetch Request with the misconfigured problem pointing at channel-webhooks/fetch', async () => {
    const s = await setup();
    const fetchRequest = new Request(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    });
    const response = await s.handle(fetchRequest as never);
    expect(response).toEqual({
      status: 500,
      headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
      body: {
        type: 'tag:channel-webhooks,2026:problem:misconfigured',
        title: 'Webhook endpoint misconfigured',
        status: 500,
        code: 'misconfigured',
        detail:
          'handle() was given a Fetch Request; it takes a plain { method, url, headers, body } object. Serve Fetch requests with createFetchHandler(handle) from channel-webhooks/fetch.',
      },
    });
    expect(s.store.listMessages('general')).toEqual([]);
    expect(s.errors.map(({ error, context }) => [context.stage, (error as { code?: string }).code])).toEqual([
      ['handler', 'misconfigured'],
    ]);
  });
});
