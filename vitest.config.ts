import { configDefaults, defineConfig } from 'vitest/config';
import unit, { TIERS } from './vitest.unit.config.js';

const TIER_FILES = `test/**/*.{${Object.keys(TIERS).join(',')}}.test.ts`;

export default defineConfig({
  test: {
    projects: [
      // The plain files as the unit loop runs them (one module graph per worker, both cores),
      // without the servers of the global set-up, which they never use. First: projects with
      // different maxWorkers take turns.
      { test: { ...unit.test, name: 'plain', sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'tiers',
          sequence: { groupOrder: 1 },
          include: [TIER_FILES],
          exclude: configDefaults.exclude,
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // Two files at a time: most tier files wait on servers, browsers and child processes, so a
          // second worker takes the tiers from 783 to 509 s on 2 cores with every file passing. Each
          // file isolates itself (its own table and key prefixes, its own servers when it stops one).
          maxWorkers: 2,
          // One PostgreSQL and one Redis for the whole run (see test/support/global-setup.ts).
          globalSetup: ['test/support/global-setup.ts'],
          // The demo (examples/express) keeps its data in .data/demo.sqlite unless STORE=memory: the
          // tests that start it get a fresh channel each, and never touch the developer's file.
          env: { STORE: 'memory' },
        },
      },
    ],
  },
});
