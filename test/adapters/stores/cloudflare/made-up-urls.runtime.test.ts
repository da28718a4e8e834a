import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelShard } from '../../../../adapters/stores/cloudflare/shard.js';
import { send, type Answer } from '../../../support/http.js';
import { hasMiniflare, startTestWorker, workerdTitle, type TestWorker } from './support.js';

// Anyone may post to a URL they made up, and a webhook id of the library's shape names one of 2^30
// objects: no such post, and no read of an object that holds nothing, may leave a database behind
// (billed storage that nothing ever deletes), and a URL of another shape reaches no object at all.
// '' is the router (the handler in the object), '/worker' the handler in the worker.
const MODES = [
  { name: 'handler in the object (createDurableObjectFetchHandler)', prefix: '' },
  { name: 'handler in the worker (createDurableObjectStore and createDurableObjectRateLimiter)', prefix: '/worker' },
];

let worker: TestWorker;
beforeAll(async () => {
  if (hasMiniflare) worker = await startTestWorker();
});
afterAll(() => worker?.dispose());

const madeUpId = () => `wh_${randomBytes(24).toString('base64url').slice(0, 22)}`;
const madeUpSecret = () => randomBytes(32).toString('base64url');
const shardOf = (webhookId: string) => webhookId.slice(3, 8);

/** The tables of the object of a shard, and its database's size, read without the object's code. */
const storageOf = async (shard: string) =>
  (await worker.manage({ op: 'storage', shard })).json as { tables: string[]; databaseSize: number };

/** What an object keeps when it was only ever asked this: its database as workerd opens it. */
const nothing = async () => storageOf(shardOf(madeUpId()));

/** A real webhook in a fresh channel: its URL's path and id. */
async function realWebhook() {
  const channelId = `c-${randomUUID()}`;
  await worker.manage({ op: 'putChannel', channel: { id: channelId, ownerId: 'u-owner', archived: false } });
  const created = await worker.manage({ op: 'create', channelId, name: 'CI' });
  expect(created.status, created.text).toBe(200);
  const { url, webhook } = created.json as { url: string; webhook: { id: string } };
  return { path: new URL(url).pathname, webhookId: webhook.id, channelId };
}

/** What the endpoint answers: status, the headers a sender reads, the body. */
const answerOf = (answer: Answer) => ({
  status: answer.status,
  contentType: answer.headers['content-type'],
  allow: answer.headers.allow,
  body: answer.json,
});

describe.skipIf(!hasMiniflare)(workerdTitle('Durable Objects in workerd: made-up URLs'), () => {
  for (const mode of MODES) {
    it(`${mode.name}: 20 made-up URLs of the right shape are answered 404 and leave the objects they name without a table`, async () => {
      const real = await realWebhook();
      const wrongSecret = await worker.post(`${mode.prefix}${real.path.replace(/[^/]+$/, madeUpSecret())}`, {
        text: 'x',
      });
      expect(wrongSecret.status).toBe(404);
      const ids = Array.from({ length: 20 }, madeUpId);
      for (const id of ids) {
        const answer = await worker.post(`${mode.prefix}/hooks/channels/${id}/${madeUpSecret()}`, { text: 'x' });
        // The very answer of a real webhook's wrong secret.
        expect(answerOf(answer)).toEqual(answerOf(wrongSecret));
      }
      const untouched = await nothing();
      expect(untouched.tables).toEqual([]);
      for (const id of ids) expect(await storageOf(shardOf(id)), id).toEqual(untouched);
    });
  }

  it('reads and changes on objects that never held a channel answer their empty value and create no table', async () => {
    const channelId = `c-${randomUUID()}`;
    const webhookId = madeUpId();
    const reads = {
      getChannel: await worker.manage({ op: 'getChannel', channelId }),
      messages: await worker.manage({ op: 'messages', channelId }),
      listWebhooks: await worker.manage({ op: 'listWebhooks', channelId }),
      readFeed: await worker.manage({ op: 'readFeed', options: { channelId, limit: 10 } }),
      readFeedAfterFirst: await worker.manage({
        op: 'readFeed',
        options: { channelId, after: '0000000000000000', limit: 10 },
      }),
      getWebhook: await worker.manage({ op: 'getWebhook', webhookId }),
      listPosts: await worker.manage({ op: 'listPosts', webhookId, limit: 100 }),
    };
    expect(
      Object.fromEntries(Object.entries(reads).map(([name, answer]) => [name, [answer.status, answer.json]])),
    ).toEqual({
      getChannel: [200, null],
      messages: [200, []],
      listWebhooks: [200, []],
      readFeed: [200, { entries: [], heldBack: false }],
      readFeedAfterFirst: [200, { entries: [], heldBack: false }],
      getWebhook: [200, null],
      listPosts: [200, []],
    });
    const laterCursor = await worker.manage({
      op: 'readFeed',
      options: { channelId, after: '0000000000000001', limit: 10 },
    });
    expect([laterCursor.status, (laterCursor.json as { code: string }).code]).toEqual([500, 'invalid_cursor']);
    for (const change of ['rotate', 'revoke']) {
      const answer = await worker.manage({ op: change, webhookId });
      expect([answer.status, (answer.json as { code: string }).code]).toEqual([500, 'webhook_not_found']);
    }
    const untouched = await nothing();
    expect(await storageOf(channelShard(channelId))).toEqual(untouched);
    expect(await storageOf(shardOf(webhookId))).toEqual(untouched);
  });

  it('a URL whose id or secret has another shape, or any method but POST, is answered without calling an object', async () => {
    const id = madeUpId();
    const secret = madeUpSecret();
    const shapes = [
      `wh_${id.slice(3, 24)}/${secret}`,
      `${id}x/${secret}`,
      `xx_${id.slice(3)}/${secret}`,
      `${id.slice(0, 24)}./${secret}`,
      `${id}/${secret.slice(1)}`,
      `${id}/${secret}A`,
      `${id}/${secret.slice(1)}+`,
    ];
    for (const mode of MODES) {
      const real = await realWebhook();
      const wrongSecret = await worker.post(`${mode.prefix}${real.path.replace(/[^/]+$/, secret)}`, { text: 'x' });
      for (const shape of shapes) {
        const answer = await worker.post(`${mode.prefix}/hooks/channels/${shape}`, { text: 'x' });
        expect(answerOf(answer), shape).toEqual(answerOf(wrongSecret));
        expect(answer.headers['x-object-calls'], shape).toBe('0');
      }
      const realGet = await send(`${worker.base}${mode.prefix}${real.path}`, { method: 'GET' });
      const madeUpGet = await send(`${worker.base}${mode.prefix}/hooks/channels/${id}/${secret}`, { method: 'PUT' });
      for (const answer of [realGet, madeUpGet]) {
        expect(answerOf(answer)).toEqual({
          status: 405,
          contentType: 'application/problem+json',
          allow: 'POST',
          body: expect.objectContaining({ status: 405, code: 'method_not_allowed' }),
        });
        expect(answer.headers['x-object-calls']).toBe('0');
      }
    }
    expect(await storageOf(shardOf(id))).toEqual(await nothing());
  });

  it("a real URL's post is still stored (201), and its channel's object holds the tables", async () => {
    const real = await realWebhook();
    for (const mode of MODES) {
      const answer = await worker.post(`${mode.prefix}${real.path}`, {
        text: `through ${mode.prefix || 'the router'}`,
      });
      expect(answer.status, answer.text).toBe(201);
    }
    const messages = (await worker.manage({ op: 'messages', channelId: real.channelId })).json as unknown[];
    expect(messages).toHaveLength(2);
    const kept = await storageOf(channelShard(real.channelId));
    expect(kept.tables).toEqual(
      expect.arrayContaining(['channels', 'messages', 'post_history', 'rate_hits', 'schema_migrations', 'webhooks']),
    );
    expect(kept.databaseSize).toBeGreaterThan((await nothing()).databaseSize);
  });
});
