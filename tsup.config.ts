import { defineConfig } from 'tsup';

// Every entry point but the element, built together so that they share one core.
const ENTRIES = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  openapi: 'src/openapi/index.ts',
  express: 'adapters/frameworks/express/index.ts',
  koa: 'adapters/frameworks/koa/index.ts',
  fastify: 'adapters/frameworks/fastify/index.ts',
  node: 'adapters/frameworks/node/index.ts',
  fetch: 'adapters/frameworks/fetch/index.ts',
  postgres: 'adapters/stores/postgres/index.ts',
  redis: 'adapters/stores/redis/index.ts',
  sqlite: 'adapters/stores/sqlite/index.ts',
  render: 'src/render/index.ts',
  otel: 'src/instrumentation/index.ts',
  send: 'src/send/index.ts',
  // The command: its hashbang line is kept, and tsup makes the file executable.
  cli: 'bin/channel-webhooks.ts',
};

export default defineConfig([
  {
    entry: ENTRIES,
    format: ['esm', 'cjs'],
    // The element's declarations too: tsup's declaration step empties dist of every .d.ts first, so
    // a second build writing its own would race it.
    dts: { entry: { ...ENTRIES, element: 'src/element/index.ts' } },
    // One shared core chunk, so every entry point loads the same handler and error classes.
    splitting: true,
    // No source maps: the output is not minified and keeps the source's names, so a stack trace
    // already reads; maps (with the TypeScript inside) were more than half the package.
    sourcemap: false,
    // Everything but the element's code, which the build below writes at the same time.
    clean: ['!element.js', '!element.cjs'],
    target: 'node20',
    treeshake: true,
  },
  {
    // The settings element: a browser module an app may serve as it is, so one file that imports
    // nothing (no shared chunk), for the browsers custom elements and adoptedStyleSheets run in.
    entry: { element: 'src/element/index.ts' },
    format: ['esm', 'cjs'],
    // Its declarations come from the build above.
    dts: false,
    splitting: false,
    sourcemap: false,
    clean: false,
    platform: 'browser',
    target: 'es2022',
    treeshake: true,
  },
]);
