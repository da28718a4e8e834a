import { readdirSync, readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, fetchRequestParts, toFetchResponse } from '../../../../adapters/frameworks/fetch/index.js';
import { createWebhookAdapter } from '../../../../src/index.js';
import { setup, type World } from '../../../support/setup.js';

const ORIGIN = 'https://chat.example.com';

function headersOf(response: Response): Record<string, string> {
  const all: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    all[name] = value;
  });
  return all;
}

describe('createFetchHandler on the global Request and Response', () => {
  let fixture: World;
  beforeEach(async () => {
    fixture = await setup();
  });

  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request(`${ORIGIN}/api${fixture.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);

  it('answers 404 problem+json for a path that is not a webhook URL', async () => {
    const response = await createFetchHandler(fixture.handle)(new Request(`${ORIGIN}/health`));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({
      type: 'tag:channel-webhooks,2026:problem:not_found',
      title: 'Not found',
      status: 404,
      detail: expect.any(String),
      code: 'not_found',
    });
  });

  it('hands other paths to the fallback when one is given', async () => {
    const fetchHandler = createFetchHandler(fixture.handle, { fallback: () => new Response('app', { status: 200 }) });
    const other = await fetchHandler(new Request(`${ORIGIN}/health`));
    expect([other.status, await other.text()]).toEqual([200, 'app']);
    const webhook = await fetchHandler(post(JSON.stringify({ text: 'routed' })));
    expect(webhook.status).toBe(201);
  });

  it('counts a body without Content-Length and stops pulling it past 65,536 bytes', async () => {
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 16_384;
        controller.enqueue(new Uint8Array(16_384).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await createFetchHandler(fixture.handle)(post(stream));
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('payload_too_large');
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(65_536 + 2 * 16_384);
  });

  it('accepts a streamed body of exactly 65,536 bytes', async () => {
    const json = JSON.stringify({ text: 'streamed' });
    const bytes = new TextEncoder().encode(json + ' '.repeat(65_536 - json.length));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 10_000)
          controller.enqueue(bytes.subarray(offset, offset + 10_000));
        controller.close();
      },
    });
    const response = await createFetchHandler(fixture.handle)(post(stream));
    expect(response.status).toBe(201);
    expect((await fixture.messages()).map((message) => message.body)).toEqual(['streamed']);
  });

  it('answers 500 misconfigured when something read the body before it', async () => {
    const request = post(JSON.stringify({ text: 'read twice' }));
    await request.text();
    const response = await createFetchHandler(fixture.handle)(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ status: 500, code: 'misconfigured' });
    expect(await fixture.messages()).toEqual([]);
  });

  // Rule: fetchRequestParts and toFetchResponse are the whole binding of a framework that hands
  // over a Web Request: an adapter made of them answers as createFetchHandler does.
  it('answers through fetchRequestParts and toFetchResponse as createFetchHandler does', async () => {
    const serve = createWebhookAdapter(fixture.handle, {
      ...fetchRequestParts((event: { req: Request }) => event.req),
      write: (_, answer) => toFetchResponse(answer),
    });
    const own = await serve(
      { req: post(JSON.stringify({ text: 'by hand' }), { 'idempotency-key': 'k-1' }) },
      undefined,
    );
    const adapter = await createFetchHandler(fixture.handle)(
      post(JSON.stringify({ text: 'by hand' }), { 'idempotency-key': 'k-2' }),
    );
    expect(own!.status).toBe(201);
    expect(Object.keys(headersOf(own!))).toEqual(Object.keys(headersOf(adapter)));
    expect(own!.headers.get('content-type')).toBe('application/json');
    expect(Object.keys(await own!.json())).toEqual(Object.keys(await adapter.json()));
    expect(await serve({ req: new Request(`${ORIGIN}/health`) }, undefined)).toBeNull();
  });

  it('toFetchResponse names JSON where an answer names no content type, and keeps the one it names', async () => {
    const plain = toFetchResponse({ status: 200, headers: { 'x-note': 'a' }, body: { ok: true } });
    expect([plain.status, headersOf(plain), await plain.text()]).toEqual([
      200,
      { 'content-type': 'application/json', 'x-note': 'a' },
      '{"ok":true}',
    ]);
    const problem = toFetchResponse({ status: 404, headers: { 'content-type': 'application/problem+json' }, body: {} });
    expect([problem.status, problem.headers.get('content-type'), await problem.text()]).toEqual([
      404,
      'application/problem+json',
      '{}',
    ]);
  });

  it('uses Web standards only: imports nothing but its own files and the core', () => {
    for (const name of readdirSync('adapters/frameworks/fetch')) {
      const source = readFileSync(`adapters/frameworks/fetch/${name}`, 'utf8');
      const imported = [...source.matchAll(/^import [^;]* from '([^']+)';/gm)].map((match) => match[1]!);
      expect(imported.filter((path) => !path.startsWith('./') && !path.startsWith('../../../src/'))).toEqual([]);
    }
  });
});
