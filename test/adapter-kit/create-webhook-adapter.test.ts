import { describe, expect, it } from 'vitest';
import { createWebhookAdapter, type BodyLimits, type WebhookAdapterBinding } from '../../src/adapter-kit/index.js';
import type { WebhookHandler } from '../../src/handler/handler-types.js';
import type { HeaderValue, WebhookRequest, WebhookResponse } from '../../src/http/http-types.js';
import { matchWebhookPath } from '../../src/http/route.js';
import type { WebhookStore } from '../../src/ports.js';
import { request, setup } from '../support/setup.js';

// Two setups differ only in their random ids.
const withoutIds = (response: WebhookResponse) =>
  JSON.parse(JSON.stringify(response.body).replace(/"id":"[^"]+"/g, '"id":"-"')) as unknown;

/** The fast path of a handler from createWebhookHandler, for a request whose URL matched. */
const fastAnswer = (handle: WebhookHandler, post: WebhookRequest) =>
  handle.fastPath!.handleMatched(post, matchWebhookPath(post.url)!);

// Rule: the fast path gives the same answers as the public handler, byte for byte, as a value when
// nothing had to wait (in-process ports, a body in hand), and as a promise otherwise.
describe('the handler fast path', () => {
  it('answers a post over in-process ports with a value, the same answer as handle', async () => {
    const a = await setup();
    const b = await setup();
    const cases: Array<[unknown, Record<string, string>?]> = [
      [{ text: 'hi' }],
      [{ text: '' }],
      ['not json'],
      [{ text: 'typed' }, { 'content-type': 'text/plain' }],
    ];
    for (const [body, headers] of cases) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const now = fastAnswer(a.handle, request(a.url, undefined, { raw, headers }));
      expect(now).not.toBeInstanceOf(Promise);
      const later = await b.handle(request(b.url, undefined, { raw, headers }));
      const answer = now as WebhookResponse;
      expect([answer.status, answer.headers]).toEqual([later.status, later.headers]);
      expect(withoutIds(answer)).toEqual(withoutIds(later));
    }
  });

  it('answers with a promise when the body reader or a port waits', async () => {
    const s = await setup({
      wrapStore: (store): WebhookStore => ({ ...store, getWebhook: async (id) => store.getWebhook(id) }),
    });
    const answer = fastAnswer(s.handle, request(s.url, { text: 'later' }));
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).status).toBe(201);
  });

  it('uses the path the adapter matched, not the URL again', async () => {
    const s = await setup();
    const post: WebhookRequest = request(s.url, { text: 'matched' });
    const path = matchWebhookPath(post.url)!;
    expect((s.handle.fastPath!.handleMatched({ ...post, url: '/elsewhere' }, path) as WebhookResponse).status).toBe(
      201,
    );
  });

  it('answers 500 and reports a defect instead of throwing', async () => {
    const s = await setup({
      // Not an answer a store may give: reading its outcome throws.
      wrapStore: (store): WebhookStore => ({ ...store, insertMessage: () => null as never }),
    });
    const answer = fastAnswer(s.handle, request(s.url, { text: 'boom' })) as WebhookResponse;
    expect(answer.status).toBe(500);
    expect((answer.body as { code: string }).code).toBe('internal_error');
    expect(s.errors.map((e) => e.context.stage)).toEqual(['handler']);
  });

  it('names the four headers the handler reads', async () => {
    const s = await setup();
    expect(s.handle.fastPath!.headerNames).toEqual([
      'content-type',
      'content-length',
      'transfer-encoding',
      'idempotency-key',
    ]);
  });
});

/** A binding over plain request objects that records what the kit asked of it. */
function recordingBinding() {
  const asked: { headerNames: Array<readonly string[] | null>; limits: BodyLimits[] } = { headerNames: [], limits: [] };
  const binding: WebhookAdapterBinding<WebhookRequest, string, string> = {
    name: 'createTestAdapter',
    url: (req) => req.url,
    method: (req) => req.method,
    headers: (req, names) => {
      asked.headerNames.push(names);
      return names === null
        ? req.headers
        : Object.fromEntries(names.map((name): [string, HeaderValue] => [name, req.headers[name]]));
    },
    readBody: (req, limits) => {
      asked.limits.push(limits);
      return req.body as string;
    },
    write: (res, response) => `${res}: ${response.status}`,
  };
  return { binding, asked };
}

// Rule: the kit answers webhook URLs and nothing else, takes the fast path of a handler that has
// one (its headers alone, no promise), and calls any other handler as a function with every header.
describe('createWebhookAdapter', () => {
  it('writes the answer of a webhook post, and returns null for any other URL', async () => {
    const s = await setup();
    const { binding } = recordingBinding();
    const serve = createWebhookAdapter(s.handle, binding);
    expect(serve(request(s.url, { text: 'hi' }), 'res')).toBe('res: 201');
    expect(serve(request('/health', { text: 'hi' }), 'res')).toBeNull();
  });

  it('on the fast path reads only the handler headers, with the body deadline given', async () => {
    const s = await setup();
    const { binding, asked } = recordingBinding();
    const serve = createWebhookAdapter(s.handle, binding, { bodyTimeoutMs: 5 });
    serve(request(s.url, { text: 'hi' }, { headers: { 'x-other': '1', 'content-length': '13' } }), 'res');
    expect(asked.headerNames).toEqual([s.handle.fastPath!.headerNames]);
    expect(asked.limits).toEqual([{ maxBytes: 65_536, declaredLength: 13, timeoutMs: 5 }]);
  });

  it('calls a handler it did not make as it is, with every header, and the default deadline', async () => {
    const s = await setup();
    const seen: WebhookRequest[] = [];
    const wrapper: WebhookHandler = (post) => (seen.push(post), s.handle(post));
    const { binding, asked } = recordingBinding();
    const answered = createWebhookAdapter(
      wrapper,
      binding,
      {},
    )(request(s.url, { text: 'hi' }, { headers: { 'x-other': '1' } }), 'res');
    expect(answered).toBeInstanceOf(Promise);
    expect(await answered).toBe('res: 201');
    expect(asked.headerNames).toEqual([null]);
    expect(seen[0]!.headers['x-other']).toBe('1');
    expect(asked.limits).toEqual([{ maxBytes: 65_536, declaredLength: null, timeoutMs: 10_000 }]);
  });

  it.each([
    [
      'a handler that is not a function',
      { handle: {}, options: undefined },
      'createTestAdapter: handle must be the handler from createWebhookHandler(): got an object. Pass createWebhookHandler({ store }).',
    ],
    [
      'options that are not an object',
      { handle: () => Promise.resolve(), options: 5 },
      'createTestAdapter: options must be an object { bodyTimeoutMs? }, got 5',
    ],
    [
      'a bodyTimeoutMs out of range',
      { handle: () => Promise.resolve(), options: { bodyTimeoutMs: 0 } },
      'createTestAdapter: options.bodyTimeoutMs must be a number of ms above 0 and at most 2147483647: got 0.',
    ],
    [
      'an option the adapter does not have',
      { handle: () => Promise.resolve(), options: { bodyTimeout: 5_000 } },
      'createTestAdapter: options has an unknown key `bodyTimeout` (did you mean `bodyTimeoutMs`?); the options are bodyTimeoutMs',
    ],
  ])('refuses %s with invalid_argument naming the factory', (_, { handle, options }, message) => {
    expect(() => createWebhookAdapter(handle as never, recordingBinding().binding, options as never)).toThrow(
      expect.objectContaining({ name: 'ChannelWebhookError', code: 'invalid_argument', message }),
    );
  });
});
