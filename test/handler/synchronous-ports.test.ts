import { describe, expect, it } from 'vitest';
import type { BodyReader } from '../../src/http/http-types.js';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import type { RateLimiter, WebhookStore } from '../../src/ports.js';
import { CHANNEL_ID, request, setup } from '../support/setup.js';

// Rule: when every port answers synchronously, the handler does not wait between its steps: the
// store and limiter are called within the call to handle itself, before any promise settles, and a
// body given as a string is stored before handle returns. The answers are the same as ever.
describe('a post over ports that answer synchronously', () => {
  it('with a string body, is stored before handle returns', async () => {
    const s = await setup();
    const answer = s.handle(request(s.url, { text: 'at once' }));
    expect(s.store.listMessages(CHANNEL_ID).map((message) => message.body)).toEqual(['at once']);
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).status).toBe(201);
  });

  it('with a body reader, is counted and reading before handle returns', async () => {
    const s = await setup();
    let askedFor: number | undefined;
    const reader: BodyReader = async (maxBytes) => {
      askedFor = maxBytes;
      return '{"text":"read"}';
    };
    const answer = s.handle(request(s.url, undefined, { raw: reader }));
    expect(askedFor).toBe(65_536);
    const response = await answer;
    expect(response.status).toBe(201);
    expect(response.headers.ratelimit).toBe('"default";r=59;t=60');
  });

  it('mixes with ports that answer with promises, with the same answers', async () => {
    const limiter = createMemoryRateLimiter();
    const asyncLimiter: RateLimiter = { hit: async (key, now) => limiter.hit(key, now) };
    const s = await setup({
      rateLimiter: asyncLimiter,
      wrapStore: (store): WebhookStore => ({ ...store, getWebhook: async (id) => store.getWebhook(id) }),
    });
    const first = await s.post({ text: 'mixed' }, { idempotencyKey: 'k' });
    const again = await s.post({ text: 'mixed' }, { idempotencyKey: 'k' });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.headers.ratelimit).toBe('"default";r=58;t=60');
    expect(again.body).toEqual({ message: (first.body as { message: unknown }).message, duplicate: true });
  });

  it('a synchronous throw from a port is a failure like a rejection', async () => {
    const s = await setup({
      wrapStore: (store): WebhookStore => ({
        ...store,
        insertMessage: () => {
          throw new Error('disk full');
        },
      }),
      rateLimiter: {
        hit: () => {
          throw new Error('limiter down');
        },
      },
    });
    const response = await s.post({ text: 'x' });
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ code: 'store_failed' });
    expect(s.errors.map((reported) => reported.context.stage)).toEqual(['rate_limiter', 'store']);
  });
});
