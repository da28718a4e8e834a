import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BASELINE_PAIRS, PAIRS } from '../../bench/http.mjs';
import { PARTS, type PartResults, runPart } from '../../bench/parts.mjs';
import type { BenchResults } from '../../bench/report.mjs';
import type { ScaleResults } from '../../bench/scale/run.mjs';
import { SMOKE_ENV, SMOKE_TIMEOUT_MS, root, runSmoke } from './smoke.js';

const run = promisify(execFile);

// `npm run bench` takes minutes and is not part of the tests, so a change to the code it times (a
// renamed export, a table the store no longer has) would break it unseen. Each part runs here for a
// moment on a tiny world (BENCH_SMOKE=1), as the benchmark starts it, and must have measured
// something in every row: posts answered, none refused. The parts on PostgreSQL and Redis are in
// parts.pg.test.ts.

/** What each part that needs no server must have measured. */
const checks: { [Name in keyof PartResults]?: (result: PartResults[Name]) => void } = {
  core(result) {
    for (const [payload, posts] of Object.entries(result.posts)) {
      expect([payload, posts.failures, posts.floor?.failures ?? 0]).toEqual([payload, 0, 0]);
      expect(posts.postsPerSecond.median).toBeGreaterThan(0);
      expect(posts.cpuUsPerPost).toBeGreaterThan(0);
    }
    expect(result.posts.small.floor?.postsPerSecond.median).toBeGreaterThan(0);
    for (const step of Object.values(result.validation)) expect(step.validateUs).toBeGreaterThan(0);
    expect(Object.keys(result.secrets)).toEqual(['coreHashAndCompareUs', 'nodeCryptoHashAndCompareUs']);
    expect(Object.keys(result.limiterUsPerHit)).toEqual(['100', '1000', '10000']);
    for (const microseconds of [...Object.values(result.secrets), ...Object.values(result.limiterUsPerHit)])
      expect(microseconds).toBeGreaterThan(0);
  },
  memory(result) {
    expect(result.limiterBytesPerWebhook.oneRequest).toBeGreaterThan(0);
    expect(result.limiterBytesPerWebhook.fullWindow).toBeGreaterThan(0);
    expect(result.store.bytesPerMessage).toBeGreaterThan(0);
    const { liveWebhooks, keysLeft } = result.idleAfterWindow.afterTwoWindows;
    expect(keysLeft).toBeLessThanOrEqual(liveWebhooks + 1);
  },
  sqlite(result) {
    for (const run of [result.inProcess, result.inProcessInFlight, result.http])
      for (const rate of [run.memory, run.sqlite, run.before]) expect(rate.median).toBeGreaterThan(0);
    expect(result.http.twoProcessesOneFile.median).toBeGreaterThan(0);
    expect(result.before).toBe('the build of BENCH_BASELINE');
    expect(result.table).toContain('| node:http, two processes on one file (group commit) |');
  },
  instrumentation(result) {
    expect(result.variants.map((variant) => variant.name)).toEqual(['bare', 'noop', 'sdk']);
    for (const variant of result.variants) {
      expect(variant.wall).toBeGreaterThan(0);
      expect(variant.cpu).toBeGreaterThan(0);
    }
  },
};

const parts = (Object.keys(PARTS) as (keyof PartResults)[]).filter((name) => !PARTS[name].backends);

describe('the parts of npm run bench that need no server, in a smoke run', () => {
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
});

// The pairs a smoke run of the HTTP part measures: between them, every server the part starts
// (each stack's library adapter, hand-written route and contract floor), both payloads, and one
// adapter loaded from the baseline build.
const SMOKE_PAIRS = [
  'node-vs-floor',
  'node-large',
  'express',
  'express-floor',
  'koa',
  'koa-floor',
  'fastify',
  'fastify-vs-floor',
  'fetch',
  'hono-floor',
  'node-core-vs-baseline',
];

describe('npm run bench in a smoke run', () => {
  it('measures, between its smoke pairs, every server of the HTTP part and both payloads', () => {
    const chosen = [...PAIRS, ...BASELINE_PAIRS].filter((pair) => SMOKE_PAIRS.includes(pair.id));
    expect(chosen.map((pair) => pair.id).sort()).toEqual([...SMOKE_PAIRS].sort());
    const variants = (pairs: typeof chosen) => new Set(pairs.flatMap((pair) => [pair.a, pair.b]));
    expect(variants(chosen)).toEqual(variants([...PAIRS, ...BASELINE_PAIRS.slice(0, 1)]));
    expect(new Set(chosen.map((pair) => pair.payload))).toEqual(new Set(['small', 'large']));
  });

  it(
    'runs the HTTP part and writes its tables and chart',
    async () => {
      const { stdout } = await run(process.execPath, [join(root, 'bench', 'run.mjs')], {
        env: { ...process.env, ...SMOKE_ENV, BENCH_PARTS: 'http', BENCH_PAIRS: SMOKE_PAIRS.join(',') },
        timeout: SMOKE_TIMEOUT_MS,
      });
      const out = join(root, 'bench', '.tmp', 'smoke');
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as BenchResults;
      expect(results.http?.map((pair) => pair.id)).toEqual(SMOKE_PAIRS);
      for (const pair of results.http ?? []) {
        for (const side of [pair.a, pair.b]) {
          expect([pair.id, side.variant, side.failures]).toEqual([pair.id, side.variant, 0]);
          expect(side.rps.median).toBeGreaterThan(0);
          expect(side.cpuUsPerRequest.median).toBeGreaterThan(0);
        }
        expect(pair.ratio.median).toBeGreaterThan(0);
      }
      expect(results.targets?.length).toBeGreaterThan(0);
      expect(stdout).toContain('| Fetch adapter on Hono |');
      expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| core on node:http, 60 KiB |');
      expect(readFileSync(join(out, 'ratios.svg'), 'utf8')).toContain('node-core: this build vs the baseline');
    },
    SMOKE_TIMEOUT_MS,
  );
});

describe('the profiling scripts, in a smoke run', () => {
  it(
    'profile the in-process loop, and rank the functions of its profile',
    async () => {
      const dir = join(root, 'bench', '.tmp', 'smoke', 'profile');
      const { stdout } = await run(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          '--cpu-prof-name=core.cpuprofile',
          join(root, 'bench', 'profile-core.mjs'),
        ],
        { env: { ...process.env, ...SMOKE_ENV }, timeout: SMOKE_TIMEOUT_MS },
      );
      expect(stdout).toMatch(/^small: [1-9]\d* posts\/s \([1-9]\d* per CPU-second\), 0 failures\n$/);
      const profile = join(dir, 'core.cpuprofile');
      expect(existsSync(profile)).toBe(true);
      const top = await run(process.execPath, [join(root, 'bench', 'top-functions.mjs'), profile, '5']);
      expect(top.stdout.trim().split('\n')).toHaveLength(6);
      expect(top.stdout).toMatch(/^total [1-9]\d* ms sampled\n/);
    },
    SMOKE_TIMEOUT_MS,
  );
});

describe('npm run bench:scale without servers, in a smoke run', () => {
  it(
    'measures the memory and SQLite worlds',
    async () => {
      const { result, stdout } = await runSmoke<ScaleResults>('scale/run.mjs', ['--parts=memory,sqlite']);
      expect(result.growth.map((row) => `${row.store} ${row.dimension}`)).toEqual([
        'memory webhooks',
        'sqlite webhooks',
        'sqlite messages',
      ]);
      for (const row of result.growth) {
        expect([row.store, row.dimension, row.notCreated]).toEqual([row.store, row.dimension, 0]);
        expect(row.inprocPerSecond).toBeGreaterThan(0);
        expect(row.httpPerSecond).toBeGreaterThan(0);
      }
      // Measured, not judged: a smoke world of 100 webhooks is within the heap's own noise (it read -996 once).
      expect(result.growth[0]?.heapPerWebhook).toSatisfy(Number.isFinite);
      expect(stdout).toContain('Growth of the cost of a post');
    },
    SMOKE_TIMEOUT_MS,
  );

  it(
    'measures the units of the growth model: reads of memory and pages of SQLite',
    async () => {
      const { stdout } = await run(process.execPath, [join(root, 'bench', 'scale', 'unit-costs.mjs')], {
        env: { ...process.env, ...SMOKE_ENV },
        timeout: SMOKE_TIMEOUT_MS,
      });
      const figures = JSON.parse(stdout) as {
        memory: Record<'typedArray' | 'objects' | 'mapLookup', { small: number; large: number }>;
        caches: Record<string, number>;
        sqlite: Record<'cachedReadUs' | 'osCacheReadUs' | 'dirtiedPageUs' | 'checkpointCopyUs', number>;
      };
      // Measured, not judged: a smoke run's working sets are small, and its figures mean nothing.
      const memory = Object.values(figures.memory).flatMap(({ small, large }) => [small, large]);
      const all = [...memory, ...Object.values(figures.caches), ...Object.values(figures.sqlite)];
      expect(all.every(Number.isFinite)).toBe(true);
      expect(Object.keys(figures.caches)).toEqual(['1 MB', '2 MB']);
      expect(Object.keys(figures.sqlite)).toEqual([
        'cachedReadUs',
        'osCacheReadUs',
        'dirtiedPageUs',
        'checkpointCopyUs',
      ]);
    },
    SMOKE_TIMEOUT_MS,
  );

  it(
    'measures the working set of the memory store',
    async () => {
      const { stdout } = await run(
        process.execPath,
        [join(root, 'bench', 'scale', 'working-set.mjs'), '1000', '100', '--warm'],
        { env: { ...process.env, ...SMOKE_ENV }, timeout: SMOKE_TIMEOUT_MS },
      );
      const figures = JSON.parse(stdout) as { postsPerSecond: number; cpuUsPerPost: number };
      expect(figures.postsPerSecond).toBeGreaterThan(0);
      expect(figures.cpuUsPerPost).toBeGreaterThan(0);
    },
    SMOKE_TIMEOUT_MS,
  );
});
