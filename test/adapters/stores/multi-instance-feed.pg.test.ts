import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { type EventStream, nextEvents, openEventStream } from '../../support/event-stream.js';
import { startInstance, type Instance } from '../../support/instance.js';

// examples/multi-instance, run as separate processes on one PostgreSQL and one Redis: each instance
// serves a channel's feed as Server-Sent Events, whichever instance stored the messages.
const { databaseUrl, redisUrl, title } = backends();
const adminToken = randomUUID();
const tablePrefix = 'cwtest_multifeed_';
const auth = { authorization: `Bearer ${adminToken}` };

describe.skipIf(databaseUrl === null || redisUrl === null)(
  title('the feed of two instances sharing one PostgreSQL', 'both'),
  () => {
    const env = {
      DATABASE_URL: databaseUrl!,
      REDIS_URL: redisUrl!,
      ADMIN_TOKEN: adminToken,
      TABLE_PREFIX: tablePrefix,
      KEY_PREFIX: `cwtest:multifeed:${randomUUID()}:`,
    };
    let a: Instance;
    let b: Instance;
    let pool: pg.Pool;
    const streams: EventStream[] = [];

    beforeAll(async () => {
      a = await startInstance(env);
      b = await startInstance(env);
      pool = new pg.Pool({ connectionString: databaseUrl!, max: 2 });
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await Promise.all([a?.stop(), b?.stop(), pool?.end()]);
    });

    /** A channel of its own, with `count` webhooks (each may take 60 posts a minute). */
    const channelWithWebhooks = async (count: number) => {
      const channelId = `c_${randomUUID()}`;
      await pool.query(`INSERT INTO ${tablePrefix}channels (id, owner_id, archived) VALUES ($1, 'u1', false)`, [
        channelId,
      ]);
      const paths: string[] = [];
      for (let i = 0; i < count; i++) {
        // Through the management API the example mounts at /admin.
        const response = await fetch(`${a.origin}/admin/channels/${channelId}/webhooks`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Hook ${i}` }),
        });
        expect(response.status).toBe(201);
        paths.push(new URL(((await response.json()) as { url: string }).url).pathname);
      }
      return { channelId, paths };
    };
    const post = async (instance: Instance, path: string, text: string): Promise<string> => {
      const response = await fetch(`${instance.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { message: { id: string } }).message.id;
    };
    const follow = async (instance: Instance, channelId: string, lastEventId?: string) => {
      const stream = await openEventStream(`${instance.origin}/admin/channels/${channelId}/events`, {
        headers: auth,
        lastEventId,
      });
      streams.push(stream);
      expect(stream.status).toBe(200);
      return stream;
    };
    const ids = (events: Array<{ data?: string }>) =>
      events.map((event) => (JSON.parse(event.data!) as { id: string }).id);

    it('posts to both instances under load reach a follower on each, every message exactly once and in one order', async () => {
      const { channelId, paths } = await channelWithWebhooks(8);
      const followers = [await follow(a, channelId), await follow(b, channelId)];
      const jobs = paths.flatMap((path, hook) =>
        Array.from({ length: 40 }, (_, i) => ({ path, text: `hook ${hook} post ${i}` })),
      );
      const stored: string[] = [];
      // 16 posts in flight at a time, alternating between the instances.
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async (_, lane) => {
          for (let job = next++; job < jobs.length; job = next++)
            stored.push(await post(lane % 2 === 0 ? a : b, jobs[job]!.path, jobs[job]!.text));
        }),
      );
      expect(stored).toHaveLength(320);
      const [onA, onB] = await Promise.all(followers.map((stream) => nextEvents(stream, 320)));
      expect(new Set(ids(onA!))).toEqual(new Set(stored));
      expect(ids(onA!)).toHaveLength(320);
      expect(ids(onB!)).toEqual(ids(onA!));
      expect(onB!.map((event) => event.id)).toEqual(onA!.map((event) => event.id));
      const cursors = onA!.map((event) => event.id!);
      expect([...cursors].sort()).toEqual(cursors);
    }, 60_000);

    it('a follower disconnected while 100 posts land, then reconnected with its cursor, gets exactly those 100, in order', async () => {
      const { channelId, paths } = await channelWithWebhooks(2);
      const first = await follow(a, channelId);
      await post(b, paths[0]!, 'before');
      const [seen] = await nextEvents(first, 1);
      first.close();
      const stored: string[] = [];
      for (let i = 0; i < 100; i++) stored.push(await post(i % 2 === 0 ? a : b, paths[i % 2]!, `while away ${i}`));
      const again = await follow(b, channelId, seen!.id);
      expect(ids(await nextEvents(again, 100))).toEqual(stored);
      // Nothing more: the next event is the next message.
      const after = await post(a, paths[0]!, 'after');
      expect(ids(await nextEvents(again, 1))).toEqual([after]);
    }, 60_000);

    it('the same when the instance that stored them is killed (SIGKILL) right after its 201s', async () => {
      const storing = await startInstance(env);
      try {
        const { channelId, paths } = await channelWithWebhooks(2);
        const first = await follow(a, channelId);
        await post(storing, paths[0]!, 'before');
        const [seen] = await nextEvents(first, 1);
        first.close();
        const stored: string[] = [];
        for (let i = 0; i < 100; i++) stored.push(await post(storing, paths[i % 2]!, `then killed ${i}`));
        await storing.kill();
        const again = await follow(a, channelId, seen!.id);
        expect(ids(await nextEvents(again, 100))).toEqual(stored);
      } finally {
        await storing.stop();
      }
    }, 60_000);
  },
);
