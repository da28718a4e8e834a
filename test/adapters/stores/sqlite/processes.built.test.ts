import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../../adapters/stores/sqlite/index.js';
import { freshFile, seed, spawnChild, type Child } from './support.js';

// Real processes on one database file, on the built package (`npm test` builds it first). Few and
// short: the machine running the suite may have two cores.
type Answer = { i: number; key: string; status: number; id: string };
const answers = (child: Child) => child.lines.filter((line) => line.status !== undefined) as Answer[];
const startAll = async (children: Child[]) => {
  await Promise.all(children.map((child) => child.waitFor((lines) => lines.some((line) => line.ready))));
};

// Once as one post at a time per process, and once with group commit and 8 posts in flight per
// process, so that batches form: the same guarantees either way.
for (const { name, env, inFlight } of [
  { name: '', env: {}, inFlight: 1 },
  { name: ', group commit, 8 posts in flight each', env: { GROUP_COMMIT: '1', IN_FLIGHT: '8' }, inFlight: 8 },
])
  describe(`SQLite store, several processes on one file${name}`, () => {
    it('4 processes posting the same 100 keys at once store each key once, and every answer carries that message', async () => {
      const file = freshFile();
      const { path, store, database } = await seed(file);
      const startAt = String(Date.now() + 1_500);
      const children = Array.from({ length: 4 }, () =>
        spawnChild('race', { SQLITE_FILE: file, HOOK_PATH: path, START_AT: startAt, COUNT: '100', ...env }),
      );
      await startAll(children);
      expect(await Promise.all(children.map((child) => child.exited))).toEqual([0, 0, 0, 0]);

      const byKey = new Map<string, Array<{ status: number; id: string }>>();
      for (const child of children) {
        expect(answers(child)).toHaveLength(100);
        for (const { key, status, id } of answers(child)) byKey.set(key, [...(byKey.get(key) ?? []), { status, id }]);
      }
      expect(byKey.size).toBe(100);
      for (const [key, got] of byKey) {
        expect(
          got.filter((answer) => answer.status === 201),
          key,
        ).toHaveLength(1);
        expect(
          got.filter((answer) => answer.status === 200),
          key,
        ).toHaveLength(3);
        expect(new Set(got.map((answer) => answer.id)).size, key).toBe(1);
      }
      const stored = store.listMessages('general');
      expect(stored).toHaveLength(100);
      expect(new Set(stored.map((message) => message.id))).toEqual(
        new Set([...byKey.values()].map((got) => got[0]!.id)),
      );
      database.close();
    }, 60_000);

    it('2 processes sending 50 posts each at once to one webhook get exactly 60 allowed, 40 refused (429)', async () => {
      const file = freshFile();
      const { path, store, database } = await seed(file);
      const startAt = String(Date.now() + 1_500);
      const children = Array.from({ length: 2 }, () =>
        spawnChild('limit', { SQLITE_FILE: file, HOOK_PATH: path, START_AT: startAt, COUNT: '50', ...env }),
      );
      await startAll(children);
      expect(await Promise.all(children.map((child) => child.exited))).toEqual([0, 0]);

      const statuses = children.flatMap((child) => answers(child).map((answer) => answer.status));
      expect(statuses).toHaveLength(100);
      expect(statuses.filter((status) => status === 201)).toHaveLength(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40);
      // Both processes got some of the 60: they really raced.
      for (const child of children) expect(answers(child).some((answer) => answer.status === 201)).toBe(true);
      expect(store.listMessages('general')).toHaveLength(60);
      database.close();
    }, 60_000);

    it('kill -9 under load: after reopening the file, every message answered 201 is there, whole', async () => {
      const file = freshFile();
      const { path, database } = await seed(file);
      database.close();
      const children = Array.from({ length: 2 }, () =>
        spawnChild('load', { SQLITE_FILE: file, HOOK_PATH: path, ...env }),
      );
      // Killed in the middle of their loops, each after a few hundred posts.
      await Promise.all(children.map((child) => child.waitFor((lines) => lines.length > 300)));
      for (const child of children) child.kill('SIGKILL');
      expect(await Promise.all(children.map((child) => child.exited))).toEqual([null, null]);

      const reopened = new Database(file);
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
      const store = createSqliteStore({ database: reopened });
      const stored = new Map(store.listMessages('general').map((message) => [message.id, message]));
      for (const child of children) {
        const created = answers(child).filter((answer) => answer.status === 201);
        expect(created.length).toBeGreaterThanOrEqual(300);
        expect(answers(child).every((answer) => answer.status === 201)).toBe(true);
        for (const { id, i } of created) {
          const text = `load ${child.pid} ${i}`;
          expect(stored.get(id), `message ${i} of ${child.pid}`).toMatchObject({
            id,
            body: text,
            blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*${text}*` } }],
            author: { type: 'webhook', name: 'CI' },
          });
        }
        // At most the posts in flight whose answers the kill cut off are stored without their 201 having been seen.
        const own = [...stored.values()].filter((message) => message.body.startsWith(`load ${child.pid} `));
        expect(own.length - created.length).toBeGreaterThanOrEqual(0);
        expect(own.length - created.length).toBeLessThanOrEqual(inFlight);
      }
      reopened.close();
    }, 60_000);
  });
