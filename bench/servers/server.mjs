// One server under test, in its own process: `node server.mjs <variant> <webhooks>`. It listens on a
// free loopback port and tells the parent (over IPC) its port and the webhook paths to post to;
// it exits when the parent disconnects.

/**
 * @import { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http'
 * @import { FloorAnswer } from './floor.mjs'
 */
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { BASELINE, importEntry } from '../build.mjs';
import { portOf, tellParent } from '../child.mjs';
import { MAX_BYTES, TOO_LARGE, acceptPost, webhookIdOf } from './baseline.mjs';
import { createFloor } from './floor.mjs';
import { readCapped } from './read-capped.mjs';

const [variant, webhookCount = '5000'] = process.argv.slice(2);
if (variant === undefined) throw new Error('node server.mjs <variant> <webhooks>');
const count = Number(webhookCount);

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {unknown} body
 */
const json = (res, status, headers, body) => {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': headers['content-type'] ?? 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
};

/**
 * The floor's answer, its headers object being its own: one writeHead, one end.
 * @param {ServerResponse} res
 * @param {FloorAnswer} answer
 */
const writeFloor = (res, { status, headers, body }) => {
  const payload = JSON.stringify(body);
  /** @type {OutgoingHttpHeaders} */ (headers)['content-length'] = Buffer.byteLength(payload);
  res.writeHead(status, headers);
  res.end(payload);
};

/**
 * Answers one request with the floor through `write`: once the body was read, or at once when the
 * floor refused the post before reading it (then the body is let go, so the connection is reused).
 * A server's requests always have a method and a URL.
 * @param {ReturnType<typeof createFloor>} floor
 * @param {IncomingMessage} req
 * @param {(answer: FloorAnswer) => void} write
 */
const answerWithFloor = (floor, req, write) => {
  const answer = floor.post(/** @type {string} */ (req.method), /** @type {string} */ (req.url), req.headers, (max) =>
    readCapped(req, max),
  );
  if (answer instanceof Promise) answer.then(write);
  else {
    req.resume();
    write(answer);
  }
};

/**
 * A node:http listener (or Express route) answering every request with the floor.
 * @param {ReturnType<typeof createFloor>} floor
 * @returns {(req: IncomingMessage, res: ServerResponse) => void}
 */
const floorListener = (floor) => (req, res) => answerWithFloor(floor, req, (answer) => writeFloor(res, answer));

// A variant named `…@baseline` loads the library from the built package at BENCH_BASELINE (a
// directory holding its package.json and dist/), so that two builds meet in one run.
const [variantName = '', build] = variant.split('@');
if (build === 'baseline' && BASELINE === null)
  throw new Error(`${variant} needs BENCH_BASELINE, the root of a built package`);
/**
 * @template {keyof import('../build.mjs').Entries} Entry
 * @param {Entry} entry
 */
const library = (entry) => importEntry(build === 'baseline' ? BASELINE : null, entry);

// The library's side: a memory store with `count` webhooks made by the manager, and the handler
// with its defaults (in-memory limiter, 60 per 60 s, system clock).
async function core() {
  const { createMemoryStore, createWebhookHandler, createWebhookManager } = await library('index');
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const paths = [];
  for (let i = 0; i < count; i++) {
    const { url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` });
    paths.push(new URL(url).pathname);
  }
  return { handle: createWebhookHandler({ store }), paths };
}

/** Paths of the same shape and length for the hand-written routes, which do not check them. */
function fakePaths() {
  const id = () => randomBytes(32).toString('base64url');
  return Array.from({ length: count }, () => `/hooks/channels/wh_${id().slice(0, 22)}/${id().slice(0, 43)}`);
}

/** @type {Record<string, () => Promise<{ server: Server; paths: string[] }>>} */
const variants = {
  async 'node-bare'() {
    const server = createServer((req, res) => {
      readCapped(req, MAX_BYTES).then((bytes) => {
        const { status, body } =
          bytes.length > MAX_BYTES
            ? TOO_LARGE
            : acceptPost(bytes.toString('utf8'), webhookIdOf(/** @type {string} */ (req.url)));
        json(res, status, {}, body);
      });
    });
    return { server, paths: fakePaths() };
  },

  // The contract floor (floor.mjs): the contract's checks written by hand, no library.
  async 'node-floor'() {
    const floor = createFloor(count);
    return { server: createServer(floorListener(floor)), paths: floor.paths };
  },

  // The library's listener for plain node:http.
  async 'node-core'() {
    const { createNodeListener } = await library('node');
    const { handle, paths } = await core();
    return { server: createServer(createNodeListener(handle)), paths };
  },

  async 'express-raw'() {
    const { default: express } = await import('express');
    const app = express();
    app.post('/hooks/channels/:id/:secret', async (req, res) => {
      const bytes = await readCapped(req, MAX_BYTES);
      const { status, body } = bytes.length > MAX_BYTES ? TOO_LARGE : acceptPost(bytes.toString('utf8'), req.params.id);
      res.status(status).json(body);
    });
    return { server: createServer(app), paths: fakePaths() };
  },

  // The same route answering as the node:http one does, with one writeHead: res.json goes through
  // Express's content negotiation, ETag and send machinery, slow enough to flatter any adapter.
  async 'express-raw-writehead'() {
    const { default: express } = await import('express');
    const app = express();
    app.post('/hooks/channels/:id/:secret', async (req, res) => {
      const bytes = await readCapped(req, MAX_BYTES);
      const { status, body } = bytes.length > MAX_BYTES ? TOO_LARGE : acceptPost(bytes.toString('utf8'), req.params.id);
      json(res, status, {}, body);
    });
    return { server: createServer(app), paths: fakePaths() };
  },

  // The contract floor on Express, answering with one writeHead as the route above does.
  async 'express-floor'() {
    const { default: express } = await import('express');
    const floor = createFloor(count);
    const app = express();
    app.post('/hooks/channels/:id/:secret', floorListener(floor));
    return { server: createServer(app), paths: floor.paths };
  },

  async 'express-adapter'() {
    const { default: express } = await import('express');
    const { createExpressMiddleware } = await library('express');
    const { handle, paths } = await core();
    const app = express();
    app.use(createExpressMiddleware(handle));
    return { server: createServer(app), paths };
  },

  async 'koa-raw'() {
    const { default: Koa } = await import('koa');
    const app = new Koa();
    app.use(async (ctx) => {
      if (ctx.method !== 'POST' || !ctx.path.startsWith('/hooks/channels/')) return;
      const bytes = await readCapped(ctx.req, MAX_BYTES);
      const { status, body } =
        bytes.length > MAX_BYTES ? TOO_LARGE : acceptPost(bytes.toString('utf8'), webhookIdOf(ctx.path));
      ctx.status = status;
      ctx.body = body;
    });
    return { server: createServer(app.callback()), paths: fakePaths() };
  },

  // The contract floor on Koa, answering through the context as the route above does.
  async 'koa-floor'() {
    const { default: Koa } = await import('koa');
    const floor = createFloor(count);
    const app = new Koa();
    app.use(async (ctx) => {
      const { status, headers, body } = await floor.post(ctx.method, ctx.path, ctx.req.headers, (max) =>
        readCapped(ctx.req, max),
      );
      ctx.status = status;
      ctx.set(headers);
      ctx.body = body;
    });
    return { server: createServer(app.callback()), paths: floor.paths };
  },

  async 'koa-adapter'() {
    const { default: Koa } = await import('koa');
    const { createKoaMiddleware } = await library('koa');
    const { handle, paths } = await core();
    const app = new Koa();
    app.use(createKoaMiddleware(handle));
    return { server: createServer(app.callback()), paths };
  },

  // The route as a Fastify app writes it: Fastify reads and caps the body (its `bodyLimit` answers
  // 413) and hands it over as a string.
  async 'fastify-raw'() {
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: MAX_BYTES }, (_request, text, done) =>
      done(null, text),
    );
    app.post('/hooks/channels/:id/:secret', async (request, reply) => {
      // The parser above hands the body over as text.
      const { status, body } = acceptPost(
        /** @type {string} */ (request.body),
        /** @type {{ id: string }} */ (request.params).id,
      );
      return reply.code(status).send(body);
    });
    await app.ready();
    return { server: app.server, paths: fakePaths() };
  },

  // The contract floor on Fastify, answering from the route's onRequest hook before Fastify parses
  // anything (as the plugin does): the floor reads the body only once its checks let the post on.
  async 'fastify-floor'() {
    const { default: Fastify } = await import('fastify');
    const floor = createFloor(count);
    const app = Fastify();
    /** @param {string} text */
    const asIs = (text) => text;
    /** @type {import('fastify').onRequestHookHandler} */
    const onRequest = (request, reply) =>
      answerWithFloor(floor, request.raw, ({ status, headers, body }) =>
        reply.code(status).headers(headers).serializer(asIs).send(JSON.stringify(body)),
      );
    app.all('/hooks/channels/:id/:secret', { onRequest }, (_request, reply) => reply.send());
    await app.ready();
    return { server: app.server, paths: floor.paths };
  },

  async 'fastify-plugin'() {
    const { default: Fastify } = await import('fastify');
    const { createFastifyPlugin } = await library('fastify');
    const { handle, paths } = await core();
    const app = Fastify();
    app.register(createFastifyPlugin(handle));
    await app.ready();
    return { server: app.server, paths };
  },

  async 'hono-raw'() {
    const { Hono } = await import('hono');
    const app = new Hono();
    app.post('/hooks/channels/:id/:secret', async (c) => {
      if (Number(c.req.header('content-length')) > MAX_BYTES) return c.json(TOO_LARGE.body, 413);
      const { status, body } = acceptPost(await c.req.text(), c.req.param('id'));
      return c.json(body, status);
    });
    return { server: await honoServer(app), paths: fakePaths() };
  },

  // The contract's floor on Hono; the body as bytes, since UTF-8 must be checked and `text()` can't.
  async 'hono-floor'() {
    const { Hono } = await import('hono');
    const floor = createFloor(count);
    const app = new Hono();
    /**
     * @param {import('hono').Context} c
     * @param {string} name
     */
    const header = (c, name) => c.req.header(name) ?? undefined;
    app.post('/hooks/channels/:id/:secret', async (c) => {
      const headers = {
        'content-type': header(c, 'content-type'),
        'content-length': header(c, 'content-length'),
        'idempotency-key': header(c, 'idempotency-key'),
      };
      const {
        status,
        headers: answerHeaders,
        body,
      } = await floor.post(c.req.method, c.req.path, headers, () =>
        c.req.arrayBuffer().then((buffer) => new Uint8Array(buffer)),
      );
      // A Response of a string and a plain headers object: Hono's Node server writes it directly,
      // where `c.json` with headers would build a Fetch `Headers`.
      return new Response(JSON.stringify(body), { status, headers: answerHeaders });
    });
    return { server: await honoServer(app), paths: floor.paths };
  },

  async 'hono-fetch'() {
    const { Hono } = await import('hono');
    const { createFetchHandler } = await library('fetch');
    const { handle, paths } = await core();
    const fetchHandler = createFetchHandler(handle);
    const app = new Hono();
    app.all('/hooks/channels/:id/:secret', (c) => fetchHandler(c.req.raw));
    return { server: await honoServer(app), paths };
  },
};

/** @param {import('hono').Hono} app */
async function honoServer(app) {
  const { createAdaptorServer } = await import('@hono/node-server');
  // An http.Server: no HTTP/2 options are given.
  return /** @type {Server} */ (createAdaptorServer({ fetch: app.fetch }));
}

const make = variants[variantName];
if (make === undefined) {
  console.error(`unknown variant ${variant}; one of ${Object.keys(variants).join(', ')}`);
  process.exit(2);
}
const { server, paths } = await make();
server.listen(0, '127.0.0.1', () => {
  tellParent({ type: 'ready', port: portOf(server), paths });
});
let cpuMark = process.cpuUsage();
process.on('message', (/** @type {{ type?: string }} */ message) => {
  if (message?.type !== 'cpu') return;
  const used = process.cpuUsage(cpuMark);
  cpuMark = process.cpuUsage();
  tellParent({ type: 'cpu', user: used.user, system: used.system });
});
process.on('disconnect', () => process.exit(0));
