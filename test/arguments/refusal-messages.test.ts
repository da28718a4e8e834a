import Database from 'better-sqlite3';
import { Cluster, Redis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../adapters/frameworks/express/index.js';
import { createFastifyPlugin } from '../../adapters/frameworks/fastify/index.js';
import { createFetchHandler } from '../../adapters/frameworks/fetch/index.js';
import { createKoaMiddleware } from '../../adapters/frameworks/koa/index.js';
import { createNodeListener } from '../../adapters/frameworks/node/index.js';
import { createPostgresStore, postgresMigrations, postgresSchema } from '../../adapters/stores/postgres/index.js';
import { createDenoKvRateLimiter, createDenoKvStore } from '../../adapters/stores/deno-kv/index.js';
import { createRedisFeedNotifier, createRedisRateLimiter } from '../../adapters/stores/redis/index.js';
import { createSqliteRateLimiter, createSqliteStore, sqliteSchema } from '../../adapters/stores/sqlite/index.js';
import { suggestOptions } from '../../src/arguments/suggest-option.js';
import { createFakeClock } from '../../src/clock.js';
import {
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
} from '../../src/index.js';
import { instrumentHandler } from '../../src/instrumentation/index.js';
import { createOpenApiDocument } from '../../src/openapi/index.js';
import { toHtml, toPlainText } from '../../src/render/index.js';
import { createWebhookSender } from '../../src/send/index.js';

// Real clients, never connected: what a user holds when they pass one in the wrong place.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
const ioredis = new Redis({ lazyConnect: true });
const ioredisCluster = new Cluster([{ host: '127.0.0.1', port: 7000 }], { lazyConnect: true });
const nodeRedis = createClient();
const database = new Database(':memory:');
// Node has no Deno.Kv: its shape, which is all the factories look at.
const denoKvShape = { get() {}, getMany() {}, list() {}, atomic() {}, watch() {}, commitVersionstamp() {} } as never;
const secretUrl = 'https://chat.example.com/hooks/channels/wh_1/very-secret-value';
const message = { body: 'Deploy finished', blocks: [] };
const store = createMemoryStore();
const rateLimiter = createMemoryRateLimiter();
const handle = createWebhookHandler({ store });
const baseUrl = 'https://chat.example.com';
const STORE_HINT = 'Pass createMemoryStore(), createPostgresStore({ pool }) or a store of your own.';
const HANDLE_HINT = 'Pass createWebhookHandler({ store }).';

afterAll(async () => {
  await pool.end();
  ioredis.disconnect();
  ioredisCluster.disconnect();
  database.close();
});

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

type Case = [what: string, build: () => unknown, message: string | ReturnType<typeof expect.stringMatching>];

// Rule: every factory checks its arguments with the one check when it is called: a missing or
// wrongly shaped argument, or an option it does not have, is a ChannelWebhookError
// `invalid_argument` whose message starts with the factory's name, says what was expected and what
// was given, and for an unknown option names the option meant when one is close.
describe.each<[factory: string, cases: Case[]]>([
  [
    'createWebhookHandler',
    [
      [
        'no options',
        () => createWebhookHandler(undefined as never),
        'options must be an object { store, rateLimiter?, clock?, onMessage?, onError?, onRateLimiterError?, storeTimeoutMs?, rateLimiterTimeoutMs? }, got undefined',
      ],
      [
        'the store itself as options',
        () => createWebhookHandler(store as never),
        'options must be an object { store, rateLimiter?, clock?, onMessage?, onError?, onRateLimiterError?, storeTimeoutMs?, rateLimiterTimeoutMs? }, got an object of putChannel, listMessages, getChannel, insertWebhook, …',
      ],
      [
        'a store of a class as options',
        () => createWebhookHandler(new (class SqlStore {})() as never),
        'options must be an object { store, rateLimiter?, clock?, onMessage?, onError?, onRateLimiterError?, storeTimeoutMs?, rateLimiterTimeoutMs? }, got a SqlStore',
      ],
      [
        'a pg pool as the store',
        () => createWebhookHandler({ store: pool as never }),
        `options.store must be a WebhookStore: it has no getWebhook(), insertMessage(). ${STORE_HINT}`,
      ],
      [
        'a limiter without hit()',
        () => createWebhookHandler({ store, rateLimiter: { check: () => true } as never }),
        'options.rateLimiter must be a RateLimiter: it has no hit(). Pass createMemoryRateLimiter(), createRedisRateLimiter({ client }) or a limiter of your own.',
      ],
      [
        'rateLimit for rateLimiter',
        () => createWebhookHandler({ store, rateLimit: rateLimiter } as never),
        'options has an unknown key `rateLimit` (did you mean `rateLimiter`?); the options are store, rateLimiter, clock, onMessage, onError, onRateLimiterError, storeTimeoutMs, rateLimiterTimeoutMs',
      ],
      [
        'a timeout without its unit',
        () => createWebhookHandler({ store, storeTimeout: 2_000 } as never),
        'options has an unknown key `storeTimeout` (did you mean `storeTimeoutMs`?); the options are store, rateLimiter, clock, onMessage, onError, onRateLimiterError, storeTimeoutMs, rateLimiterTimeoutMs',
      ],
      [
        'an unknown onRateLimiterError',
        () => createWebhookHandler({ store, onRateLimiterError: 'ignore' } as never),
        "options.onRateLimiterError must be 'allow' or 'reject': got \"ignore\".",
      ],
    ],
  ],
  [
    'createWebhookManager',
    [
      [
        'no options',
        () => createWebhookManager(undefined as never),
        'options must be an object { store, baseUrl, clock?, onAudit?, onError? }, got undefined',
      ],
      [
        'a pg pool as the store',
        () => createWebhookManager({ store: pool as never, baseUrl }),
        `options.store must be a WebhookStore: it has no getWebhook(), getChannel(), insertWebhook(), listWebhooks(), updateWebhookSecret(), revokeWebhook(), updateWebhookProfile(). ${STORE_HINT}`,
      ],
      [
        'a store that only serves posts',
        () => createWebhookManager({ store: { getWebhook: () => null, insertMessage: () => null } as never, baseUrl }),
        `options.store must be a WebhookStore: it has no getChannel(), insertWebhook(), listWebhooks(), updateWebhookSecret(), revokeWebhook(), updateWebhookProfile(). ${STORE_HINT}`,
      ],
      [
        'no baseUrl',
        () => createWebhookManager({ store } as never),
        'options.baseUrl must be an absolute http(s) URL: got undefined.',
      ],
      [
        'baseURL in capitals',
        () => createWebhookManager({ store, baseURL: baseUrl } as never),
        'options has an unknown key `baseURL` (did you mean `baseUrl`?); the options are store, baseUrl, clock, onAudit, onError',
      ],
      [
        'a relative baseUrl',
        () => createWebhookManager({ store, baseUrl: '/api' }),
        'options.baseUrl must be an absolute http(s) URL: it is not a URL.',
      ],
    ],
  ],
  [
    'createMemoryRateLimiter',
    [
      [
        "express-rate-limit's max",
        () => createMemoryRateLimiter({ max: 10 } as never),
        'options has an unknown key `max` (did you mean `limit`?); the options are limit, windowMs',
      ],
      [
        "rate-limiter-flexible's duration",
        () => createMemoryRateLimiter({ limit: 10, duration: 60 } as never),
        'options has an unknown key `duration` (did you mean `windowMs`?); the options are limit, windowMs',
      ],
      [
        'a limit as text',
        () => createMemoryRateLimiter({ limit: '60' } as never),
        'options.limit must be an integer of at least 1: got "60".',
      ],
    ],
  ],
  ...(
    [
      'createExpressMiddleware',
      'createKoaMiddleware',
      'createFastifyPlugin',
      'createNodeListener',
      'createFetchHandler',
    ] as const
  ).map((factory): [string, Case[]] => {
    const create = {
      createExpressMiddleware,
      createKoaMiddleware,
      createFastifyPlugin,
      createNodeListener,
      createFetchHandler,
    }[factory] as (h: unknown, o?: unknown) => unknown;
    return [
      factory,
      [
        [
          'no handler',
          () => create(undefined),
          `handle must be the handler from createWebhookHandler(): got undefined. ${HANDLE_HINT}`,
        ],
        [
          'the handler options for the handler',
          () => create({ store }),
          `handle must be the handler from createWebhookHandler(): got an object. ${HANDLE_HINT}`,
        ],
        [
          'a timeout without its unit',
          () => create(handle, { bodyTimeout: 5_000 }),
          expect.stringMatching(
            /^options has an unknown key `bodyTimeout` \(did you mean `bodyTimeoutMs`\?\); the options are bodyTimeoutMs/,
          ),
        ],
      ],
    ];
  }),
  [
    'createNodeListener',
    [
      [
        'a fallback that is not a function',
        () => createNodeListener(handle, { fallback: 'https://example.com' as never }),
        'options.fallback must be a function (req, res) => void: got "https://example.com".',
      ],
    ],
  ],
  [
    'createFastifyPlugin',
    [
      [
        'redactLogs as text',
        () => createFastifyPlugin(handle, { redactLogs: 'yes' as never }),
        'options.redactLogs must be true or false: got "yes".',
      ],
    ],
  ],
  [
    'instrumentHandler',
    [
      [
        'no handler',
        () => instrumentHandler(undefined as never),
        `handle must be the handler from createWebhookHandler(): got undefined. ${HANDLE_HINT}`,
      ],
      [
        'a provider without getMeter()',
        () => instrumentHandler(handle, { meterProvider: {} as never }),
        'options.meterProvider must be a MeterProvider: it has no getMeter().',
      ],
      [
        'a shortened name',
        () => instrumentHandler(handle, { tracer: {} } as never),
        'options has an unknown key `tracer` (did you mean `tracerProvider`?); the options are meterProvider, tracerProvider',
      ],
      [
        'an option it does not have',
        () => instrumentHandler(handle, { logger: console } as never),
        'options has an unknown key `logger`; the options are meterProvider, tracerProvider',
      ],
    ],
  ],
  [
    'createSqliteStore',
    [
      [
        'no options',
        () => createSqliteStore(undefined as never),
        'options must be an object { database, tablePrefix?, busyTimeoutMs?, synchronous?, migrate?, groupCommit?, channels?, messages? }, got undefined',
      ],
      [
        'the database itself as options',
        () => createSqliteStore(database as never),
        'options must be an object { database, tablePrefix?, busyTimeoutMs?, synchronous?, migrate?, groupCommit?, channels?, messages? }, got a Database',
      ],
      [
        'a pg pool as the database',
        () => createSqliteStore({ database: pool as never }),
        'options.database must be a SQLite Database: it has no prepare(), exec(). Pass a better-sqlite3 Database, a bun:sqlite Database or a node:sqlite DatabaseSync (anything with prepare() and exec()).',
      ],
      [
        'a typo',
        () => createSqliteStore({ database, busyTimeout: 100 } as never),
        'options has an unknown key `busyTimeout` (did you mean `busyTimeoutMs`?); the options are database, tablePrefix, busyTimeoutMs, synchronous, migrate, groupCommit, channels, messages',
      ],
    ],
  ],
  [
    'createSqliteRateLimiter',
    [
      [
        "express-rate-limit's max",
        () => createSqliteRateLimiter({ database, max: 5 } as never),
        'options has an unknown key `max` (did you mean `limit`?); the options are database, tablePrefix, busyTimeoutMs, synchronous, migrate, limit, windowMs, groupCommit',
      ],
      [
        'an unknown synchronous',
        () => createSqliteRateLimiter({ database, synchronous: 'off' } as never),
        "options.synchronous must be 'normal' or 'full': got \"off\".",
      ],
    ],
  ],
  [
    'sqliteSchema',
    [
      [
        'an unknown key',
        () => sqliteSchema({ prefix: 'hooks_' } as never),
        'options has an unknown key `prefix` (did you mean `tablePrefix`?); the options are tablePrefix',
      ],
    ],
  ],
  [
    'createPostgresStore',
    [
      [
        'no options',
        () => createPostgresStore(undefined as never),
        'options must be an object { pool, tablePrefix?, timeoutMs?, channels?, messages?, maxConcurrentLookups?, maxQueuedLookups?, preparedStatements?, listen?, notifier?, feedPollMs?, onError? }, got undefined',
      ],
      [
        'the pool itself as options',
        () => createPostgresStore(pool as never),
        'options must be an object { pool, tablePrefix?, timeoutMs?, channels?, messages?, maxConcurrentLookups?, maxQueuedLookups?, preparedStatements?, listen?, notifier?, feedPollMs?, onError? }, got a BoundPool',
      ],
      [
        'a Redis client as the pool',
        () => createPostgresStore({ pool: ioredis as never }),
        'options.pool must be a node-postgres Pool: it has no query(). Pass new pg.Pool({ connectionString }) or anything with query().',
      ],
      [
        'a timeout without its unit',
        () => createPostgresStore({ pool, timeout: 2_000 } as never),
        'options has an unknown key `timeout` (did you mean `timeoutMs`?); the options are pool, tablePrefix, timeoutMs, channels, messages, maxConcurrentLookups, maxQueuedLookups, preparedStatements, listen, notifier, feedPollMs, onError',
      ],
      [
        "connect-pg-simple's tableName",
        () => createPostgresStore({ pool, tableName: 'hooks' } as never),
        'options has an unknown key `tableName` (did you mean `tablePrefix`?); the options are pool, tablePrefix, timeoutMs, channels, messages, maxConcurrentLookups, maxQueuedLookups, preparedStatements, listen, notifier, feedPollMs, onError',
      ],
      [
        'a typo in a nested option',
        () => createPostgresStore({ pool, channels: { table: 'channels', ownerID: 'owner' } } as never),
        'options.channels has an unknown key `ownerID` (did you mean `ownerId`?); the options are table, id, ownerId, archived',
      ],
      [
        'channels without a table',
        () => createPostgresStore({ pool, channels: { id: 'id' } } as never),
        'options.channels.table must be a lower-case identifier, optionally schema-qualified ("app.channels"): got undefined.',
      ],
      [
        'a timeout as text',
        () => createPostgresStore({ pool, timeoutMs: '5000' } as never),
        'options.timeoutMs must be a number of ms above 0 and at most 2147483647: got "5000".',
      ],
      [
        'a Redis client as the notifier',
        () => createPostgresStore({ pool, notifier: ioredis as never }),
        "options.notifier must be a feed notifier: it has no announce(). Pass createRedisFeedNotifier({ client }) from 'channel-webhooks/redis', or anything with announce() and subscribe().",
      ],
    ],
  ],
  [
    'postgresSchema',
    [
      [
        'a prefix with a capital',
        () => postgresSchema({ tablePrefix: 'Hooks_' }),
        'options.tablePrefix must be 1-40 lower-case letters, digits or "_", starting with a letter or "_": got "Hooks_".',
      ],
      [
        'an unknown key',
        () => postgresSchema({ prefix: 'hooks_' } as never),
        'options has an unknown key `prefix` (did you mean `tablePrefix`?); the options are tablePrefix',
      ],
    ],
  ],
  [
    'postgresMigrations',
    [
      [
        'a prefix with a capital',
        () => postgresMigrations({ tablePrefix: 'Hooks_' }),
        'options.tablePrefix must be 1-40 lower-case letters, digits or "_", starting with a letter or "_": got "Hooks_".',
      ],
    ],
  ],
  [
    'createRedisFeedNotifier',
    [
      [
        'a node-redis client as client',
        () => createRedisFeedNotifier({ client: nodeRedis as never }),
        'options.client must be an ioredis or iovalkey Redis: it has no status. Pass new Redis(url) from ioredis or iovalkey (node-redis subscribes another way; a Cluster is not supported).',
      ],
      [
        'a pg pool as client',
        () => createRedisFeedNotifier({ client: pool as never }),
        'options.client must be an ioredis or iovalkey Redis: it has no publish(), duplicate(). Pass new Redis(url) from ioredis or iovalkey (node-redis subscribes another way; a Cluster is not supported).',
      ],
      [
        'a Redis Cluster as client',
        () => createRedisFeedNotifier({ client: ioredisCluster as never }),
        'options.client must be an ioredis or iovalkey Redis: it is a Cluster. Pass new Redis(url) from ioredis or iovalkey (node-redis subscribes another way; a Cluster is not supported).',
      ],
      [
        'an empty channel',
        () => createRedisFeedNotifier({ client: ioredis, channel: '' }),
        'options.channel must be a non-empty string: got "".',
      ],
      [
        'a PING period of 0',
        () => createRedisFeedNotifier({ client: ioredis, pingMs: 0 }),
        'options.pingMs must be a whole number of milliseconds from 10 to 3,600,000: got 0.',
      ],
    ],
  ],
  [
    'createRedisRateLimiter',
    [
      [
        'no options',
        () => createRedisRateLimiter(undefined as never),
        'needs exactly one of { sendCommand } (a function sending a command to Redis, e.g. (args) => client.sendCommand(args) for node-redis) or { client } (an ioredis or iovalkey client)',
      ],
      [
        'a node-redis client as client',
        () => createRedisRateLimiter({ client: nodeRedis as never }),
        'options.client must be an ioredis or iovalkey client: it has no call(). For node-redis, pass { sendCommand: (args) => client.sendCommand(args) } instead.',
      ],
      [
        'a pg pool as client',
        () => createRedisRateLimiter({ client: pool as never }),
        'options.client must be an ioredis or iovalkey client: it has no call(). For node-redis, pass { sendCommand: (args) => client.sendCommand(args) } instead.',
      ],
      [
        "express-rate-limit's max",
        () => createRedisRateLimiter({ client: ioredis, max: 10 } as never),
        'options has an unknown key `max` (did you mean `limit`?); the options are sendCommand, client, limit, windowMs, keyPrefix, maxBatch',
      ],
      [
        "rate-limit-redis's prefix",
        () => createRedisRateLimiter({ client: ioredis, prefix: 'rl:' } as never),
        'options has an unknown key `prefix` (did you mean `keyPrefix`?); the options are sendCommand, client, limit, windowMs, keyPrefix, maxBatch',
      ],
      [
        'two unknown keys',
        () => createRedisRateLimiter({ client: ioredis, windowMS: 1_000, burst: 5 } as never),
        'options has unknown keys `windowMS` (did you mean `windowMs`?), `burst`; the options are sendCommand, client, limit, windowMs, keyPrefix, maxBatch',
      ],
      [
        'a fractional window',
        () => createRedisRateLimiter({ client: ioredis, windowMs: 1.5 }),
        'options.windowMs must be an integer of at least 1: got 1.5.',
      ],
    ],
  ],
  [
    'createOpenApiDocument',
    [
      [
        'options that are not an object',
        () => createOpenApiDocument('https://chat.example.com' as never),
        'options must be an object { serverUrl?, pathPrefix?, title? }, got "https://chat.example.com"',
      ],
      [
        'a url for the server',
        () => createOpenApiDocument({ url: 'https://chat.example.com' } as never),
        'options has an unknown key `url` (did you mean `serverUrl`?); the options are serverUrl, pathPrefix, title',
      ],
      [
        'a prefix without its slash',
        () => createOpenApiDocument({ pathPrefix: 'api' }),
        "options.pathPrefix must be '' or a path starting with '/', without a trailing slash, spaces, braces, '?' or '#': got \"api\".",
      ],
    ],
  ],
  [
    'createWebhookSender',
    [
      [
        'no options',
        () => createWebhookSender(undefined as never),
        'options must be an object { url, maxAttempts?, timeoutMs?, attemptTimeoutMs?, baseDelayMs?, maxDelayMs?, fetch?, random?, sleep?, clock?, createKey? }, got undefined',
      ],
      [
        'the URL alone',
        () => createWebhookSender(secretUrl as never),
        'options must be an object { url, maxAttempts?, timeoutMs?, attemptTimeoutMs?, baseDelayMs?, maxDelayMs?, fetch?, random?, sleep?, clock?, createKey? }, got "https://chat.example.com/hooks/channels/"…',
      ],
      [
        'Date as the clock',
        () => createWebhookSender({ url: secretUrl, clock: Date } as never),
        'options.clock must be a Clock: got the function Date. Pass systemClock, createFakeClock() or { now: () => epochMs }.',
      ],
      [
        'retries under their name elsewhere',
        () => createWebhookSender({ url: secretUrl, retries: 3 } as never),
        'options has an unknown key `retries`; the options are url, maxAttempts, timeoutMs, attemptTimeoutMs, baseDelayMs, maxDelayMs, fetch, random, sleep, clock, createKey',
      ],
      [
        'a typo',
        () => createWebhookSender({ url: secretUrl, maxAttempt: 3 } as never),
        'options has an unknown key `maxAttempt` (did you mean `maxAttempts`?); the options are url, maxAttempts, timeoutMs, attemptTimeoutMs, baseDelayMs, maxDelayMs, fetch, random, sleep, clock, createKey',
      ],
      [
        'the secret URL in the wrong option',
        () =>
          createWebhookSender({
            url: 'https://chat.example.com',
            createKey: 'https://x/hooks/channels/wh_1/very-secret-value',
          } as never),
        'options.createKey must be a function () => string: got "https://x/hooks/channels/wh_1/[redacted]".',
      ],
    ],
  ],
  [
    'toHtml',
    [
      ['no message', () => toHtml(undefined as never), 'message must be a message { body, blocks }: got undefined.'],
      [
        'blocks that are not an array',
        () => toHtml({ body: '', blocks: {} } as never),
        'message.blocks must be an array: got an object.',
      ],
      [
        'an unknown option',
        () => toHtml(message, { timeZone: 'UTC' } as never),
        'options has an unknown key `timeZone`; the options are mention, emoji, date, locale, image',
      ],
      [
        'a resolver that is not a function',
        () => toHtml(message, { image: 'https://proxy' } as never),
        'options.image must be a function (url) => string | undefined: got "https://proxy".',
      ],
    ],
  ],
  [
    'toPlainText',
    [
      [
        'a string for a message',
        () => toPlainText('hello' as never),
        'message must be a message { body, blocks }: got "hello".',
      ],
      [
        'a typo',
        () => toPlainText(message, { mentions: () => undefined } as never),
        'options has an unknown key `mentions` (did you mean `mention`?); the options are mention, emoji, date, locale, image',
      ],
      [
        'a locale that is not one',
        () => toPlainText(message, { locale: 'not a locale!' }),
        'options.locale must be a BCP 47 language tag such as "en-US": got "not a locale!".',
      ],
    ],
  ],
  [
    'createDenoKvStore',
    [
      [
        'no options',
        () => createDenoKvStore(undefined as never),
        'options must be an object { kv, keyPrefix?, timeoutMs?, feedPollMs? }, got undefined',
      ],
      [
        'a SQLite database as the KV',
        () => createDenoKvStore({ kv: database as never }),
        'options.kv must be a Deno.Kv: it has no get(), getMany(), list(), atomic(), watch(), commitVersionstamp(). Pass await Deno.openKv() (Deno 2 with --unstable-kv, or "unstable": ["kv"] in deno.json).',
      ],
      [
        'a timeout without its unit',
        () => createDenoKvStore({ kv: denoKvShape, timeout: 2_000 } as never),
        'options has an unknown key `timeout` (did you mean `timeoutMs`?); the options are kv, keyPrefix, timeoutMs, feedPollMs',
      ],
    ],
  ],
  [
    'createDenoKvRateLimiter',
    [
      [
        "express-rate-limit's max",
        () => createDenoKvRateLimiter({ kv: denoKvShape, max: 5 } as never),
        'options has an unknown key `max` (did you mean `limit`?); the options are kv, keyPrefix, timeoutMs, limit, windowMs',
      ],
      [
        'a limit whose times do not fit one KV value',
        () => createDenoKvRateLimiter({ kv: denoKvShape, limit: 10_000 }),
        'options.limit must be an integer from 1 to 5000: got 10000.',
      ],
    ],
  ],
  [
    'createFakeClock',
    [
      [
        'a start that is not a number',
        () => createFakeClock('2026-01-01' as never),
        'start must be a finite number of epoch ms: got "2026-01-01".',
      ],
    ],
  ],
])('%s refuses bad arguments with one check', (factory, cases) => {
  it.each(cases)('%s', (_, build, message) => {
    const refused = refusal(build);
    expect(refused.startsWith(`${factory}: `)).toBe(true);
    expect(refused.slice(factory.length + 2)).toEqual(message);
  });
});

describe('the option meant', () => {
  const handlerOptions = [
    'store',
    'rateLimiter',
    'clock',
    'onMessage',
    'onError',
    'onRateLimiterError',
    'storeTimeoutMs',
    'rateLimiterTimeoutMs',
  ];

  it.each<[string, string[]]>([
    ['rateLimit', ['rateLimiter']],
    ['ratelimiter', ['rateLimiter']],
    ['storeTimeout', ['storeTimeoutMs']],
    ['onMesage', ['onMessage']],
    ['onRateLimitError', ['onRateLimiterError']],
    ['storage', ['store']],
    ['limiter', ['rateLimiter']],
    ['timeoutMs', []],
    ['max', []],
    ['debug', []],
    ['on', []],
  ])('for `%s` among the handler options is %j', (key, meant) => {
    expect(suggestOptions(key, handlerOptions)).toEqual(meant);
  });

  it("is another library's name only where the option it points at exists", () => {
    expect(suggestOptions('max', ['limit', 'windowMs'])).toEqual(['limit']);
    expect(suggestOptions('points', ['limit', 'windowMs'])).toEqual(['limit']);
    expect(suggestOptions('duration', ['limit', 'windowMs'])).toEqual(['windowMs']);
    expect(suggestOptions('max', ['store'])).toEqual([]);
  });

  it('names every option equally close', () => {
    expect(suggestOptions('timeout', ['storeTimeoutMs', 'timeoutMs', 'timeoutMS'])).toEqual(['timeoutMs', 'timeoutMS']);
  });
});
