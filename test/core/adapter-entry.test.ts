import { describe, expect, it } from 'vitest';
import { CORE_HEADERS, openAdapterEntry } from '../../src/adapter-kit/create-webhook-adapter.js';
import type { WebhookHandler } from '../../src/handler/handler-types.js';
import type { WebhookRequest, WebhookResponse } from '../../src/http/http-types.js';
import { matchWebhookPath } from '../../src/http/route.js';
import type { WebhookStore } from '../../src/ports.js';
import { request, setup } from '../support/setup.js';

// Two setups differ only in their random ids.
const withoutIds = (response: WebhookResponse) => JSON.parse(JSON.stringify(response.body).replace(/"id":"[^"]+"/g, '"id":"-"')) as unknown;

// Rule: the adapters' entry gives the same answers as the public handler, byte for byte, as a value
// when nothing had to wait (in-process ports, a body in hand), and as a promise otherwise.
describe('openAdapterEntry', () => {
  it('answers a post over in-process ports with a value, the same answer as handle', async () => {
    const a = await setup();
    const b = await setup();
    const respond = openAdapterEntry(a.handle, undefined, 'test').respond;
    const cases: Array<[unknown, Record<string, string>?]> = [
      [{ text: 'hi' }],
      [{ text: '' }],
      ['not json'],
      [{ text: 'typed' }, { 'content-type': 'text/plain' }],
    ];
    for (const [body, headers] of cases) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      const now = respond(request(a.url, undefined, { raw, headers }));
      expect(now).not.toBeInstanceOf(Promise);
      const later = await b.handle(request(b.url, undefined, { raw, headers }));
      const answer = now as WebhookResponse;
      expect([answer.status, answer.headers]).toEqual([later.status, later.headers]);
      expect(withoutIds(answer)).toEqual(withoutIds(later));
    }
  });

  it('answers with a promise when the body reader or a port waits', async () => {
    const s = await setup({ wrapStore: (store): WebhookStore => ({ ...store, getWebhook: async (id) => store.getWebhook(id) }) });
    const respond = openAdapterEntry(s.handle, undefined, 'test').respond;
    const answer = respond(request(s.url, { text: 'later' }));
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).status).toBe(201);
  });

  it('uses the path an adapter already matched, and matches the URL itself without one', async () => {
    const s = await setup();
    const respond = openAdapterEntry(s.handle, undefined, 'test').respond;
    const post: WebhookRequest = request(s.url, { text: 'matched' });
    expect((respond(post, matchWebhookPath(post.url)) as WebhookResponse).status).toBe(201);
    expect((respond(post, null) as WebhookResponse).status).toBe(201);
  });

  it('answers 500 and reports a defect instead of throwing', async () => {
    const s = await setup({
      // Not an answer a store may give: reading its outcome throws.
      wrapStore: (store): WebhookStore => ({ ...store, insertMessage: () => null as never }),
    });
    const respond = openAdapterEntry(s.handle, undefined, 'test').respond;
    const answer = respond(request(s.url, { text: 'boom' })) as WebhookResponse;
    expect(answer.status).toBe(500);
    expect((answer.body as { code: string }).code).toBe('internal_error');
    expect(s.errors.map((e) => e.context.stage)).toEqual(['handler']);
  });

  it('calls a handler it did not make as it is, with every header', async () => {
    const s = await setup();
    const wrapper: WebhookHandler = (request) => s.handle(request);
    expect(openAdapterEntry(wrapper, {}, 'test')).toEqual({ respond: wrapper, coreHeadersOnly: false, bodyTimeoutMs: 10_000 });
    expect(openAdapterEntry(s.handle, { bodyTimeoutMs: 5 }, 'test')).toMatchObject({ coreHeadersOnly: true, bodyTimeoutMs: 5 });
    expect(CORE_HEADERS).toEqual(['content-type', 'content-length', 'transfer-encoding', 'idempotency-key']);
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
    expect(() => openAdapterEntry(handle as never, options as never, 'createTestAdapter')).toThrow(
      expect.objectContaining({ name: 'ChannelWebhookError', code: 'invalid_argument', message }),
    );
  });
});

// Rule: message ids are random version-4 UUIDs, as crypto.randomUUID() gives.
describe('message ids', () => {
  it('are distinct version-4 UUIDs', async () => {
    const s = await setup({ rateLimiter: { hit: () => ({ allowed: true, limit: 1_000, remaining: 1_000, resetMs: 0, windowMs: 60_000 }) } });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(((await s.post({ text: `post ${i}` })).body as { message: { id: string } }).message.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
