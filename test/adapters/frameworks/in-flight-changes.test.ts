import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../../src/memory/memory-rate-limiter.js';
import type { RateLimiter } from '../../../src/ports.js';
import { CHANNEL_ID, OWNER, problem, settle, setup, type World } from '../../support/setup.js';
import { nodeFrameworkTargets } from '../../support/frameworks.js';
import { readAnswer, type Answer, type Listening } from '../../support/http.js';

/**
 * POSTs `body` in two parts: the head and the first half at once, then, once the request has been
 * counted (the handler is now waiting for the rest of the body), runs `between` and sends the rest.
 */
function postInTwoParts(
  url: string,
  body: string,
  counted: Promise<void>,
  between: () => Promise<unknown>,
): Promise<Answer> {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': bytes.length, 'idempotency-key': 'two-parts-1' },
    });
    req.on('error', reject);
    req.on('response', (res) => readAnswer(res).then(resolve, reject));
    req.write(bytes.subarray(0, half));
    counted.then(between).then(() => req.end(bytes.subarray(half)), reject);
  });
}

/** The core setup behind a real server, with a signal for the moment its one post is counted. */
async function serve(start: (s: World) => Promise<Listening>) {
  let countedNow!: () => void;
  const counted = new Promise<void>((resolve) => (countedNow = resolve));
  const inner = createMemoryRateLimiter();
  const rateLimiter: RateLimiter = {
    hit: (key, now) => {
      const decision = inner.hit(key, now);
      countedNow();
      return decision;
    },
  };
  const s = await setup({ rateLimiter });
  const server = await start(s);
  return { s, server, counted, url: `${server.origin}/api${new URL(s.url).pathname}` };
}

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe.each(nodeFrameworkTargets)('$name: a change between the two parts of a body', (target) => {
  it('revoked: 404 and nothing stored', async () => {
    const { s, server, counted, url } = await serve((s) => target.start(s.handle));
    servers.push(server);
    const answer = await postInTwoParts(url, JSON.stringify({ text: 'two parts' }), counted, () =>
      s.manager.revoke(OWNER, s.webhookId),
    );
    expect(answer.status).toBe(404);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/problem+json',
      ratelimit: '"default";r=59;t=60',
    });
    expect(answer.json).toEqual(problem(404, 'not_found'));
    await settle();
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
    expect(s.delivered).toEqual([]);
  });

  it('channel archived: 409 and nothing stored', async () => {
    const { s, server, counted, url } = await serve((s) => target.start(s.handle));
    servers.push(server);
    const answer = await postInTwoParts(url, JSON.stringify({ text: 'two parts' }), counted, async () =>
      s.store.putChannel({ id: CHANNEL_ID, ownerId: OWNER.userId, archived: true }),
    );
    expect(answer.status).toBe(409);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/problem+json',
      ratelimit: '"default";r=59;t=60',
    });
    expect(answer.json).toEqual(problem(409, 'channel_archived'));
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);
  });
});
