// `npm run soak` in miniature, so that the script cannot rot: a short run on each durable target
// with one fault, on real SQLite, PostgreSQL and Redis (the soak starts its own, as the benchmarks
// do), and a run with a message planted twice in what the checker reads, which must fail it.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCi } from '../support/global-setup.js';
import { serverBinaries } from '../support/servers.js';

const run = promisify(execFile);
const binaries = serverBinaries();
const postgresMissing = binaries.postgres === null || binaries.redis === null;
if (postgresMissing && isCi())
  throw new Error(`CI needs PostgreSQL and Redis for the soak: ${binaries.missing.join('; ')}`);

interface Summary {
  answers: number;
  stored: number;
  statuses: Record<string, number>;
  windows: Array<{ kind: string; answeringAfter: number }>;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
}

let dir: string;

beforeAll(async () => {
  // Inside the repository, so that the bundles' imports of pg, better-sqlite3 and the rest resolve.
  await mkdir('.tmp', { recursive: true });
  dir = await mkdtemp(join(process.cwd(), '.tmp', 'soak-test-'));
  await run('node_modules/.bin/esbuild', [
    ...['main', 'instance', 'load', 'memory-probe'].map((name) => `scripts/soak/${name}.ts`),
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--packages=external',
    '--log-level=warning',
    `--outdir=${join(dir, 'bin')}`,
  ]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the soak with `env`; resolves with its exit code, output and summary whatever the code. */
async function soak(
  name: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string; summary: Summary }> {
  const out = join(dir, name);
  const { code, output } = await run(process.execPath, [join(dir, 'bin', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      SOAK_OUT: out,
      SOAK_RATE: '60',
      SOAK_WEBHOOKS: '100',
      SOAK_SAMPLE_SECONDS: '1',
      SOAK_GRACE_SECONDS: '5',
      ...env,
    },
    maxBuffer: 16 * 2 ** 20,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Summary;
  return { code, output, summary };
}

const failed = (summary: Summary) =>
  summary.checks.filter((check) => !check.ok).map((check) => `${check.name}: ${check.detail}`);

describe('the soak', () => {
  it('passes on SQLite, two processes on one file, with one of them killed and restarted', {
    timeout: 120_000,
  }, async () => {
    const { code, output, summary } = await soak('sqlite', {
      SOAK_TARGET: 'sqlite',
      SOAK_SECONDS: '20',
      SOAK_FAULTS: 'kill@7',
    });
    expect(failed(summary), output).toEqual([]);
    expect(code).toBe(0);
    expect(summary.windows.map((w) => w.kind)).toEqual(['kill']);
    expect(summary.answers).toBeGreaterThan(600);
    expect(summary.statuses['valid 201']).toBeGreaterThan(200);
    expect(summary.statuses['duplicate 200']).toBeGreaterThan(0);
    expect(summary.statuses['over-limit 429']).toBeGreaterThan(0);
    expect(summary.stored).toBeGreaterThan(0);
    expect(output).toContain('soak: PASSED');
  });

  it.skipIf(postgresMissing)(
    'passes on PostgreSQL and Redis, two instances, with PostgreSQL restarted',
    { timeout: 150_000 },
    async () => {
      const { code, output, summary } = await soak('postgres', {
        SOAK_TARGET: 'postgres',
        SOAK_SECONDS: '20',
        SOAK_FAULTS: 'postgres@6',
      });
      expect(failed(summary), output).toEqual([]);
      expect(code).toBe(0);
      expect(summary.windows.map((w) => w.kind)).toEqual(['postgres']);
      expect(summary.answers).toBeGreaterThan(600);
      expect(summary.statuses['valid 201']).toBeGreaterThan(200);
      expect(summary.stored).toBeGreaterThan(0);
    },
  );

  it('fails, naming it, when the store holds a message twice', { timeout: 120_000 }, async () => {
    const { code, output, summary } = await soak('planted', {
      SOAK_TARGET: 'sqlite',
      SOAK_SECONDS: '6',
      SOAK_FAULTS: '',
      SOAK_PLANT_DOUBLE_STORE: '1',
    });
    expect(code).toBe(1);
    expect(failed(summary)).toEqual([
      expect.stringMatching(
        /^every 201 stored exactly once, nothing stored unanswered: request \d+ answered 201 with \S+, stored 2 times; request \d+ stored 2 times/,
      ),
    ]);
    expect(output).toContain('soak: FAILED');
  });
});
