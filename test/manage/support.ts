/**
 * The management API on every stack it is mounted on, over real servers, behind a test sign-in,
 * and the worlds it manages: a store (memory, SQLite or PostgreSQL), a manager, and the endpoint's
 * handler to post through.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import Database from 'better-sqlite3';
import express5 from 'express';
import express4 from 'express4';
import Fastify5, { type FastifyRequest } from 'fastify';
import Fastify4 from 'fastify4';
import { Hono } from 'hono';
import Koa3 from 'koa';
import bodyParser from 'koa-bodyparser';
import Koa2 from 'koa2';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { createExpressManagementMiddleware, type ExpressLikeRequest } from '../../adapters/frameworks/express/index.js';
import { createFastifyManagementPlugin } from '../../adapters/frameworks/fastify/index.js';
import { createKoaManagementMiddleware, type KoaLikeContext } from '../../adapters/frameworks/koa/index.js';
import { createNodeManagementListener } from '../../adapters/frameworks/node/index.js';
import { createMysqlStore } from '../../adapters/stores/mysql/index.js';
import { createPostgresStore } from '../../adapters/stores/postgres/index.js';
import { createSqliteStore } from '../../adapters/stores/sqlite/index.js';
import { createFakeClock } from '../../src/clock.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import {
  createWebhookManager,
  type Actor,
  type AuditEvent,
  type WebhookManager,
} from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi, type ManagementApiOptions, type ManagementErrorContext } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { Channel, WebhookStore } from '../../src/ports.js';
import { randomId } from '../../src/testing/fixtures.js';
import { listen, listenFastify, type Listening } from '../support/http.js';

export const BASE_PATH = '/api/manage';
export const BASE_URL = 'https://chat.example.com';

/** The callers of the role table: the contract's three who may manage, one who may not, and nobody. */
export const CALLERS = {
  'an organization owner': { userId: 'u-org-owner', role: 'owner' },
  'an organization admin': { userId: 'u-org-admin', role: 'admin' },
  'the channel owner': { userId: 'u-channel-owner', role: 'member' },
  'another member': { userId: 'u-other-member', role: 'member' },
  'a signed-out caller': null,
} as const satisfies Record<string, Actor | null>;
export type CallerName = keyof typeof CALLERS;
export const CALLER_NAMES = Object.keys(CALLERS) as CallerName[];

/**
 * The app's sign-in, for the tests: the `session` cookie names a user of {@link CALLERS}; the
 * session `broken` makes the sign-in fail, and `odd` makes it answer something that is no actor.
 */
export function actorOfCookie(cookie: string | null | undefined): Actor | null {
  const token = /(?:^|;\s*)session=([^;]+)/.exec(cookie ?? '')?.[1];
  if (token === 'broken') throw new Error('the session store is down');
  if (token === 'odd') return { userId: 'u-org-owner', role: 'superuser' } as unknown as Actor;
  return Object.values(CALLERS).find((actor) => actor !== null && actor.userId === token) ?? null;
}

/** The headers that sign `caller` in. */
export const signedIn = (caller: CallerName): Record<string, string> => {
  const actor = CALLERS[caller];
  return actor === null ? {} : { cookie: `theme=dark; session=${actor.userId}` };
};

/** What the API's and the manager's hooks received. */
export interface Heard {
  errors: Array<{ error: unknown; context: ManagementErrorContext }>;
  managerErrors: unknown[];
  audits: AuditEvent[];
}

/** The API's options besides the manager and the sign-in, which each stack sets. */
export type ApiOptions = Omit<ManagementApiOptions, 'manager' | 'authenticate' | 'basePath'>;

/** A stack with the API mounted under `/api/manage`, beside `GET /api/health` of the app's own. */
export interface ManagementTarget {
  name: string;
  /** A JSON body parser runs before the API: a body it cannot parse is answered by it, not by the API. */
  parserFirst: boolean;
  start(manager: WebhookManager, options?: ApiOptions): Promise<Listening>;
}

const health = { ok: true };

const express = (name: string, create: typeof express5, parserFirst: boolean): ManagementTarget => ({
  name,
  parserFirst,
  start: (manager, options) => {
    const app = create();
    if (parserFirst) app.use(create.json());
    app.get('/api/health', (_req, res) => {
      res.json(health);
    });
    const api = createManagementApi<ExpressLikeRequest>({
      ...options,
      manager,
      authenticate: (req) => actorOfCookie(req.headers.cookie),
    });
    app.use(BASE_PATH, createExpressManagementMiddleware(api));
    return listen(createServer(app));
  },
});

const koa = (name: string, Create: typeof Koa3, parserFirst: boolean): ManagementTarget => ({
  name,
  parserFirst,
  start: (manager, options) => {
    const app = new Create();
    app.on('error', () => {});
    if (parserFirst) app.use(bodyParser());
    const api = createManagementApi<KoaLikeContext>({
      ...options,
      manager,
      authenticate: (ctx) => actorOfCookie(ctx.req.headers.cookie),
      basePath: BASE_PATH,
    });
    app.use(createKoaManagementMiddleware(api));
    app.use((ctx) => {
      if (ctx.path === '/api/health') ctx.body = health;
    });
    return listen(createServer(app.callback()));
  },
});

const fastify = (name: string, create: typeof Fastify5): ManagementTarget => ({
  name,
  parserFirst: false,
  start: async (manager, options) => {
    const app = create();
    app.get('/api/health', async () => health);
    const api = createManagementApi<FastifyRequest>({
      ...options,
      manager,
      authenticate: (request) => actorOfCookie(request.headers.cookie),
    });
    await app.register(createFastifyManagementPlugin(api), { prefix: BASE_PATH });
    return listenFastify(app);
  },
});

const nodeHttp: ManagementTarget = {
  name: 'node:http',
  parserFirst: false,
  start: (manager, options) => {
    const api = createManagementApi<IncomingMessage>({
      ...options,
      manager,
      authenticate: (req) => actorOfCookie(req.headers.cookie),
      basePath: BASE_PATH,
    });
    const listener = createNodeManagementListener(api, {
      fallback: (req, res) => {
        res
          .writeHead(req.url === '/api/health' ? 200 : 404, { 'content-type': 'application/json' })
          .end(JSON.stringify(health));
      },
    });
    return listen(createServer(listener));
  },
};

// A Fetch runtime with no router (Bun, Deno, Workers): the API sees whole URLs and strips basePath.
const fetchPlain: ManagementTarget = {
  name: 'Fetch',
  parserFirst: false,
  start: (manager, options) => {
    const api = createManagementApi({
      ...options,
      manager,
      authenticate: (request) => actorOfCookie(request.headers.get('cookie')),
      basePath: BASE_PATH,
    });
    const fetch = (request: Request) =>
      new URL(request.url).pathname === '/api/health' ? Response.json(health) : api.fetch(request);
    return listen(createAdaptorServer({ fetch }) as ReturnType<typeof createServer>);
  },
};

// Hono's mount hands the API paths relative to it.
const fetchHono: ManagementTarget = {
  name: 'Fetch (Hono mount)',
  parserFirst: false,
  start: (manager, options) => {
    const api = createManagementApi({
      ...options,
      manager,
      authenticate: (request) => actorOfCookie(request.headers.get('cookie')),
    });
    const app = new Hono();
    app.get('/api/health', (c) => c.json(health));
    app.mount(BASE_PATH, api.fetch);
    return listen(createAdaptorServer({ fetch: app.fetch }) as ReturnType<typeof createServer>);
  },
};

/** Every stack and major version the API is mounted on; some with a body parser mounted first. */
export const managementTargets: ManagementTarget[] = [
  nodeHttp,
  express('Express 5, after express.json()', express5, true),
  express('Express 4', express4, false),
  koa('Koa 3', Koa3, false),
  koa('Koa 2, after koa-bodyparser', Koa2, true),
  fastify('Fastify 5', Fastify5),
  fastify('Fastify 4', Fastify4),
  fetchPlain,
  fetchHono,
];

/** A store the API's manager and the endpoint share, with what the tests need besides the port. */
export interface StoreUnderTest {
  name: string;
  open(): Promise<{ store: WebhookStore; putChannel(channel: Channel): Promise<void>; close(): Promise<void> }>;
}

export const memoryStore: StoreUnderTest = {
  name: 'memory',
  open: async () => {
    const store = createMemoryStore();
    return { store, putChannel: async (channel) => store.putChannel(channel), close: async () => {} };
  },
};

export const sqliteStore: StoreUnderTest = {
  name: 'SQLite',
  open: async () => {
    const database = new Database(join(mkdtempSync(join(tmpdir(), 'cw-manage-')), 'manage.sqlite'));
    const store = createSqliteStore({ database });
    return {
      store,
      putChannel: async (channel) => store.putChannel(channel),
      close: async () => {
        database.close();
      },
    };
  },
};

export const postgresStore = (databaseUrl: string): StoreUnderTest => ({
  name: 'PostgreSQL',
  open: async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    const store = createPostgresStore({ pool, tablePrefix: 'cwtest_manage_' });
    await store.migrate();
    return { store, putChannel: (channel) => store.putChannel(channel), close: () => pool.end() };
  },
});

export const mysqlStore = (mysqlUrl: string): StoreUnderTest => ({
  name: 'MySQL',
  open: async () => {
    const pool = mysql.createPool({ uri: mysqlUrl, connectionLimit: 4 });
    const store = createMysqlStore({ pool, tablePrefix: 'cwtest_manage_' });
    await store.migrate();
    return { store, putChannel: (channel) => store.putChannel(channel), close: () => pool.end() };
  },
});

/** A store, its manager, and the endpoint over it; every fixture gets a channel of its own. */
export interface ManagedWorld {
  store: WebhookStore;
  manager: WebhookManager;
  heard: Heard;
  /** Posts a JSON body to a webhook URL through the endpoint (in process). */
  post(url: string, body: unknown): Promise<number>;
  /** A new active channel of the channel owner, with one webhook that has a profile and one post. */
  fixture(): Promise<Fixture>;
  putChannel(channel: Channel): Promise<void>;
  close(): Promise<void>;
}

export interface Fixture {
  channelId: string;
  webhookId: string;
  url: string;
}

export async function openWorld(under: StoreUnderTest): Promise<ManagedWorld> {
  const { store, putChannel, close } = await under.open();
  const heard: Heard = { errors: [], managerErrors: [], audits: [] };
  const manager = createWebhookManager({
    store,
    baseUrl: BASE_URL,
    clock: createFakeClock(Date.UTC(2026, 0, 1, 12)),
    onAudit: (event) => void heard.audits.push(event),
    onError: (error) => void heard.managerErrors.push(error),
  });
  const handle = createWebhookHandler({ store, onError: () => {} });
  const post = async (url: string, body: unknown) =>
    (
      await handle({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).status;
  return {
    store,
    manager,
    heard,
    post,
    putChannel,
    close,
    async fixture() {
      const channelId = `c_${randomId(10)}`;
      await putChannel({ id: channelId, ownerId: CALLERS['the channel owner'].userId, archived: false });
      const { webhook, url } = await manager.create(CALLERS['the channel owner'], {
        channelId,
        name: 'CI',
        description: 'Deploys from CI',
        avatarUrl: 'https://chat.example.com/avatars/ci.png',
      });
      await post(url, { text: 'Deploy 42 finished' });
      await untilRecorded(store, webhook.id);
      return { channelId, webhookId: webhook.id, url };
    },
  };
}

/** Waits until the webhook's history holds a record (the recorder writes on a later tick). */
export async function untilRecorded(store: WebhookStore, webhookId: string, count = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (((await store.listPosts?.(webhookId, 100))?.length ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the history of ${webhookId} never reached ${count} records`);
}
