import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { startInstance, type Instance } from '../../support/instance.js';

const { databaseUrl, redisUrl, title } = backends();
const adminToken = randomUUID();

interface Answer {
  status: number;
  headers: Headers;
  json: { message?: { id: string; body: string; author: { id: string } }; duplicate?: boolean; code?: string };
}

describe.skipIf(databaseUrl === null || redisUrl === null)(
  title('two instances sharing one PostgreSQL and one Redis', 'both'),
  () => {
    let a: Instance;
    let b: Instance;

    beforeAll(async () => {
      const env = {
        DATABASE_URL: databaseUrl!,
        REDIS_URL: redisUrl!,
        ADMIN_TOKEN: adminToken,
        TABLE_PREFIX: 'cwtest_multi_',
        KEY_PREFIX: `cwtest:multi:${randomUUID()}:`,
      };
      // One first, so its migrate() has made the tables; the second's then finds them (both are safe).
      a = await startInstance(env);
      b = await startInstance(env);
    });
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    // The management API of the instance; a webhook's channel is `general`.
    const admin = async (instance: Instance, path: string, body: unknown = {}) => {
      const read = path.endsWith('/messages');
      const response = await fetch(`${instance.origin}/admin${path}`, {
        method: read ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: read ? undefined : JSON.stringify(body),
      });
      expect(response.status).toBe(path.endsWith('/webhooks') ? 201 : 200);
      return response.json();
    };
    const createWebhook = async (instance: Instance): Promise<{ id: string; path: string }> => {
      const { webhook, url } = (await admin(instance, '/channels/general/webhooks', { name: 'Deploys' })) as {
        webhook: { id: string };
        url: string;
      };
      return { id: webhook.id, path: new URL(url).pathname };
    };
    const post = async (instance: Instance, path: string, body: unknown, key?: string): Promise<Answer> => {
      const response = await fetch(`${instance.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, json: await response.json() };
    };

    it('40 concurrent posts with one key, split across both, store one message and all answer with it', async () => {
      const webhook = await createWebhook(a);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(i % 2 === 0 ? a : b, webhook.path, { text: `attempt ${i}` }, 'deploy-42'),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array(39).fill(200), 201]);
      const created = answers.find((answer) => answer.status === 201)!;
      expect(created.json.duplicate).toBe(false);
      for (const answer of answers) {
        expect(answer.json.message).toEqual(created.json.message);
        expect(answer.json.duplicate).toBe(answer.status === 200);
      }
      const stored = (await admin(b, '/channels/general/messages')) as Array<{ id: string; author: { id: string } }>;
      expect(stored.filter((message) => message.author.id === webhook.id)).toEqual([created.json.message]);
    });

    it('80 posts to one webhook, split across both, get exactly 60 × 201 and 20 × 429', async () => {
      const webhook = await createWebhook(b);
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) => post(i % 2 === 0 ? a : b, webhook.path, { text: `#${i}` })),
      );
      const count = (status: number) => answers.filter((answer) => answer.status === status).length;
      expect({ 201: count(201), 429: count(429) }).toEqual({ 201: 60, 429: 20 });
      for (const answer of answers.filter((each) => each.status === 429)) {
        expect(answer.json.code).toBe('rate_limited');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
        expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
      }
      const stored = (await admin(a, '/channels/general/messages')) as Array<{ author: { id: string } }>;
      expect(stored.filter((message) => message.author.id === webhook.id)).toHaveLength(60);
    });

    it("the history of a webhook's posts, written by both instances, is read through either", async () => {
      const webhook = await createWebhook(a);
      await Promise.all(
        Array.from({ length: 70 }, (_, i) =>
          post(i % 2 === 0 ? a : b, webhook.path, i % 7 === 0 ? { text: 'hi', colour: 'red' } : { text: `#${i}` }),
        ),
      );
      let posts: Array<{ status: number; count: number; code: string | null }> = [];
      for (let i = 0; i < 100 && posts.reduce((sum, record) => sum + record.count, 0) < 70; i++) {
        const response = await fetch(`${b.origin}/admin/webhooks/${webhook.id}/posts`, {
          headers: { authorization: `Bearer ${adminToken}` },
        });
        posts = ((await response.json()) as { posts: typeof posts }).posts;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const counted = (status: number) =>
        posts.filter((record) => record.status === status).reduce((sum, record) => sum + record.count, 0);
      expect({ 201: counted(201), 400: counted(400), 429: counted(429) }).toEqual({
        201: 60 - counted(400),
        400: counted(400),
        429: 10,
      });
      expect(counted(400)).toBeGreaterThan(0);
      // A minute's 429s are one record per instance that answered them.
      expect(posts.filter((record) => record.status === 429).length).toBeLessThanOrEqual(2);
    });

    it('a rotation on one instance is seen at once by the other', async () => {
      const webhook = await createWebhook(a);
      expect((await post(b, webhook.path, { text: 'before rotation' })).status).toBe(201);
      const rotated = (await admin(a, `/webhooks/${webhook.id}/rotate`)) as { url: string };
      const oldAnswer = await post(b, webhook.path, { text: 'old URL' });
      expect(oldAnswer.status).toBe(404);
      expect(oldAnswer.json.code).toBe('not_found');
      expect((await post(b, new URL(rotated.url).pathname, { text: 'new URL' })).status).toBe(201);
    });

    it('a revocation on one instance is seen at once by the other', async () => {
      const webhook = await createWebhook(b);
      expect((await post(a, webhook.path, { text: 'before revocation' }, 'k1')).status).toBe(201);
      await admin(b, `/webhooks/${webhook.id}/revoke`);
      const answer = await post(a, webhook.path, { text: 'after revocation' }, 'k2');
      expect(answer.status).toBe(404);
      expect(answer.json.code).toBe('not_found');
    });
  },
);
