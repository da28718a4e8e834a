import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    openapi: 'src/openapi/index.ts',
    express: 'adapters/express/index.ts',
    koa: 'adapters/koa/index.ts',
    fastify: 'adapters/fastify/index.ts',
    node: 'adapters/node/index.ts',
    fetch: 'adapters/fetch/index.ts',
    postgres: 'adapters/postgres/index.ts',
    redis: 'adapters/redis/index.ts',
    sqlite: 'adapters/sqlite/index.ts',
    render: 'src/render/index.ts',
    otel: 'src/instrumentation/index.ts',
    send: 'src/send/index.ts',
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
