import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBJECT_SCHEMA_VERSION } from '../../../../adapters/stores/cloudflare/object-schema.js';
import { readAnswer, type Answer } from '../../../support/http.js';
import { hasMiniflare, startTestWorker, workerdTitle, type TestWorker } from './support.js';

// Posts through the real runtime: workerd (through miniflare) runs the test worker and the
// package's Durable Objects, each with its own SQLite database. '' is the router, which forwards a
// post to the object its webhook id names (the handler runs there); '/worker' is the handler in
// the worker, over the store and limiter that call the objects.
const MODES = [
  { name: 'handler in the object (createDurableObjectFetchHandler)', prefix: '', calls: 1 },
  {
    name: 'handler in the worker (createDurableObjectStore and createDurableObjectRateLimiter)',
    prefix: '/worker',
    calls: 3,
  },
];

let worker: TestWorker;
beforeAll(async () => {
  if (hasMiniflare) worker = await startTestWorker();
});
afterAll(() => worker?.dispose());

let channels = 0;
/** A fresh channel with one webhook: its path (with the mode's prefix), id and channel. */
async function newWebhook(prefix: string) {
  const channelId = `c-${Date.now()}-${channels++}`;
  expect(
    (await worker.manage({ op: 'putChannel', channel: { id: channelId, ownerId: 'u-owner', archived: false } })).status,
  ).toBe(200);
  const created = await worker.manage({ op: 'create', channelId, name: 'CI' });
  expect(created.status, created.text).toBe(200);
  const { url, webhook } = created.json as { url: string; webhook: { id: string } };
  return { path: `${prefix}${new URL(url).pathname}`, webhookId: webhook.id, channelId, url };
}

const messagesOf = async (channelId: string) =>
  (await worker.manage({ op: 'messages', channelId })).json as Array<{ id: string; body: string }>;

/** Sends the headers and the first half of a body, then the rest when told: a post in flight. */
function slowPost(url: string, body: string, headers: Record<string, string> = {}) {
  const req = httpRequest(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
  });
  const answered = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => readAnswer(res).then(resolve, reject));
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(body.slice(0, body.length >> 1));
  return {
    answered,
    finish: () => {
      req.end(body.slice(body.length >> 1));
      return answered;
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const mode of MODES) {
  describe.skipIf(!hasMiniflare)(workerdTitle(`Durable Objects in workerd, ${mode.name}`), () => {
    it(`stores a post (201) with ${mode.calls} call(s) to objects, and answers its retry 200 with the same message`, async () => {
      const { path, webhookId, channelId } = await newWebhook(mode.prefix);
      const first = await worker.post(path, { text: 'Deploy 42 finished' }, { 'idempotency-key': 'deploy-42' });
      expect(first.status, first.text).toBe(201);
      expect(first.headers['x-object-calls']).toBe(String(mode.calls));
      expect(first.headers['ratelimit-policy']).toBe('"default";q=60;w=60');
      expect(first.headers.ratelimit).toBe('"default";r=59;t=60');
      const { message } = first.json as { message: { id: string } };
      expect(first.json).toEqual({
        duplicate: false,
        message: {
          id: message.id,
          channelId,
          body: 'Deploy 42 finished',
          blocks: [],
          author: { type: 'webhook', id: webhookId, name: 'CI' },
          createdAt: expect.any(String),
        },
      });
      const again = await worker.post(path, { text: 'changed' }, { 'idempotency-key': 'deploy-42' });
      expect(again.status).toBe(200);
      expect(again.json).toEqual({ ...(first.json as object), duplicate: true });
      expect((await messagesOf(channelId)).map((stored) => stored.id)).toEqual([message.id]);
    });

    it('stores one message for 25 concurrent posts with one key, and answers each of them with it', async () => {
      const { path, channelId } = await newWebhook(mode.prefix);
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          worker.post(path, { text: `attempt ${i}` }, { 'idempotency-key': 'one-event' }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort((a, b) => a - b)).toEqual([...Array(24).fill(200), 201]);
      const stored = await messagesOf(channelId);
      expect(stored).toHaveLength(1);
      for (const answer of answers) expect((answer.json as { message: { id: string } }).message.id).toBe(stored[0]!.id);
    });

    it('accepts exactly 60 of 100 concurrent posts to one webhook and answers the rest 429 with Retry-After', async () => {
      const { path, channelId } = await newWebhook(mode.prefix);
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => worker.post(path, { text: `burst ${i}` })),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40);
      for (const answer of answers.filter((each) => each.status === 429)) {
        expect(answer.json).toMatchObject({ status: 429, code: 'rate_limited' });
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(59);
      }
      expect(await messagesOf(channelId)).toHaveLength(60);
    });

    for (const change of ['revoke', 'rotate'] as const) {
      it(`answers 404 and stores nothing when the webhook is ${change}d while the body is arriving`, async () => {
        const { path, webhookId, channelId } = await newWebhook(mode.prefix);
        const post = slowPost(`${worker.base}${path}`, JSON.stringify({ text: `in flight during ${change}` }), {
          'idempotency-key': `k-${change}`,
        });
        await pause(300);
        expect((await worker.manage({ op: change, webhookId })).status).toBe(200);
        const answer = await post.finish();
        expect(answer.status, answer.text).toBe(404);
        expect(answer.json).toMatchObject({ status: 404, code: 'not_found' });
        expect(await messagesOf(channelId)).toEqual([]);
      });
    }

    it('answers 409 and stores nothing when the channel is archived while the body is arriving', async () => {
      const { path, channelId } = await newWebhook(mode.prefix);
      const post = slowPost(`${worker.base}${path}`, JSON.stringify({ text: 'in flight during archival' }));
      await pause(300);
      expect(
        (await worker.manage({ op: 'putChannel', channel: { id: channelId, ownerId: 'u-owner', archived: true } }))
          .status,
      ).toBe(200);
      const answer = await post.finish();
      expect(answer.status, answer.text).toBe(409);
      expect(answer.json).toMatchObject({ status: 409, code: 'channel_archived' });
      expect(await messagesOf(channelId)).toEqual([]);
    });

    it('answers 500 and writes nothing when SQLite fails between the message and the webhook update; the retry with the same key stores it once', async () => {
      const { path, channelId, webhookId } = await newWebhook(mode.prefix);
      await worker.manage({ op: 'object', channelId, fault: 'fail-last-post-at' });
      const failed = await worker.post(path, { text: 'half a write?' }, { 'idempotency-key': 'retry-me' });
      expect(failed.status, failed.text).toBe(500);
      expect(failed.json).toMatchObject({ status: 500, code: 'store_failed' });
      expect(await messagesOf(channelId)).toEqual([]);
      expect((await worker.manage({ op: 'getWebhook', webhookId })).json).toMatchObject({ lastPostAt: null });
      await worker.manage({ op: 'object', channelId, fault: 'clear' });
      const retried = await worker.post(path, { text: 'half a write?' }, { 'idempotency-key': 'retry-me' });
      expect(retried.status).toBe(201);
      const again = await worker.post(path, { text: 'half a write?' }, { 'idempotency-key': 'retry-me' });
      expect(again.status).toBe(200);
      expect(await messagesOf(channelId)).toHaveLength(1);
    });

    it('serves a webhook imported with an id of its own (not made by newWebhookId), and sees its revocation at once', async () => {
      const channelId = `c-imported-${Date.now()}-${channels++}`;
      await worker.manage({ op: 'putChannel', channel: { id: channelId, ownerId: 'u-owner', archived: false } });
      // The hash of the secret 'a'.repeat(43), as an app importing its webhooks from another store has it.
      const secret = 'a'.repeat(43);
      const secretHash = await sha256Hex(secret);
      const webhookId = `wh_imported${String(channels).padStart(2, '0')}${Date.now().toString(36)}`
        .slice(0, 25)
        .padEnd(25, 'x');
      const record = {
        id: webhookId,
        channelId,
        name: 'Imported',
        secretHash,
        createdBy: 'u-owner',
        createdAt: Date.now(),
        rotatedAt: null,
        revokedAt: null,
        lastPostAt: null,
        description: null,
        avatarUrl: null,
      };
      expect((await worker.manage({ op: 'insertWebhook', webhook: record })).status).toBe(200);
      const path = `${mode.prefix}/hooks/channels/${webhookId}/${secret}`;
      const posted = await worker.post(path, { text: 'from an imported webhook' });
      expect(posted.status, posted.text).toBe(201);
      expect(posted.json).toMatchObject({ message: { channelId, author: { id: webhookId, name: 'Imported' } } });
      expect((await worker.manage({ op: 'revoke', webhookId })).status).toBe(200);
      expect((await worker.post(path, { text: 'after the revocation' })).status).toBe(404);
      expect((await messagesOf(channelId)).map((message) => message.body)).toEqual(['from an imported webhook']);
    });
  });
}

describe.skipIf(!hasMiniflare)(workerdTitle('Durable Objects in workerd, failures of the object'), () => {
  it('answers 500 store_failed at the router’s deadline when the object does not answer', async () => {
    const { path } = await newWebhook('');
    const started = performance.now();
    const answer = await worker.post(path, { text: 'stalls' }, { 'x-test-fault': 'stall', 'x-test-timeout': '400' });
    const took = performance.now() - started;
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.json).toMatchObject({ status: 500, code: 'store_failed' });
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(3_000);
  });

  it('answers 500 store_failed when the object throws', async () => {
    const { path, channelId } = await newWebhook('');
    const answer = await worker.post(path, { text: 'throws' }, { 'x-test-fault': 'throw' });
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ status: 500, code: 'store_failed' });
    expect(await messagesOf(channelId)).toEqual([]);
  });

  it('tells onMessage of the object about each new message, not about duplicates', async () => {
    const { path, channelId } = await newWebhook('');
    const first = await worker.post(path, { text: 'heard once' }, { 'idempotency-key': 'heard' });
    await worker.post(path, { text: 'heard once' }, { 'idempotency-key': 'heard' });
    const heard = (await worker.manage({ op: 'heard', channelId })).json as string[];
    expect(heard.filter((id) => id === (first.json as { message: { id: string } }).message.id)).toHaveLength(1);
  });

  it('refuses to serve an object whose schema a newer release migrated: 500 store_failed to the poster, schema_too_new to the app', async () => {
    const { path, channelId } = await newWebhook('');
    await worker.manage({ op: 'object', channelId, fault: 'schema-from-the-future' });
    await worker.restart();
    const answer = await worker.post(path, { text: 'new schema' });
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ status: 500, code: 'store_failed' });
    const operation = await worker.manage({ op: 'messages', channelId });
    expect(operation.status).toBe(500);
    expect(operation.json).toMatchObject({ code: 'schema_too_new' });
    expect(operation.text).toContain(`schema is at version 999, newer than this release's ${OBJECT_SCHEMA_VERSION}`);
  });
});

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex');
}
