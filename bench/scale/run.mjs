// `npm run bench:scale`: how the cost of a post grows with the world (webhooks, stored messages,
// active rate-limit keys) and what several instances behind one port do, on ephemeral PostgreSQL,
// Redis and Redis Cluster servers started as the tests start them. Prints the tables and writes
// bench/.tmp/scale-results.json. Options:
//   --quick              a small world (~3 min): 1k/10k/100k webhooks, 0/100k/1M messages
//   --parts=a,b          a subset of memory,postgres-webhooks,postgres-messages,sqlite,redis,instances
//   --seconds=N          seconds of each measured run (default 2; 1.5 with --quick)
//   --rounds=N           alternating rounds over the worlds of a dimension (default 3)
//   --sqlite-cache-mib=N SQLite's page cache for the SQLite worlds (default: SQLite's own, 2 MB)
//   --sqlite-group-commit=off  the SQLite worlds without group commit (default: with it, as a server runs)
// The full run needs ~2.5 GB of memory (the 1M-webhook memory store) and ~8 GB of disk (10M messages).
// With BENCH_SMOKE=1 (what the tests run): one world of each dimension, tiny, for a moment; its
// results go to the process that started it (over IPC), not to bench/.tmp.

/**
 * @import { Pool } from 'pg'
 * @import { World } from './world-server.mjs'
 * @typedef {{ postgresCpuUsPerPost: number; walBytesPerPost: number; blocksReadPerPost: number; blocksHitPerPost: number }} PostgresFigures
 * @typedef {import('./drive.mjs').DriveResult & Partial<PostgresFigures>} Inproc
 * @typedef {Awaited<ReturnType<typeof import('./http-load.mjs').httpLoad>> & { serverCpuUsPerPost: number; rssMiB: number }} Http
 * @typedef {Awaited<ReturnType<typeof measureWorlds>>[number]} Measured
 * @typedef {(world: World, run: () => Promise<Inproc>) => Promise<Inproc>} Observe
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ROOT, SMOKE, TMP, bundleHashSecret, loadServers } from '../internal.mjs';
import { roundRobin } from '../round-robin.mjs';
import { round } from './drive.mjs';
import { httpLoad } from './http-load.mjs';
import { postgresCpuUs } from './postgres-cpu.mjs';
import { batchingRanges, infoNumber, measureBatchSize, measureBatching, measureLimiter } from './redis-limiter.mjs';
import { seedMessages, seedWebhooks, webhookId, webhookPath } from './world.mjs';
import { Cluster, Redis } from 'ioredis';
import pg from 'pg';

/** @type {Record<string, string | undefined>} */
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => /** @type {[string, string | undefined]} */ (arg.replace(/^--/, '').split('='))),
);
const quick = 'quick' in args;
const seconds = Number(args.seconds ?? (SMOKE ? 0.1 : quick ? 1.5 : 2));
const parts = (args.parts ?? 'memory,postgres-webhooks,postgres-messages,sqlite,redis,instances').split(',');
const sizes = SMOKE
  ? { webhooks: [100], messages: [1_000], actives: [100], instances: [2] }
  : quick
    ? {
        webhooks: [1_000, 10_000, 100_000],
        messages: [0, 100_000, 1_000_000],
        actives: [1_000, 10_000],
        instances: [2, 4],
      }
    : {
        webhooks: [1_000, 100_000, 1_000_000],
        messages: [0, 1_000_000, 10_000_000],
        actives: [10_000, 100_000],
        instances: [2, 4],
      };
const CONCURRENCY = 32;
const ROUNDS = Number(args.rounds ?? (SMOKE ? 1 : 3));
const WARM_UP = SMOKE ? 0.05 : 1;
const KEY_SHARE = 0.1;
/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);
/** @param {string} file */
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
// The bundled hashSecret the memory worlds hash their webhooks' secrets with.
let coreInternals = '';
const results = {
  quick,
  seconds,
  machine: machine(),
  /** @type {ReturnType<typeof growthRow>[]} */
  growth: [],
  /** @type {({ dimension: string; size: number } & Partial<PostgresFigures> & Partial<Awaited<ReturnType<typeof relationSizes>>>)[]} */
  postgresWorlds: [],
  /** @type {Awaited<ReturnType<typeof measureLimiter>>} */
  redis: [],
  /** @type {ReturnType<typeof batchingRanges>} */
  redisBatching: [],
  /** @type {Awaited<ReturnType<typeof measureBatchSize>>} */
  redisBatchSize: [],
  /** @type {Awaited<ReturnType<typeof measureInstances>>[]} */
  instances: [],
  /** @type {number | undefined} */
  minutes: undefined,
};
/** @typedef {typeof results} ScaleResults */

function machine() {
  return {
    cpus: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: os.loadavg().map((x) => round(x, 1)),
  };
}

/**
 * Starts a world-server child; resolves with its port and a function to send it a command.
 * @param {World} world
 */
async function startWorld(world) {
  const child = fork(here('world-server.mjs'), [], {
    env: { ...process.env, WORLD: JSON.stringify(world), CORE_INTERNALS: coreInternals },
    execArgv: ['--expose-gc', '--max-old-space-size=6144'],
  });
  /** @type {{ port: number; heapPerWebhook: number | null }} */
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`world server exited with ${code}`)));
  });
  /**
   * @template Answer
   * @param {import('./world-server.mjs').Command} command
   * @returns {Promise<Answer>}
   */
  const ask = (command) =>
    new Promise(
      (resolve) => (
        child.once('message', (/** @type {{ result: Answer }} */ answer) => resolve(answer.result)), child.send(command)
      ),
    );
  /** @returns {Promise<Inproc>} */
  const inproc = (/** @type {number} */ seconds) => ask({ run: 'inproc', seconds, concurrency: CONCURRENCY });
  /** @returns {Promise<{ cpuUs: number; rssBytes: number }>} */
  const cpu = () => ask({ run: 'cpu' });
  return {
    ...ready,
    inproc,
    cpu,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.disconnect())),
  };
}

/**
 * Posts in process and over node:http into every world of one dimension, all kept up at once and
 * measured in alternating rounds, so the machine's other load falls on each world alike. Each
 * figure is the median of the rounds. `observe(world, run)` brackets each in-process run.
 * @param {World[]} worlds
 * @param {Observe} [observe]
 */
async function measureWorlds(worlds, observe = async (_world, run) => run()) {
  /** @type {Awaited<ReturnType<typeof startWorld>>[]} */
  const servers = [];
  try {
    for (const world of worlds) servers.push(await startWorld(world));
    const at = (/** @type {number} */ i) => /** @type {(typeof servers)[number]} */ (servers[i]);
    const runs = worlds.map(() => ({ inproc: /** @type {Inproc[]} */ ([]), http: /** @type {Http[]} */ ([]) }));
    const loads = worlds.map((world) => {
      let keyed = 0;
      return () => ({
        path: webhookPath(Math.floor(Math.random() * world.webhooks)),
        key: Math.random() < KEY_SHARE ? `h-${keyed++}` : undefined,
      });
    });
    /**
     * @param {number} i
     * @param {number} length
     * @returns {Promise<Http>}
     */
    const http = async (i, length) => {
      const before = await at(i).cpu();
      const result = await httpLoad({
        port: at(i).port,
        seconds: length,
        connections: CONCURRENCY,
        next: roundRobin(loads, i),
      });
      const after = await at(i).cpu();
      return {
        ...result,
        serverCpuUsPerPost: round((after.cpuUs - before.cpuUs) / result.posts, 1),
        rssMiB: Math.round(after.rssBytes / 2 ** 20),
      };
    };
    for (let i = 0; i < worlds.length; i++) {
      await at(i).inproc(WARM_UP);
      await http(i, WARM_UP);
    }
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      for (const [i, world] of worlds.entries())
        roundRobin(runs, i).inproc.push(await observe(world, () => at(i).inproc(seconds)));
      for (let i = 0; i < worlds.length; i++) roundRobin(runs, i).http.push(await http(i, seconds));
    }
    return runs.map((run, i) => ({
      heapPerWebhook: at(i).heapPerWebhook,
      inproc: medians(run.inproc),
      http: medians(run.http),
    }));
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * Each numeric field's median over the runs; other fields from the last run.
 * @template {{ perSecond: number }} Run
 * @param {Run[]} runs at least one
 * @returns {Run & { rounds: number[] }}
 */
function medians(runs) {
  /** @type {Record<string, unknown>} */
  const out = { ...runs.at(-1) };
  for (const [key, value] of Object.entries(out)) {
    if (typeof value !== 'number') continue;
    const sorted = runs
      .map((run) => /** @type {number} */ (/** @type {Record<string, unknown>} */ (run)[key]))
      .sort((a, b) => a - b);
    out[key] = sorted[sorted.length >> 1];
  }
  out.rounds = runs.map((run) => run.perSecond);
  return /** @type {Run & { rounds: number[] }} */ (out);
}

/**
 * @param {string} store
 * @param {string} dimension
 * @param {number} size
 * @param {Measured} m
 */
const growthRow = (store, dimension, size, m) => ({
  store,
  dimension,
  size,
  heapPerWebhook: m.heapPerWebhook,
  inprocPerSecond: m.inproc.perSecond,
  inprocP50Ms: m.inproc.p50Ms,
  inprocP99Ms: m.inproc.p99Ms,
  inprocCpuUsPerPost: m.inproc.cpuUsPerPost,
  postgresCpuUsPerPost: m.inproc.postgresCpuUsPerPost ?? null,
  httpPerSecond: m.http.perSecond,
  httpP50Ms: m.http.p50Ms,
  httpP99Ms: m.http.p99Ms,
  httpServerCpuUsPerPost: m.http.serverCpuUsPerPost,
  inprocRounds: m.inproc.rounds,
  httpRounds: m.http.rounds,
  notCreated: Object.entries(m.inproc.statuses)
    .filter(([status]) => status !== '201')
    .reduce((n, [, count]) => n + count, 0),
});

// What PostgreSQL spends on the store's statements during a run, per post: CPU time of the whole
// cluster, buffer hits and reads of the world's tables and indexes, WAL bytes.
/**
 * @param {Pool} admin
 * @param {number} port
 */
function pgObserver(admin, port) {
  /** @param {string} prefix */
  const snapshot = async (prefix) => ({
    cpuUs: postgresCpuUs(port),
    ...(
      await admin.query(
        `SELECT pg_current_wal_lsn()::text AS lsn,
                coalesce(sum(heap_blks_read + coalesce(idx_blks_read, 0)), 0)::bigint AS read,
                coalesce(sum(heap_blks_hit + coalesce(idx_blks_hit, 0)), 0)::bigint AS hit
         FROM pg_statio_user_tables WHERE relname LIKE $1`,
        [`${prefix}%`],
      )
    ).rows[0],
  });
  /**
   * @param {World} world
   * @param {() => Promise<import('./drive.mjs').DriveResult>} run
   */
  return async (world, run) => {
    const prefix = world.store === 'postgres' ? world.prefix : '';
    const before = await snapshot(prefix);
    const result = await run();
    const after = await snapshot(prefix);
    const wal = (await admin.query('SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes', [after.lsn, before.lsn])).rows[0]
      .bytes;
    const posts = result.posts;
    return {
      ...result,
      postgresCpuUsPerPost: round((after.cpuUs - before.cpuUs) / posts, 1),
      walBytesPerPost: Math.round(Number(wal) / posts),
      blocksReadPerPost: round((after.read - before.read) / posts, 2),
      blocksHitPerPost: round((after.hit - before.hit) / posts, 1),
    };
  };
}

/**
 * @param {Pool} admin
 * @param {string} prefix
 * @param {number} messages
 */
async function relationSizes(admin, prefix, messages) {
  const { rows } = await admin.query(
    `SELECT pg_relation_size($1::regclass) AS heap, pg_indexes_size($1::regclass) AS indexes,
            (SELECT json_object_agg(indexrelid::regclass::text, pg_relation_size(indexrelid)) FROM pg_index WHERE indrelid = $1::regclass) AS each`,
    [`${prefix}messages`],
  );
  /** @param {unknown} bytes */
  const per = (bytes) => (messages === 0 ? null : round(Number(bytes) / messages, 1));
  return {
    heapBytesPerMessage: per(rows[0].heap),
    indexBytesPerMessage: per(rows[0].indexes),
    indexBytes: rows[0].each,
  };
}

async function main() {
  const started = performance.now();
  const servers = await loadServers();
  coreInternals = await bundleHashSecret();
  const { missing } = servers.serverBinaries();
  const needsServers = parts.some((part) => part !== 'memory' && part !== 'sqlite');
  if (needsServers && missing.length > 0)
    throw new Error(`bench:scale needs PostgreSQL and Redis: ${missing.join('; ')}`);
  const { createPostgresStore } = await import('channel-webhooks/postgres');
  const { createRedisRateLimiter } = await import('channel-webhooks/redis');

  /** @type {({ destroy(): Promise<void> } | null)[]} */
  const running = [];
  const postgres = needsServers ? await servers.startPostgres() : null;
  const redis = needsServers ? await servers.startRedis() : null;
  running.push(postgres, redis);
  /** @type {Pool | null} */
  let admin = null;
  /** The parts that need them have PostgreSQL and Redis. */
  const backends = () => {
    if (postgres === null || redis === null || admin === null) throw new Error('this part needs PostgreSQL and Redis');
    return { postgres, redis, admin };
  };
  try {
    if (postgres !== null) {
      admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
      admin.on('error', () => {});
      // Bigger sorts for the index builds after a bulk seed; the rest are the test cluster's settings.
      await admin.query(`ALTER SYSTEM SET maintenance_work_mem = '512MB'`);
      await admin.query('SELECT pg_reload_conf()');
    }

    if (parts.includes('memory')) {
      log(`memory store: ${sizes.webhooks.join(', ')} webhooks`);
      /** @type {import('./world-server.mjs').MemoryWorld[]} */
      const worlds = sizes.webhooks.map((webhooks) => ({ store: 'memory', webhooks, keyShare: KEY_SHARE }));
      const measured = await measureWorlds(worlds);
      for (const [i, m] of measured.entries())
        results.growth.push(growthRow('memory', 'webhooks', roundRobin(worlds, i).webhooks, m));
    }

    /**
     * @param {string} prefix
     * @param {number} webhooks
     * @returns {import('./world-server.mjs').PostgresWorld}
     */
    const pgWorld = (prefix, webhooks) => ({
      store: 'postgres',
      webhooks,
      keyShare: KEY_SHARE,
      databaseUrl: backends().postgres.url,
      prefix,
    });
    /**
     * @param {'webhooks' | 'messages'} dimension
     * @param {import('./world-server.mjs').PostgresWorld[]} worlds
     * @param {number[]} sizesOf
     */
    const pgRows = async (dimension, worlds, sizesOf) => {
      const { postgres, admin } = backends();
      const measured = await measureWorlds(worlds, pgObserver(admin, Number(new URL(postgres.url).port)));
      for (const [i, m] of measured.entries()) {
        const size = roundRobin(sizesOf, i);
        results.growth.push(growthRow('postgres', dimension, size, m));
        const { postgresCpuUsPerPost, walBytesPerPost, blocksReadPerPost, blocksHitPerPost } = m.inproc;
        results.postgresWorlds.push({
          dimension,
          size,
          postgresCpuUsPerPost,
          walBytesPerPost,
          blocksReadPerPost,
          blocksHitPerPost,
          ...(dimension === 'messages' ? await relationSizes(admin, roundRobin(worlds, i).prefix, size) : {}),
        });
      }
    };
    /** @param {string} prefix */
    const dropWorld = (prefix) =>
      backends().admin.query(`DROP TABLE ${prefix}messages, ${prefix}webhooks, ${prefix}channels`);

    if (parts.includes('postgres-webhooks')) {
      const { admin } = backends();
      const worlds = [];
      for (const webhooks of sizes.webhooks) {
        const world = pgWorld(`scale_w${webhooks}_`, webhooks);
        const t = performance.now();
        await createPostgresStore({ pool: admin, tablePrefix: world.prefix }).migrate();
        await seedWebhooks(admin, world.prefix, 0, webhooks);
        await admin.query(`VACUUM ANALYZE ${world.prefix}webhooks`);
        log(`PostgreSQL store: ${webhooks} webhooks seeded in ${round((performance.now() - t) / 1000, 1)} s`);
        worlds.push(world);
      }
      await pgRows('webhooks', worlds, sizes.webhooks);
      for (const world of worlds) await dropWorld(world.prefix);
    }

    if (parts.includes('postgres-messages')) {
      // 10,000 webhooks in every world; only the message table differs.
      const { admin } = backends();
      const webhooks = SMOKE ? 100 : 10_000;
      const worlds = [];
      for (const messages of sizes.messages) {
        const world = pgWorld(`scale_m${messages}_`, webhooks);
        const t = performance.now();
        await createPostgresStore({ pool: admin, tablePrefix: world.prefix }).migrate();
        await seedWebhooks(admin, world.prefix, 0, webhooks);
        await bulkSeed(admin, world.prefix, messages, webhooks);
        log(`PostgreSQL store: ${messages} messages seeded in ${round((performance.now() - t) / 1000, 1)} s`);
        worlds.push(world);
      }
      await pgRows('messages', worlds, sizes.messages);
      for (const world of worlds) await dropWorld(world.prefix);
    }

    if (parts.includes('sqlite')) {
      // A file per world in bench/.tmp, deleted after; messages up to the second size only (1M):
      // one writer at a time makes a 10M seed another five minutes.
      const dir = `${TMP}scale-sqlite/`;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const cacheMiB = args['sqlite-cache-mib'] === undefined ? undefined : Number(args['sqlite-cache-mib']);
      const groupCommit = args['sqlite-group-commit'] !== 'off';
      /**
       * @param {string} name
       * @param {number} webhooks
       * @param {number} messages
       * @returns {import('./world-server.mjs').SqliteWorld}
       */
      const sqliteWorld = (name, webhooks, messages) => ({
        store: 'sqlite',
        webhooks,
        messages,
        cacheMiB,
        groupCommit,
        keyShare: KEY_SHARE,
        file: `${dir}${name}.sqlite`,
      });
      const byWebhooks = sizes.webhooks.map((webhooks) => sqliteWorld(`w${webhooks}`, webhooks, 0));
      log(`SQLite store${groupCommit ? ', group commit' : ''}: ${sizes.webhooks.join(', ')} webhooks`);
      for (const [i, m] of (await measureWorlds(byWebhooks)).entries())
        results.growth.push(growthRow('sqlite', 'webhooks', roundRobin(sizes.webhooks, i), m));
      const messageSizes = sizes.messages.slice(0, 2);
      log(`SQLite store: ${messageSizes.join(', ')} messages`);
      const byMessages = messageSizes.map((messages) => sqliteWorld(`m${messages}`, SMOKE ? 100 : 10_000, messages));
      for (const [i, m] of (await measureWorlds(byMessages)).entries())
        results.growth.push(growthRow('sqlite', 'messages', roundRobin(messageSizes, i), m));
      rmSync(dir, { recursive: true, force: true });
    }

    if (parts.includes('redis')) {
      const { redis } = backends();
      const node = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const limiter = createRedisRateLimiter({ client: node, keyPrefix: 'scale:' });
      results.redis.push(
        ...(await measureLimiter({
          name: 'Redis',
          limiter,
          nodes: [node],
          actives: sizes.actives,
          seconds,
          concurrency: CONCURRENCY,
          prefix: 'r:',
        })),
      );
      /** @param {{ maxBatch?: number }} options */
      const onNode = (options) => createRedisRateLimiter({ client: node, keyPrefix: 'scale:', ...options });
      results.redisBatchSize.push(
        ...(await measureBatchSize({
          name: 'Redis',
          createLimiter: onNode,
          node,
          sizes: SMOKE ? [1, 16] : [1, 4, 16, 64, 256],
          seconds,
          prefix: 's:',
          active: SMOKE ? 20 : 2_000,
        })),
      );
      const batchingActives = SMOKE ? [100, 1] : [10_000, 1];
      const batching = [];
      batching.push(
        ...(await measureBatching({
          name: 'Redis',
          createLimiter: onNode,
          nodes: [node],
          seconds,
          rounds: ROUNDS,
          prefix: 'b:',
          actives: batchingActives,
        })),
      );
      node.disconnect();
      log('Redis Cluster (3 masters)');
      const cluster = await servers.startRedisCluster();
      running.push(cluster);
      const client = new Cluster(cluster.nodes, {
        enableOfflineQueue: false,
        redisOptions: { maxRetriesPerRequest: 1 },
      });
      await once(client, 'ready');
      const masters = cluster.nodes.map(({ host, port }) => new Redis(port, host, { maxRetriesPerRequest: 1 }));
      const clusterLimiter = createRedisRateLimiter({ client, keyPrefix: 'scale:' });
      results.redis.push(
        ...(await measureLimiter({
          name: 'Redis Cluster',
          limiter: clusterLimiter,
          nodes: masters,
          actives: sizes.actives,
          seconds,
          concurrency: CONCURRENCY,
          prefix: 'c:',
        })),
      );
      /** @param {{ maxBatch?: number }} options */
      const onCluster = (options) => createRedisRateLimiter({ client, keyPrefix: 'scale:', ...options });
      batching.push(
        ...(await measureBatching({
          name: 'Redis Cluster',
          createLimiter: onCluster,
          nodes: masters,
          seconds,
          rounds: ROUNDS,
          prefix: 'cb:',
          actives: batchingActives,
        })),
      );
      results.redisBatching.push(...batchingRanges(batching));
      client.disconnect();
      for (const master of masters) master.disconnect();
    }

    if (parts.includes('instances')) {
      const { postgres, redis, admin } = backends();
      const prefix = 'scale_i_';
      const webhooks = 2_100;
      await createPostgresStore({ pool: admin, tablePrefix: prefix }).migrate();
      await seedWebhooks(admin, prefix, 0, webhooks);
      for (const count of sizes.instances)
        results.instances.push(await measureInstances({ count, prefix, webhooks, postgres, redis, admin }));
      await admin.query(`DROP TABLE ${prefix}messages, ${prefix}webhooks, ${prefix}channels`);
    }
  } finally {
    await admin?.end();
    await Promise.allSettled(running.map((server) => server?.destroy()));
  }
  results.minutes = round((performance.now() - started) / 60_000, 1);
}

/**
 * Seeds `count` messages into an empty message table: its secondary indexes are dropped for the
 * seed and built after (as a restore would), which takes minutes rather than the better part of an
 * hour on 2 cores for 10 million rows; the indexes are the same.
 */
/**
 * @param {Pool} admin
 * @param {string} prefix
 * @param {number} count
 * @param {number} webhooks
 */
async function bulkSeed(admin, prefix, count, webhooks) {
  await admin.query(`ALTER TABLE ${prefix}messages DROP CONSTRAINT ${prefix}messages_id_key`);
  await admin.query(`DROP INDEX ${prefix}messages_key_idx, ${prefix}messages_channel_feed_idx`);
  await seedMessages(admin, prefix, 0, count, { webhooks, onSlice: (done) => log(`  … ${done} messages`) });
  const { n } = (await admin.query(`SELECT count(*)::int AS n FROM ${prefix}messages`)).rows[0];
  if (n !== count) throw new Error(`the seed stored ${n} of ${count} messages`);
  await admin.query(`ALTER TABLE ${prefix}messages ADD CONSTRAINT ${prefix}messages_id_key UNIQUE (id)`);
  await admin.query(
    `CREATE UNIQUE INDEX ${prefix}messages_key_idx ON ${prefix}messages (webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
  );
  await admin.query(`CREATE INDEX ${prefix}messages_channel_feed_idx ON ${prefix}messages (channel_id, tx, seq)`);
  await admin.query(`VACUUM ANALYZE ${prefix}messages`);
}

/** @param {Redis} client */
async function redisCounters(client) {
  const info = await client.info('all');
  let calls = 0;
  for (const [, name, count] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    if (name !== 'info') calls += Number(count);
  const cpu = (infoNumber(info, 'used_cpu_sys') + infoNumber(info, 'used_cpu_user')) * 1e6;
  return { calls, cpu };
}

/**
 * `count` instances behind one port for `seconds` × 2: most posts go to 2,000 webhooks at random,
 * 10% carry one of 500 keys on 50 webhooks (each key sent several times, through every instance),
 * and 2 fresh hot webhooks get 20% of all posts, far over 60 a minute. Checked at the end against
 * the database: one message per key, one 201 at most per key, exactly 60 messages per hot webhook.
 */
/**
 * @typedef {{ path: string; kind: 'hot'; webhook: string; key?: undefined } | { path: string; kind: 'keyed'; key: string } | { path: string; kind: 'plain'; key?: undefined }} InstancePost
 * @typedef {{ cpuUs: number; primaryCpuUs: number; queries: number; redisCalls: number }} InstancesReport
 * @param {{ count: number; prefix: string; webhooks: number; postgres: { url: string }; redis: { url: string }; admin: Pool }} options
 */
async function measureInstances({ count, prefix, webhooks, postgres, redis, admin }) {
  log(`${count} instances behind one port`);
  const port = Number(new URL(postgres.url).port);
  const run = `n${count}`;
  const hot = [0, 1].map((i) => i + 2 * count);
  const normalFrom = 100;
  const child = fork(here('instances.mjs'), [], {
    env: {
      ...process.env,
      INSTANCES: JSON.stringify({
        count,
        databaseUrl: postgres.url,
        redisUrl: redis.url,
        prefix,
        keyPrefix: `scale:${run}:`,
        poolSize: 8,
      }),
    },
  });
  /** @type {{ port: number }} */
  const { port: httpPort } = await new Promise((resolve) => child.once('message', resolve));
  /** @returns {Promise<InstancesReport>} */
  const report = () => new Promise((resolve) => (child.once('message', resolve), child.send({ report: true })));
  const redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  try {
    const hotIds = hot.map((i) => webhookId(i));
    /** @returns {InstancePost} */
    const next = () => {
      const r = Math.random();
      if (r < 0.2) {
        const h = Math.floor(Math.random() * hot.length);
        return { path: webhookPath(roundRobin(hot, h)), kind: 'hot', webhook: roundRobin(hotIds, h) };
      }
      if (r < 0.3) {
        const key = Math.floor(Math.random() * 500);
        return { path: webhookPath(normalFrom + (key % 50)), key: `${run}-key-${key}`, kind: 'keyed' };
      }
      return { path: webhookPath(normalFrom + Math.floor(Math.random() * (webhooks - normalFrom))), kind: 'plain' };
    };
    /** @type {Partial<Record<InstancePost['kind'], Record<number, number>>>} */
    const statuses = {};
    /** @type {Map<string, number>} */
    const keysAnswered = new Map();
    const hotAnswers = new Map(hotIds.map((id) => [id, { sent: 0, created: 0 }]));
    /** @param {string} id */
    const hotOf = (id) => hotAnswers.get(id) ?? { sent: 0, created: 0 };
    /**
     * @param {InstancePost} post
     * @param {number} status
     */
    const onAnswer = (post, status) => {
      statuses[post.kind] = { ...statuses[post.kind], [status]: (statuses[post.kind]?.[status] ?? 0) + 1 };
      if (post.key !== undefined && (status === 200 || status === 201))
        keysAnswered.set(post.key, (keysAnswered.get(post.key) ?? 0) + (status === 201 ? 1 : 0));
      if (post.kind === 'hot') {
        const answers = hotOf(post.webhook);
        answers.sent++;
        if (status === 201) answers.created++;
      }
    };
    const before = {
      node: await report(),
      pg: postgresCpuUs(port),
      redis: await redisCounters(redisClient),
      wal: (await admin.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn,
    };
    const loadCpu = process.cpuUsage();
    const wall = performance.now();
    const connections = 64;
    const load = await httpLoad({ port: httpPort, seconds: seconds * 2, connections, next, onAnswer });
    const elapsed = (performance.now() - wall) / 1000;
    const generatorUs = ((c) => c.user + c.system)(process.cpuUsage(loadCpu));
    // Let the posts still in flight when the load stopped finish before counting rows.
    await new Promise((resolve) => setTimeout(resolve, SMOKE ? 200 : 1_000));
    const after = {
      node: await report(),
      pg: postgresCpuUs(port),
      redis: await redisCounters(redisClient),
      wal: (await admin.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn,
    };
    const wal = Number(
      (await admin.query('SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes', [after.wal, before.wal])).rows[0].bytes,
    );

    // The checks, against what PostgreSQL holds. Up to `connections` posts were unanswered when
    // the load stopped, so rows may exceed the 201 answers by that much, never fall short of them.
    const { rows: keyRows } = await admin.query(
      `SELECT idempotency_key::json #>> '{}' AS key, count(*)::int AS n FROM ${prefix}messages WHERE idempotency_key LIKE $1 GROUP BY 1`,
      [`"${run}-key-%`],
    );
    /** @type {Map<string, number>} */
    const stored = new Map(keyRows.map((row) => [row.key, row.n]));
    const createdKeyed = [...keysAnswered.values()].reduce((a, b) => a + b, 0);
    const { rows: hotRows } = await admin.query(
      `SELECT webhook_id, count(*)::int AS n FROM ${prefix}messages WHERE webhook_id = ANY($1) GROUP BY webhook_id`,
      [hotIds],
    );
    /** @type {Map<string, number>} */
    const hotStored = new Map(hotRows.map((row) => [row.webhook_id, row.n]));
    /** @param {string} id */
    const storedOf = (id) => hotStored.get(id) ?? 0;
    const checks = {
      // One row per key, a row for every key that was answered, and no key answered 201 twice.
      exactlyOnce:
        [...stored.values()].every((n) => n === 1) &&
        [...keysAnswered].every(([key, created]) => stored.get(key) === 1 && created <= 1) &&
        stored.size - createdKeyed >= 0 &&
        stored.size - createdKeyed <= connections,
      keysStored: stored.size,
      keyedCreatedAnswers: createdKeyed,
      keyedDuplicateAnswers: statuses.keyed?.[200] ?? 0,
      // Within the minute no hot webhook stores more than 60, and one answered more than 60 times
      // stores exactly 60; null when the run was too short for any hot webhook to pass 60.
      sixtyPerMinute: hotIds.some(
        (id) => storedOf(id) > 60 || hotOf(id).created > 60 || (hotOf(id).sent > 60 && storedOf(id) !== 60),
      )
        ? false
        : hotIds.every((id) => hotOf(id).sent > 60)
          ? true
          : null,
      hot: hotIds.map((id) => ({
        sent: hotOf(id).sent,
        created: hotOf(id).created,
        stored: storedOf(id),
      })),
    };
    const answered = load.posts;
    const created = Object.values(statuses).reduce((n, counts) => n + (counts[201] ?? 0), 0);
    /** @param {number} x */
    const per = (x) => round(x / answered, 1);
    return {
      instances: count,
      seconds: round(elapsed, 1),
      postsPerSecond: Math.round(answered / elapsed),
      storedPerSecond: Math.round(created / elapsed),
      p50Ms: load.p50Ms,
      p99Ms: load.p99Ms,
      errors: load.errors,
      statuses,
      checks,
      perPost: {
        nodeCpuUs: per(after.node.cpuUs - before.node.cpuUs),
        postgresCpuUs: per(after.pg - before.pg),
        redisCpuUs: per(after.redis.cpu - before.redis.cpu),
        loadGeneratorCpuUs: per(generatorUs),
        postgresRoundTrips: round((after.node.queries - before.node.queries) / answered, 2),
        walBytes: Math.round(wal / answered),
        walBytesPerStored: Math.round(wal / created),
        redisRoundTrips: round((after.node.redisCalls - before.node.redisCalls) / answered, 2),
        redisCommands: round((after.redis.calls - before.redis.calls) / answered, 2),
      },
      coresUsed: round(
        (after.node.cpuUs -
          before.node.cpuUs +
          after.pg -
          before.pg +
          after.redis.cpu -
          before.redis.cpu +
          generatorUs) /
          (elapsed * 1e6),
        2,
      ),
    };
  } finally {
    redisClient.disconnect();
    child.disconnect();
    if (child.exitCode === null) await once(child, 'exit');
  }
}

await main();
const { printReport } = await import('./report.mjs');
console.log(printReport(results));
// A smoke run's figures go to the process that started it, never where a real run's are.
if (SMOKE) process.send?.({ type: 'result', result: results });
else {
  writeFileSync(`${TMP}scale-results.json`, `${JSON.stringify(results, null, 2)}\n`);
  log(`written to ${TMP}scale-results.json (${results.minutes} min; root ${ROOT})`);
}
