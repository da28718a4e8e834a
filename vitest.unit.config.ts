import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tiers a test file names after its name, before `.test.ts`: what it needs beyond Node and the
 * sources. `npm run test:unit` runs the files that name none; `npm test` (vitest.config.ts) runs all.
 */
export const TIERS = {
  pg: 'PostgreSQL (and Redis, where it says), started by test/support/global-setup.ts',
  redis: 'Redis or the Redis Cluster, started by test/support/global-setup.ts',
  mysql: 'MariaDB, started by test/support/global-setup.ts',
  browser: 'Chromium',
  runtime: 'Bun, Deno, workerd or another Node line (npm run runtimes:install)',
  built: 'the built package in dist/, or the packed one',
  proc: 'servers of its own (a reverse proxy, PgBouncer) or child processes',
} as const;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, `test/**/*.{${Object.keys(TIERS).join(',')}}.test.ts`],
    testTimeout: 30_000,
    // Worker threads start faster than processes: a fifth less CPU for this run.
    pool: 'threads',
    // Vitest's default is one worker fewer than the cores, which on 2 cores is one. Many files wait
    // on sockets and timers, so one worker more than the cores keeps them busy: on 2 cores, 49-51 s
    // against 59-61 s with two workers.
    maxWorkers: availableParallelism() + 1,
    // One module graph per worker instead of one per file: most of the loop's time was each file
    // loading the frameworks and the sources again. A file that leaves a global changed is caught
    // by the set-up file at the start of the next.
    isolate: false,
    setupFiles: ['test/support/real-timers.ts'],
    env: { STORE: 'memory' },
  },
});
