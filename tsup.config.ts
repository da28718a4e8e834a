import { copyFile } from 'node:fs/promises';
import { defineConfig, type Options } from 'tsup';

// One build of every entry, as ES modules: the CommonJS entries are one-line files that require()
// these (Node 20.19 and 22.12 on), and one set of declarations serves both, so the package carries
// its code and its types once (scripts/write-commonjs-entries.mjs, scripts/name-declarations.mjs).

// Every entry point but the element, built together so that they share one core.
const shared: Options = {
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'store-kit': 'src/store-kit/index.ts',
    openapi: 'src/openapi/index.ts',
    express: 'adapters/frameworks/express/index.ts',
    koa: 'adapters/frameworks/koa/index.ts',
    fastify: 'adapters/frameworks/fastify/index.ts',
    node: 'adapters/frameworks/node/index.ts',
    fetch: 'adapters/frameworks/fetch/index.ts',
    postgres: 'adapters/stores/postgres/index.ts',
    mysql: 'adapters/stores/mysql/index.ts',
    redis: 'adapters/stores/redis/index.ts',
    sqlite: 'adapters/stores/sqlite/index.ts',
    'deno-kv': 'adapters/stores/deno-kv/index.ts',
    render: 'src/render/index.ts',
    otel: 'src/instrumentation/index.ts',
    send: 'src/send/index.ts',
    cloudflare: 'adapters/frameworks/cloudflare/index.ts',
    manage: 'src/manage/index.ts',
    // The command: its hashbang line is kept, and tsup makes the file executable.
    cli: 'bin/channel-webhooks.ts',
  },
  format: ['esm'],
  // One shared core chunk, so every entry point loads the same handler and error classes.
  splitting: true,
  // No source maps: the output keeps the source's names, so a stack trace already names each
  // function; maps (with the TypeScript inside) were more than half the package. Only whitespace
  // is left out (a fifth of the code: 647 kB of it became 527 kB).
  sourcemap: false,
  minifyWhitespace: true,
  clean: true,
  target: 'node20',
  treeshake: true,
};

// The settings element: a browser module an app may serve as it is, so one file that imports
// nothing (no shared chunk), for the browsers custom elements and adoptedStyleSheets run in. It has
// no CommonJS twin: `require.resolve` must find the module a browser can load.
const element: Options = {
  entry: { element: 'src/element/index.ts' },
  format: ['esm'],
  // Its declarations come from the shared build: tsup's declaration step empties dist of every
  // .d.ts first, so a build writing its own at the same time would race it.
  dts: false,
  splitting: false,
  sourcemap: false,
  clean: false,
  platform: 'browser',
  target: 'es2022',
  minifyWhitespace: true,
  treeshake: true,
};

const { cli: _command, ...entries } = shared.entry as Record<string, string>;

export default defineConfig([
  {
    ...shared,
    // Every entry's but the command's, which nothing imports.
    dts: { entry: { ...entries, ...(element.entry as Record<string, string>) } },
    // Everything but the element's code, which its own build writes at the same time.
    clean: ['!element.js'],
    // The rendered messages' stylesheet ships as it is written: plain CSS, for bundlers and servers alike.
    onSuccess: () => copyFile('src/render/render.css', 'dist/render.css'),
  },
  element,
]);
