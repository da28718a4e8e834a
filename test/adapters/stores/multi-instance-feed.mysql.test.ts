import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { type EventStream, nextEvents, openEventStream } from '../../support/event-stream.js';
import { startInstance, type Instance } from '../../support/instance.js';

// examples/multi-instance on MariaDB: two processes on one database and one Redis, whose feeds wake
// through the Redis notifier; each serves a channel's feed as Server-Sent Events, whichever
// instance stored the messages.
const { mysqlUrl, redisUrl, title } = backends();
const adminToken = randomUUID();
const tablePrefix = 'cwtest_multifeed_';
const auth = { authorization: `Bearer ${adminToken}` };

describe.skipIf(mysqlUrl === null || redisUrl === null)(
  title('the feed of two instances sharing one MariaDB and one Redis', 'mysql'),
  () => {
    const env = {
      DATABASE_URL: mysqlUrl!,
      REDIS_URL: redisUrl!,
      ADMIN_TOKEN: adminToken,
      TABLE_PREFIX: tablePrefix,
      KEY_PREFIX: `cwtest:multifeed:${randomUUID()}:`,
    };
    let a: Instance;
    let b: Instance;
    let pool: mysql.Pool;
    const streams: EventStream[] = [];

    beforeAll(async () => {
      a = await startInstance(env);
      b = await startInstance(env);
      pool = mysql.createPool({ uri: mysqlUrl!, connectionLimit: 2 });
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await Promise.all([a?.stop(), b?.stop(), pool?.end()]);
    });

    it('posts to both instances reach a follower on each, every message exactly once and in one order', async () => {
      const channelId = `c_${randomUUID()}`;
      await pool.query(`INSERT INTO ${tablePrefix}channels (id, owner_id, archived) VALUES (?, 'u1', false)`, [
        channelId,
      ]);
      const paths: string[] = [];
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${a.origin}/admin/channels/${channelId}/webhooks`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Hook ${i}` }),
        });
        expect(response.status).toBe(201);
        paths.push(new URL(((await response.json()) as { url: string }).url).pathname);
      }
      const followers = await Promise.all(
        [a, b].map(async (instance) => {
          const stream = await openEventStream(`${instance.origin}/admin/channels/${channelId}/events`, {
            headers: auth,
          });
          streams.push(stream);
          expect(stream.status).toBe(200);
          return stream;
        }),
      );
      const stored: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, lane) => {
          for (let job = next++; job < 160; job = next++) {
            const response = await fetch(`${(lane % 2 === 0 ? a : b).origin}${paths[job % 4]}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ text: `post ${job}` }),
            });
            expect(response.status).toBe(201);
            stored.push(((await response.json()) as { message: { id: string } }).message.id);
          }
        }),
      );
      const [onA, onB] = await Promise.all(followers.map((stream) => nextEvents(stream, 160)));
      const ids = (events: Array<{ data?: string }>) =>
        events.map((event) => (JSON.parse(event.data!) as { id: string }).id);
      expect(new Set(ids(onA!))).toEqual(new Set(stored));
      expect(ids(onA!)).toHaveLength(160);
      expect(ids(onB!)).toEqual(ids(onA!));
      expect(onB!.map((event) => event.id)).toEqual(onA!.map((event) => event.id));
      expect(a.stderr() + b.stderr()).toBe('');
    }, 60_000);
  },
);
