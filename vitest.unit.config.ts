import { configDefaults, defineConfig } from 'vitest/config';

// `npm run test:unit`: the tests that need no PostgreSQL, Redis, Chromium, other runtime or build,
// without the global set-up that starts those servers. `npm test` (vitest.config.ts) runs them all.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      // PostgreSQL and Redis (started by test/support/global-setup.ts)
      'test/adapters/stores/*.test.ts',
      'test/adapters/stores/postgres/**',
      'test/adapters/stores/redis/{conformance,clients,cluster,outage}.test.ts',
      // Chromium, Bun, Deno and workerd
      'test/browser/**',
      'test/runtimes/**',
      'test/adapters/stores/cloudflare/{conformance,posts,restart,feed-and-history}.test.ts',
      'test/adapters/frameworks/url-forms.test.ts',
      // The built or packed package
      'test/package/**',
      'test/docs/doc-blocks.test.ts',
      'test/examples/**',
      'test/cli/**',
      'test/bench/**',
      'test/render/render-entry.test.ts',
      'test/instrumentation/otel.test.ts',
      'test/adapters/stores/sqlite/{store,processes,multi-process,demo}.test.ts',
      'test/manage/stores.test.ts',
      // The soak: SQLite, PostgreSQL and Redis of its own, and the built package
      'test/soak/soak.test.ts',
      // Deno, on the packed package
      'test/adapters/stores/deno-kv/**',
    ],
    testTimeout: 30_000,
    // Worker threads start faster than processes: a fifth less CPU for this run.
    pool: 'threads',
    env: { STORE: 'memory' },
  },
});
