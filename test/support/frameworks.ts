import { createServer } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import express5 from 'express';
import Fastify5 from 'fastify';
import Fastify4 from 'fastify4';
import express4 from 'express4';
import { Hono } from 'hono';
import Koa3 from 'koa';
import Koa2 from 'koa2';
import { createExpressMiddleware } from '../../adapters/frameworks/express/index.js';
import { createFastifyPlugin } from '../../adapters/frameworks/fastify/index.js';
import { createFetchHandler } from '../../adapters/frameworks/fetch/index.js';
import { createKoaMiddleware } from '../../adapters/frameworks/koa/index.js';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import type { NodeAdapterOptions } from '../../adapters/frameworks/node/node-request-parts.js';
import type { WebhookHandler } from '../../src/handler/handler-types.js';
import { listen, listenFastify, type Listening } from './http.js';

/**
 * A framework app with the adapter mounted under the `/api` prefix, beside two routes of its own:
 * `GET /api/health` answers `{"ok":true}` and anything else unknown answers `{"fallthrough":true}`
 * with 404, so a test can tell the app's answers from the adapter's.
 */
export interface FrameworkTarget {
  name: string;
  start(handle: WebhookHandler): Promise<Listening>;
}

/** A target on a Node adapter, which also takes the adapter's options. */
export interface NodeFrameworkTarget extends FrameworkTarget {
  start(handle: WebhookHandler, options?: NodeAdapterOptions): Promise<Listening>;
}

const express = (name: string, create: typeof express5): NodeFrameworkTarget => ({
  name,
  start: (handle, options) => {
    const app = create();
    app.get('/api/health', (_req, res) => {
      res.json({ ok: true });
    });
    app.use('/api', createExpressMiddleware(handle, options));
    app.use((_req, res) => {
      res.status(404).json({ fallthrough: true });
    });
    return listen(createServer(app));
  },
});

const koa = (name: string, Create: typeof Koa3): NodeFrameworkTarget => ({
  name,
  start: (handle, options) => {
    const app = new Create();
    // A client that vanishes mid-body ends its socket with a parse error, which Koa logs by default.
    app.on('error', (error: { code?: string }) => {
      if (error.code !== 'HPE_INVALID_EOF_STATE' && error.code !== 'ECONNRESET') console.error(error);
    });
    app.use(createKoaMiddleware(handle, options));
    app.use((ctx) => {
      if (ctx.method === 'GET' && ctx.path === '/api/health') {
        ctx.body = { ok: true };
        return;
      }
      ctx.status = 404;
      ctx.body = { fallthrough: true };
    });
    return listen(createServer(app.callback()));
  },
});

const fastify = (name: string, create: typeof Fastify5): NodeFrameworkTarget => ({
  name,
  start: async (handle, options) => {
    const app = create();
    app.get('/api/health', async () => ({ ok: true }));
    await app.register(createFastifyPlugin(handle, options), { prefix: '/api' });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ fallthrough: true }));
    return listenFastify(app);
  },
});

const hono: FrameworkTarget = {
  name: 'fetch (Hono)',
  start: (handle) => {
    const fetchHandler = createFetchHandler(handle);
    const app = new Hono();
    app.get('/api/health', (c) => c.json({ ok: true }));
    app.all('/api/hooks/channels/:id/:secret', (c) => fetchHandler(c.req.raw));
    app.notFound((c) => c.json({ fallthrough: true }, 404));
    return listen(createAdaptorServer({ fetch: app.fetch }) as ReturnType<typeof createServer>);
  },
};

// A plain node:http server with no framework: the listener answers webhook paths under any prefix
// and hands everything else to the app's own fallback.
const nodeHttp: NodeFrameworkTarget = {
  name: 'node:http',
  start: (handle, options) => {
    const listener = createNodeListener(handle, {
      ...options,
      fallback: (req, res) => {
        const health = req.method === 'GET' && req.url === '/api/health';
        res.writeHead(health ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(health ? { ok: true } : { fallthrough: true }));
      },
    });
    return listen(createServer(listener));
  },
};

/** Every framework and major version the Node adapters (node:http, Express, Koa and Fastify) support. */
export const nodeFrameworkTargets: NodeFrameworkTarget[] = [
  nodeHttp,
  express('Express 5', express5),
  express('Express 4', express4),
  koa('Koa 3', Koa3),
  koa('Koa 2', Koa2),
  fastify('Fastify 5', Fastify5),
  fastify('Fastify 4', Fastify4),
];

/** Every framework and major version the adapters support. */
export const frameworkTargets: FrameworkTarget[] = [...nodeFrameworkTargets, hono];
