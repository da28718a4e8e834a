import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
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
    'deno-kv': 'adapters/stores/deno-kv/index.ts',
    render: 'src/render/index.ts',
    otel: 'src/instrumentation/index.ts',
    send: 'src/send/index.ts',
    cloudflare: 'adapters/stores/cloudflare/index.ts',
    manage: 'src/manage/index.ts',
    // The command: its hashbang line is kept, and tsup makes the file executable.
    cli: 'bin/channel-webhooks.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // One shared core chunk, so every entry point loads the same handler and error classes.
  splitting: true,
  // No source maps: the output is not minified and keeps the source's names, so a stack trace
  // already reads; maps (with the TypeScript inside) were more than half the package.
  sourcemap: false,
  clean: true,
  target: 'node20',
  treeshake: true,
});
