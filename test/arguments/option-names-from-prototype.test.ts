import { metrics } from '@opentelemetry/api';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressManagementMiddleware, createExpressMiddleware } from '../../adapters/frameworks/express/index.js';
import { createFastifyManagementPlugin, createFastifyPlugin } from '../../adapters/frameworks/fastify/index.js';
import { createFetchHandler } from '../../adapters/frameworks/fetch/index.js';
import { createKoaManagementMiddleware, createKoaMiddleware } from '../../adapters/frameworks/koa/index.js';
import { createNodeListener, createNodeManagementListener } from '../../adapters/frameworks/node/index.js';
import { createPostgresStore, postgresMigrations, postgresSchema } from '../../adapters/stores/postgres/index.js';
import { createDenoKvRateLimiter, createDenoKvStore } from '../../adapters/stores/deno-kv/index.js';
import { createRedisRateLimiter } from '../../adapters/stores/redis/index.js';
import { createSqliteRateLimiter, createSqliteStore, sqliteSchema } from '../../adapters/stores/sqlite/index.js';
import {
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
} from '../../src/index.js';
import { instrumentHandler } from '../../src/instrumentation/index.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createManagementOpenApiDocument, createOpenApiDocument } from '../../src/openapi/index.js';
import { toHtml, toPlainText } from '../../src/render/index.js';
import { createWebhookSender } from '../../src/send/index.js';

// Real clients, never connected: each factory is given everything it needs, so that the extra key
// is the only thing wrong.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
const database = new Database(':memory:');
// Node has no Deno.Kv: its shape, which is all the factories look at.
const kv = { get() {}, getMany() {}, list() {}, atomic() {}, watch() {}, commitVersionstamp() {} };
const store = createMemoryStore();
const handle = createWebhookHandler({ store });
const message = { body: 'Deploy finished', blocks: [] };
const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
const api = createManagementApi<never>({ manager, authenticate: () => null });

afterAll(async () => {
  await pool.end();
  database.close();
});

type Options = Record<string, unknown>;

// Each public factory that takes options, with a call that is valid as it stands and gives at
// least one option; `extra` is spread into the options it checks.
const factories: [factory: string, where: string, build: (extra: Options) => unknown][] = [
  ['createWebhookHandler', 'options', (extra) => createWebhookHandler({ store, ...extra } as never)],
  [
    'createWebhookManager',
    'options',
    (extra) => createWebhookManager({ store, baseUrl: 'https://chat.example.com', ...extra } as never),
  ],
  ['createMemoryRateLimiter', 'options', (extra) => createMemoryRateLimiter({ limit: 60, ...extra } as never)],
  [
    'createExpressMiddleware',
    'options',
    (extra) => createExpressMiddleware(handle, { bodyTimeoutMs: 5_000, ...extra } as never),
  ],
  [
    'createKoaMiddleware',
    'options',
    (extra) => createKoaMiddleware(handle, { bodyTimeoutMs: 5_000, ...extra } as never),
  ],
  ['createFastifyPlugin', 'options', (extra) => createFastifyPlugin(handle, { redactLogs: true, ...extra } as never)],
  ['createNodeListener', 'options', (extra) => createNodeListener(handle, { bodyTimeoutMs: 5_000, ...extra } as never)],
  ['createFetchHandler', 'options', (extra) => createFetchHandler(handle, { bodyTimeoutMs: 5_000, ...extra } as never)],
  [
    'instrumentHandler',
    'options',
    (extra) => instrumentHandler(handle, { meterProvider: metrics.getMeterProvider(), ...extra } as never),
  ],
  ['createSqliteStore', 'options', (extra) => createSqliteStore({ database, ...extra } as never)],
  ['createSqliteRateLimiter', 'options', (extra) => createSqliteRateLimiter({ database, ...extra } as never)],
  ['sqliteSchema', 'options', (extra) => sqliteSchema({ tablePrefix: 'hooks_', ...extra } as never)],
  ['createPostgresStore', 'options', (extra) => createPostgresStore({ pool, ...extra } as never)],
  [
    'createPostgresStore',
    'options.channels',
    (extra) => createPostgresStore({ pool, channels: { table: 'channels', ...extra } } as never),
  ],
  ['postgresSchema', 'options', (extra) => postgresSchema({ tablePrefix: 'hooks_', ...extra } as never)],
  ['postgresMigrations', 'options', (extra) => postgresMigrations({ tablePrefix: 'hooks_', ...extra } as never)],
  ['createDenoKvStore', 'options', (extra) => createDenoKvStore({ kv, ...extra } as never)],
  ['createDenoKvRateLimiter', 'options', (extra) => createDenoKvRateLimiter({ kv, ...extra } as never)],
  [
    'createRedisRateLimiter',
    'options',
    (extra) => createRedisRateLimiter({ sendCommand: async () => null, ...extra } as never),
  ],
  ['createOpenApiDocument', 'options', (extra) => createOpenApiDocument({ title: 'Chat', ...extra } as never)],
  [
    'createManagementOpenApiDocument',
    'options',
    (extra) => createManagementOpenApiDocument({ title: 'Chat', ...extra } as never),
  ],
  [
    'createManagementApi',
    'options',
    (extra) => createManagementApi({ manager, authenticate: () => null, ...extra } as never),
  ],
  [
    'createExpressManagementMiddleware',
    'options',
    (extra) => createExpressManagementMiddleware(api, { bodyTimeoutMs: 5_000, ...extra } as never),
  ],
  [
    'createKoaManagementMiddleware',
    'options',
    (extra) => createKoaManagementMiddleware(api, { bodyTimeoutMs: 5_000, ...extra } as never),
  ],
  [
    'createFastifyManagementPlugin',
    'options',
    (extra) => createFastifyManagementPlugin(api, { bodyTimeoutMs: 5_000, ...extra } as never),
  ],
  [
    'createNodeManagementListener',
    'options',
    (extra) => createNodeManagementListener(api, { bodyTimeoutMs: 5_000, ...extra } as never),
  ],
  [
    'createWebhookSender',
    'options',
    (extra) => createWebhookSender({ url: 'https://chat.example.com/hooks/channels/wh_1/s', ...extra } as never),
  ],
  ['toHtml', 'options', (extra) => toHtml(message, { locale: 'en-US', ...extra } as never)],
  ['toPlainText', 'options', (extra) => toPlainText(message, { locale: 'en-US', ...extra } as never)],
];

/** The message of the ChannelWebhookError `invalid_argument` that `build` threw. */
function refusal(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'invalid_argument' });
    return (error as Error).message;
  }
  throw new Error('no error thrown');
}

// Parsed, so that `__proto__` is an own key, as in options read from a JSON config file.
const keys = (json: string): Options => ({ ...(JSON.parse(json) as Options) });

// Rule: an option key that happens to be a name of Object.prototype (`constructor`, `toString`,
// `__proto__`, in any case) is an unknown key like any other: the factory throws
// ChannelWebhookError `invalid_argument` with the same message it gives for a name no library
// uses, never accepts it silently and never fails with a TypeError.
describe.each(factories)('%s refuses option names from Object.prototype in %s', (factory, where, build) => {
  // What the factory says of an unknown key that nothing is close to: `zzzz` stands for the key.
  const unknownKey = (key: string) => refusal(() => build({ zzzz: true })).replace('`zzzz`', `\`${key}\``);

  it('the valid call alone is accepted', () => {
    expect(() => build({})).not.toThrow();
    expect(unknownKey('zzzz')).toMatch(
      new RegExp(`^${factory}: ${where.replace('.', '\\.')} has an unknown key \`zzzz\`; the options are \\w`),
    );
  });

  it.each([
    ['constructor', '{"constructor": {}}'],
    ['toString', '{"toString": "x"}'],
    ['__proto__', '{"__proto__": {"polluted": true}}'],
    ['Constructor', '{"Constructor": 1}'],
    ['valueOf', '{"valueOf": 0}'],
    ['hasOwnProperty', '{"hasOwnProperty": false}'],
  ])('`%s`', (key, json) => {
    expect(Object.keys(keys(json))).toEqual([key]);
    expect(refusal(() => build(keys(json)))).toBe(unknownKey(key));
  });

  it('several at once, each named', () => {
    const message = refusal(() => build(keys('{"constructor": {}, "toString": "x", "__proto__": {}}')));
    expect(message).toBe(
      unknownKey('zzzz').replace(
        'has an unknown key `zzzz`',
        'has unknown keys `constructor`, `toString`, `__proto__`',
      ),
    );
  });
});
