import { createServer } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeListener } from '../../../../adapters/frameworks/node/index.js';
import type { ErrorContext, WebhookHandler } from '../../../../src/handler/handler-types.js';
import { listen, send, type Listening } from '../../../support/http.js';
import { setup } from '../../../support/setup.js';

// What the shared adapter suites do not cover: the listener on its own, without a framework around
// it (the suites run it with a fallback app, as `node:http`).
describe('createNodeListener', () => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers a webhook post under any prefix, and a 404 problem for any other path when there is no fallback', async () => {
    const { handle, url, store } = await setup();
    server = await listen(createServer(createNodeListener(handle)));
    const path = new URL(url).pathname;

    const created = await send(`${server.origin}/any/prefix${path}`, {
      method: 'POST',
      body: '{"text":"hello"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    expect((created.json as { message: { body: string } }).message.body).toBe('hello');
    expect(store.listMessages('general')).toHaveLength(1);

    const other = await send(`${server.origin}/health`);
    expect(other.status).toBe(404);
    expect(other.headers['content-type']).toBe('application/problem+json');
    expect(other.json).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('hands every other path to the fallback, untouched', async () => {
    const { handle } = await setup();
    const seen: string[] = [];
    server = await listen(
      createServer(
        createNodeListener(handle, {
          fallback: (req, res) => {
            seen.push(`${req.method} ${req.url}`);
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end('app');
          },
        }),
      ),
    );
    const answer = await send(`${server.origin}/hooks/channels/only-one-segment`, { method: 'POST', body: 'x' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('app');
    expect(seen).toEqual(['POST /hooks/channels/only-one-segment']);
  });

  // A wrapper the app put around the handler may answer something Node cannot write (here a header
  // value with a line break): the client gets a 500 problem, never a hang or a half answer.
  it('answers 500 when the answer cannot be written', async () => {
    const { handle, url } = await setup();
    const broken: WebhookHandler = async (request) => {
      const response = await handle(request);
      return { ...response, headers: { ...response.headers, 'x-note': 'line\nbreak' } };
    };
    server = await listen(createServer(createNodeListener(broken, { onError: () => undefined })));
    const answer = await send(`${server.origin}${new URL(url).pathname}`, {
      method: 'POST',
      body: '{"text":"hello"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ code: 'internal_error' });
  });

  // Rule: an answer that cannot be written is reported (to onError with stage `write`, else one
  // console.error line), never discarded.
  it('reports an answer it could not write to onError, and by default on console.error', async () => {
    const { handle, url } = await setup();
    const broken: WebhookHandler = async (request) => ({
      ...(await handle(request)),
      headers: { 'x-note': 'line\nbreak' },
    });
    const reported: unknown[][] = [];
    const onError = (error: unknown, context: ErrorContext) => void reported.push([error, context]);
    server = await listen(createServer(createNodeListener(broken, { onError })));
    const post = { method: 'POST', body: '{"text":"hello"}', headers: { 'content-type': 'application/json' } };
    expect((await send(`${server.origin}${new URL(url).pathname}`, post)).status).toBe(500);
    expect(reported).toEqual([[expect.objectContaining({ code: 'ERR_INVALID_CHAR' }), { stage: 'write' }]]);
    await server.close();

    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server = await listen(createServer(createNodeListener(broken)));
    expect((await send(`${server.origin}${new URL(url).pathname}`, post)).status).toBe(500);
    expect(log.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringMatching(
        /^channel-webhooks: createNodeListener: write failure: TypeError \(ERR_INVALID_CHAR\): Invalid character in header content \["x-note"\]/,
      ),
    ]);
    log.mockRestore();
  });
});
