import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PARTS, type PartResults, runPart } from '../../bench/parts.mjs';
import type { ScaleResults } from '../../bench/scale/run.mjs';
import { backends } from '../support/backends.js';
import { SMOKE_ENV, SMOKE_TIMEOUT_MS, root, runSmoke } from './smoke.js';

const run = promisify(execFile);
const { databaseUrl, redisUrl, title } = backends();

// The parts of `npm run bench` and `npm run bench:scale` on PostgreSQL and Redis (and MariaDB), each for a moment
// on a tiny world (BENCH_SMOKE=1), on the throwaway servers each starts as the tests' set-up does:
// every row must have been measured, with every post answered and every seeded row stored. Each
// part compares this build with itself where it compares two builds (BENCH_BASELINE).

/** What each part on PostgreSQL (and Redis) must have measured. */
const checks: { [Name in keyof PartResults]?: (result: PartResults[Name]) => void } = {
  backends(result) {
    expect(result.skipped).toBeUndefined();
    const rows = { endToEnd: result.endToEnd, rawInsert: result.rawInsert, rawLimiter: result.rawLimiter };
    for (const [row, rate] of Object.entries({ ...rows, rawPost: result.rawPost }))
      expect(rate?.median, `${row} per second`).toBeGreaterThan(0);
    expect([result.failures, result.rawFailures]).toEqual([0, { rawInsert: 0, rawLimiter: 0, rawPost: 0 }]);
    expect(result.accepted).toBeGreaterThan(0);
    expect(result.roundTripsPerAcceptedPost?.postgres).toBeGreaterThan(0);
    expect(result.roundTripsPerAcceptedPost?.redis).toBeGreaterThan(0);
  },
  history(result) {
    expect(result.inProcess.map((store) => store.store)).toEqual(['memory', 'SQLite', 'PostgreSQL']);
    for (const store of result.inProcess) {
      if ('skipped' in store) throw new Error(`${store.store} was skipped: ${store.skipped}`);
      for (const rate of [store.stored.rates.on, store.stored.rates.off, store.stored.rates.before])
        expect(rate?.median).toBeGreaterThan(0);
      expect(store.flood.rates.on.median).toBeGreaterThan(0);
      expect(store.floodHistory.afterOne).toBeGreaterThan(0);
      expect(store.floodHistory.afterTwo).toBeLessThanOrEqual(store.floodHistory.bound);
    }
    expect(result.http.map((store) => store.store)).toEqual(['memory', 'SQLite']);
    for (const store of result.http) expect(store.rates.on.median).toBeGreaterThan(0);
  },
  feed(result) {
    if (result.skipped !== undefined || 'skipped' in result.cost) throw new Error(`skipped: ${JSON.stringify(result)}`);
    for (const store of [result.cost.memory, result.cost.sqlite, result.cost.postgresUnwatched, result.cost.postgres]) {
      expect(store?.perSecond.before.median).toBeGreaterThan(0);
      expect(store?.perSecond.after.median).toBeGreaterThan(0);
    }
    const { latency } = result;
    expect(latency.failed.every((failed) => failed === 0)).toBe(true);
    // Every message reached both clients, one on each instance.
    for (const delivered of latency.delivered)
      expect(delivered).toEqual([latency.postsPerRound, latency.postsPerRound]);
    expect(latency.p50.median).toBeGreaterThan(0);
  },
  groupcommit(result) {
    if ('skipped' in result && result.skipped !== undefined) throw new Error(`skipped: ${result.skipped}`);
    if (!('alone' in result)) throw new Error('no runs were measured');
    for (const figures of [result.alone, result.unwatched, result.watched]) {
      expect(figures.perSecond.before.median).toBeGreaterThan(0);
      expect(figures.perSecond.after.median).toBeGreaterThan(0);
      expect(figures.statements.after.median).toBeGreaterThan(0);
    }
  },
  mysql(result) {
    if (!('alone' in result)) throw new Error(`skipped: ${result.skipped}`);
    expect(result.sides).toEqual(['mysql', 'mysqlBaseline', 'postgres']);
    for (const figures of [result.alone, result.busy]) {
      for (const side of result.sides) {
        expect(figures.perSecond.sides[side]?.median, side).toBeGreaterThan(0);
        expect(figures.statements.sides[side]?.median, side).toBeGreaterThan(0);
        // The server's CPU was found in /proc (it may round to 0 in a moment's run).
        expect(figures.serverUs.sides[side]?.median, side).not.toBeNaN();
      }
      expect(figures.perSecond.ofBaseline?.median).toBeGreaterThan(0);
      expect(figures.perSecond.ofPostgres?.median).toBeGreaterThan(0);
    }
  },
};

const parts = (Object.keys(PARTS) as (keyof PartResults)[]).filter((name) => PARTS[name].backends);

describe.skipIf(databaseUrl === null || redisUrl === null)(
  title('the parts of npm run bench on PostgreSQL and Redis, in a smoke run', 'both'),
  () => {
    it('each has its check here', () => {
      expect(Object.keys(checks).sort()).toEqual([...parts].sort());
    });

    for (const name of parts)
      it(
        name,
        async () => {
          const check = checks[name] as (result: PartResults[typeof name]) => void;
          check(await runPart(name, SMOKE_ENV));
        },
        SMOKE_TIMEOUT_MS,
      );
  },
);

describe.skipIf(databaseUrl === null || redisUrl === null)(
  title('npm run bench:scale on PostgreSQL and Redis, in a smoke run', 'both'),
  () => {
    it(
      'measures the PostgreSQL worlds, the Redis limiter and instances behind one port',
      async () => {
        const { result, stdout } = await runSmoke<ScaleResults>('scale/run.mjs', [
          '--parts=postgres-webhooks,postgres-messages,redis,instances',
        ]);
        expect(result.growth.map((row) => `${row.store} ${row.dimension}`)).toEqual([
          'postgres webhooks',
          'postgres messages',
        ]);
        for (const row of result.growth) {
          expect([row.dimension, row.notCreated]).toEqual([row.dimension, 0]);
          expect(row.inprocPerSecond).toBeGreaterThan(0);
          expect(row.httpPerSecond).toBeGreaterThan(0);
          expect(row.postgresCpuUsPerPost).toBeGreaterThan(0);
        }
        // The seed dropped the message table's indexes, counted its rows and built the indexes again.
        const messages = result.postgresWorlds.find((world) => world.dimension === 'messages');
        expect(messages?.heapBytesPerMessage).toBeGreaterThan(0);
        expect(messages?.indexBytesPerMessage).toBeGreaterThan(0);
        expect(new Set(result.redis.map((row) => row.limiter))).toEqual(new Set(['Redis', 'Redis Cluster']));
        for (const row of [...result.redis, ...result.redisBatchSize])
          expect(row.decisionsPerSecond).toBeGreaterThan(0);
        expect(result.redisBatching.length).toBeGreaterThan(0);
        expect(result.instances.map((row) => row.instances)).toEqual([2]);
        for (const row of result.instances) {
          expect([row.errors, row.checks.exactlyOnce]).toEqual([0, true]);
          expect(row.storedPerSecond).toBeGreaterThan(0);
        }
        expect(stdout).toContain('Instances behind one port');
      },
      SMOKE_TIMEOUT_MS,
    );

    it(
      'compares the full and the partial idempotency index',
      async () => {
        const { stdout } = await run(process.execPath, [join(root, 'bench', 'scale', 'key-index.mjs'), '1000'], {
          env: { ...process.env, ...SMOKE_ENV },
          timeout: SMOKE_TIMEOUT_MS,
        });
        const [sizes, ...rounds] = stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { index?: string; insertsPerSecond?: number; sizes?: unknown[] });
        expect(sizes?.sizes).toHaveLength(4);
        expect(rounds.map((round) => round.index)).toEqual(['full', 'partial']);
        for (const round of rounds) expect(round.insertsPerSecond).toBeGreaterThan(0);
      },
      SMOKE_TIMEOUT_MS,
    );
  },
);
