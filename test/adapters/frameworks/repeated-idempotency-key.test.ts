import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL_ID, setup } from '../../support/setup.js';
import { nodeFrameworkTargets } from '../../support/frameworks.js';
import { readAnswer, type Answer, type Listening } from '../../support/http.js';

/** POSTs `body` with each of `keys` as its own `Idempotency-Key` header line. */
function postWithKeys(url: string, body: string, keys: string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'idempotency-key': keys,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => readAnswer(res).then(resolve, reject));
    req.end(body);
  });
}

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

// Rule: a key is one header's value. Node joins a repeated header into "evt-1, evt-2"; taken as one
// key, a later retry with evt-1 alone would store the event a second time.
describe.each(nodeFrameworkTargets)('$name: a repeated Idempotency-Key header', (target) => {
  it('is answered 400 naming the header, stores nothing, and a retry with one of the keys is a first post', async () => {
    const s = await setup();
    const server = await target.start(s.handle);
    servers.push(server);
    const url = `${server.origin}/api${new URL(s.url).pathname}`;
    const body = JSON.stringify({ text: 'deployed' });

    const repeated = await postWithKeys(url, body, ['evt-1', 'evt-2']);
    expect(repeated.status).toBe(400);
    expect(repeated.headers).toMatchObject({
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      'ratelimit-policy': '"default";q=60;w=60',
      ratelimit: '"default";r=59;t=60',
    });
    expect(repeated.json).toEqual({
      type: 'tag:channel-webhooks,2026:problem:invalid_payload',
      title: 'Invalid payload',
      status: 400,
      detail: 'One field is invalid; see errors.',
      code: 'invalid_payload',
      errors: [{ header: 'idempotency-key', message: 'must be sent at most once' }],
    });
    expect(await s.store.listMessages(CHANNEL_ID)).toEqual([]);

    const retry = await postWithKeys(url, body, ['evt-1']);
    expect(retry.status).toBe(201);
    const again = await postWithKeys(url, body, ['evt-1']);
    expect(again.status).toBe(200);
    expect(await s.store.listMessages(CHANNEL_ID)).toHaveLength(1);
  });

  it('a single key holding a comma is still one key', async () => {
    const s = await setup();
    const server = await target.start(s.handle);
    servers.push(server);
    const url = `${server.origin}/api${new URL(s.url).pathname}`;
    const answer = await postWithKeys(url, JSON.stringify({ text: 'deployed' }), ['evt-1, evt-2']);
    expect(answer.status).toBe(201);
    const again = await postWithKeys(url, JSON.stringify({ text: 'deployed', eventId: 'evt-1, evt-2' }), [
      'evt-1, evt-2',
    ]);
    expect(again.status).toBe(200);
  });
});
