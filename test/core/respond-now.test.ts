import { describe, expect, it } from 'vitest';
import { respondNowOf } from '../../src/handler/respond-now.js';
import type { WebhookHandler } from '../../src/handler/handler-types.js';
import type { WebhookRequest, WebhookResponse } from '../../src/http/http-types.js';
import { matchWebhookPath } from '../../src/http/route.js';
import type { WebhookStore } from '../../src/ports.js';
import { request, setup } from '../support/setup.js';

// Two setups differ only in their random ids.
const withoutIds = (response: WebhookResponse) => JSON.parse(JSON.stringify(response.body).replace(/"id":"[^"]+"/g, '"id":"-"')) as unknown;

// Rule: the adapters' entry gives the same answers as the public handler, byte for byte, as a value
// when nothing had to wait (in-process ports, a body in hand), and as a promise otherwise.
describe('respondNowOf', () => {
  it('answers a post over in-process ports with a value, the same answer as handle', async () => {
    const a = await setup();
    const b = await setup();
    const respond = respondNowOf(a.handle)!;
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
    const respond = respondNowOf(s.handle)!;
    const answer = respond(request(s.url, { text: 'later' }));
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).status).toBe(201);
  });

  it('uses the path an adapter already matched, and matches the URL itself without one', async () => {
    const s = await setup();
    const respond = respondNowOf(s.handle)!;
    const post: WebhookRequest = request(s.url, { text: 'matched' });
    expect((respond(post, matchWebhookPath(post.url)) as WebhookResponse).status).toBe(201);
    expect((respond(post, null) as WebhookResponse).status).toBe(201);
  });

  it('answers 500 and reports a defect instead of throwing', async () => {
    const s = await setup({
      // Not an answer a store may give: reading its outcome throws.
      wrapStore: (store): WebhookStore => ({ ...store, insertMessage: () => null as never }),
    });
    const respond = respondNowOf(s.handle)!;
    const answer = respond(request(s.url, { text: 'boom' })) as WebhookResponse;
    expect(answer.status).toBe(500);
    expect((answer.body as { code: string }).code).toBe('internal_error');
    expect(s.errors.map((e) => e.context.stage)).toEqual(['handler']);
  });

  it('has no entry for a handler it did not make', async () => {
    const s = await setup();
    const wrapper: WebhookHandler = (request) => s.handle(request);
    expect(respondNowOf(wrapper)).toBeUndefined();
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
