import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from '../runtimes/runtime-install.js';
import { SMOKE_ENV, SMOKE_TIMEOUT_MS, root } from './smoke.js';

const run = promisify(execFile);

// The benchmark's scripts that run on other runtimes (the runtime install: npm run
// runtimes:install), each for a moment: every post must have been answered 201 and measured.

describe.skipIf(!existsSync(RUNTIME_BINARIES.miniflare))(
  runtimeSuiteTitle('bench/cloudflare.mjs in workerd, in a smoke run', RUNTIME_BINARIES.miniflare),
  () => {
    it(
      'posts through the router and through the worker, and measures both',
      async () => {
        const { stdout } = await run(process.execPath, [join(root, 'bench', 'cloudflare.mjs')], {
          env: { ...process.env, ...SMOKE_ENV },
          timeout: SMOKE_TIMEOUT_MS,
        });
        const posts = /^(\d+) posts a row/.exec(stdout)?.[1];
        expect(Number(posts)).toBeGreaterThan(0);
        const rows = stdout
          .split('\n')
          .filter((line) => /^\| (router|handler in the worker)/.test(line))
          .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, '')));
        expect(rows.map(([way]) => way)).toEqual([
          'router: handler in the object',
          'handler in the worker, store and limiter over RPC',
        ]);
        for (const [way, answers, calls, cpuUs, postsPerSecond] of rows) {
          expect([way, answers]).toEqual([way, `201×${posts}`]);
          expect(Number(calls)).toBeGreaterThan(0);
          expect(Number(cpuUs)).toBeGreaterThan(0);
          expect(Number(postsPerSecond)).toBeGreaterThan(0);
        }
      },
      SMOKE_TIMEOUT_MS,
    );
  },
);

describe.skipIf(!existsSync(RUNTIME_BINARIES.deno))(
  runtimeSuiteTitle('bench/deno-kv.mjs in Deno, in a smoke run', RUNTIME_BINARIES.deno),
  () => {
    it(
      'posts on memory and on Deno KV, one and 32 in flight, and counts the bytes a post commits',
      async () => {
        const { stdout } = await run(
          RUNTIME_BINARIES.deno,
          ['run', '--quiet', '--unstable-kv', '-A', join(root, 'bench', 'deno-kv.mjs')],
          { env: { ...process.env, ...SMOKE_ENV }, timeout: SMOKE_TIMEOUT_MS },
        );
        const figures = JSON.parse(stdout) as {
          results: { inFlight: number; memory: number; denoKv: number }[];
          bytesPerAcceptedPost: number;
        };
        expect(figures.results.map((row) => row.inFlight)).toEqual([1, 32]);
        for (const row of figures.results) {
          expect(row.memory).toBeGreaterThan(0);
          expect(row.denoKv).toBeGreaterThan(0);
        }
        expect(figures.bytesPerAcceptedPost).toBeGreaterThan(0);
      },
      SMOKE_TIMEOUT_MS,
    );
  },
);
