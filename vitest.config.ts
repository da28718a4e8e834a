import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One PostgreSQL and one Redis for the whole run (see test/support/global-setup.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // The demo (examples/express) keeps its data in .data/demo.sqlite unless STORE=memory: the tests
    // that start it get a fresh channel each, and never touch the developer's file.
    env: { STORE: 'memory' },
  },
});
