import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One PostgreSQL and one Redis for the whole run (see test/support/global-setup.ts).
    globalSetup: ['test/support/global-setup.ts'],
  },
});
