import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { frameworkTargets } from '../../support/frameworks.js';
import { paddedBody, send, type Answer, type Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';

const RATE_HEADERS = {
  'ratelimit-policy': '"default";q=60;w=60',
  ratelimit: expect.stringMatching(/^"default";r=\d+;t=\d+$/),
};

function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return {
    type: `tag:channel-webhooks,2026:problem:${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
    ...extra,
  };
}

function expectProblem(
  answer: Answer,
  status: number,
  code: string,
  headers: Record<string, unknown> = {},
  extra = {},
) {
  expect(answer.status).toBe(status);
  expect(answer.headers).toMatchObject({
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
    ...headers,
  });
  expect(answer.json).toEqual(problem(status, code, extra));
}

describe.each(frameworkTargets)('every status of the contract through $name', (target) => {
  let fixture: World;
  let app: Listening;
  let failingApp: Listening;
  const url = (path: string) => `${app.origin}/api${path}`;

  beforeEach(async () => {
    fixture = await setup();
    app = await target.start(fixture.handle);
    failingApp = await target.start(fixture.failingHandle);
    return async () => {
      await app.close();
      await failingApp.close();
    };
  });

  it('201: stores a new message and answers with it', async () => {
    const answer = await send(url(fixture.path), { body: { text: 'Deploy finished' } });
    expect(answer.status).toBe(201);
    expect(answer.headers).toMatchObject({ 'content-type': 'application/json', ...RATE_HEADERS });
    const [stored] = await fixture.messages();
    expect(answer.json).toEqual({
      message: {
        id: stored!.id,
        channelId: 'general',
        body: 'Deploy finished',
        blocks: [],
        author: { type: 'webhook', id: fixture.webhookId, name: 'CI' },
        createdAt: stored!.createdAt,
      },
      duplicate: false,
    });
  });

  it('200: a repeated idempotency key answers with the first message, unchanged', async () => {
    const first = await send(url(fixture.path), { body: { text: 'one' }, headers: { 'idempotency-key': 'evt-1' } });
    const again = await send(url(fixture.path), { body: { text: 'two' }, headers: { 'idempotency-key': 'evt-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers).toMatchObject({ 'content-type': 'application/json', ...RATE_HEADERS });
    expect(again.json).toEqual({ message: (first.json as { message: unknown }).message, duplicate: true });
    expect(await fixture.messages()).toHaveLength(1);
  });

  it('400: invalid JSON', async () => {
    expectProblem(await send(url(fixture.path), { body: '{"text": ' }), 400, 'invalid_json', RATE_HEADERS, {
      errors: [{ pointer: '', message: expect.any(String) }],
    });
  });

  it('400: an unknown field, with a pointer to it', async () => {
    const answer = await send(url(fixture.path), { body: { text: 'hi', colour: 'red' } });
    expectProblem(answer, 400, 'invalid_payload', RATE_HEADERS, {
      errors: [{ pointer: '/colour', message: expect.any(String) }],
    });
  });

  it('404: a wrong secret', async () => {
    expectProblem(await send(url(fixture.wrongSecretPath), { body: { text: 'hi' } }), 404, 'not_found');
  });

  it('405: any method but POST, with Allow', async () => {
    expectProblem(await send(url(fixture.path), { method: 'GET' }), 405, 'method_not_allowed', { allow: 'POST' });
    expectProblem(await send(url(fixture.path), { method: 'PUT', body: { text: 'hi' } }), 405, 'method_not_allowed', {
      allow: 'POST',
    });
  });

  it('409: the channel is archived', async () => {
    expectProblem(
      await send(url(fixture.archivedPath), { body: { text: 'hi' } }),
      409,
      'channel_archived',
      RATE_HEADERS,
    );
  });

  it('413: a Content-Length over 65,536 is refused, and the connection closes after the answer', async () => {
    const answer = await send(url(fixture.path), { body: paddedBody('big', 70_000) });
    expectProblem(answer, 413, 'payload_too_large', { connection: 'close', ...RATE_HEADERS });
    expect(await fixture.messages()).toEqual([]);
  });

  it('413: a chunked body of about 70 KB is counted while it streams', async () => {
    const answer = await send(url(fixture.path), { body: paddedBody('big', 70_000), chunkSize: 4_096 });
    expectProblem(answer, 413, 'payload_too_large', { connection: 'close', ...RATE_HEADERS });
    expect(await fixture.messages()).toEqual([]);
  });

  it('201: a body of exactly 65,536 bytes is accepted, with or without Content-Length', async () => {
    const text = 'x'.repeat(10_000);
    const body = paddedBody(text, 65_536);
    const declared = await send(url(fixture.path), { body });
    const chunked = await send(url(fixture.path), { body, chunkSize: 8_192 });
    expect([declared.status, chunked.status]).toEqual([201, 201]);
    expect((await fixture.messages()).map((message) => message.body)).toEqual([text, text]);
  });

  it('415: a Content-Type other than application/json', async () => {
    const answer = await send(url(fixture.path), { body: 'hi', headers: { 'content-type': 'text/plain' } });
    expectProblem(answer, 415, 'unsupported_media_type');
  });

  it('429: the 61st request in 60 seconds, with Retry-After', async () => {
    for (let i = 0; i < 60; i++) {
      expect((await send(url(fixture.path), { body: { text: `n${i}` } })).status).toBe(201);
    }
    const answer = await send(url(fixture.path), { body: { text: 'one too many' } });
    expectProblem(answer, 429, 'rate_limited', {
      'retry-after': expect.stringMatching(/^\d+$/),
      'ratelimit-policy': '"default";q=60;w=60',
      ratelimit: expect.stringMatching(/^"default";r=0;t=\d+$/),
    });
    expect(await fixture.messages()).toHaveLength(60);
  });

  it('500: the store fails', async () => {
    const answer = await send(`${failingApp.origin}/api${fixture.path}`, { body: { text: 'hi' } });
    expectProblem(answer, 500, 'store_failed', RATE_HEADERS);
  });
});

describe.each(frameworkTargets)('routing through $name', (target) => {
  let fixture: World;
  let app: Listening;

  beforeAll(async () => {
    fixture = await setup();
    app = await target.start(fixture.handle);
  });
  afterAll(() => app.close());

  it('answers a webhook URL under the mount prefix', async () => {
    const answer = await send(`${app.origin}/api${fixture.path}?source=ci`, { body: { text: 'prefixed' } });
    expect(answer.status).toBe(201);
  });

  it('passes other routes on to the app', async () => {
    const before = await fixture.messages();
    const health = await send(`${app.origin}/api/health`, { method: 'GET' });
    expect([health.status, health.json]).toEqual([200, { ok: true }]);
    for (const path of ['/api/other', '/api/hooks/channels/only-one-segment', `/api${fixture.path}/extra`]) {
      const other = await send(`${app.origin}${path}`, { body: { text: 'hi' } });
      expect([path, other.status, other.json]).toEqual([path, 404, { fallthrough: true }]);
    }
    expect(await fixture.messages()).toEqual(before);
  });
});
