// N instances behind one port (node:cluster), each with its own pool and Redis client, against one
// PostgreSQL and one Redis: `node instances.mjs` with INSTANCES (JSON) in the environment:
// { count, databaseUrl, redisUrl, prefix, keyPrefix, poolSize }. The primary tells the parent the
// port over IPC; { report: true } answers with every process's CPU time and the PostgreSQL
// queries and Redis calls the workers sent.

/** @import { Worker } from 'node:cluster' */
import cluster from 'node:cluster';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { countCalls } from '../count-calls.mjs';
import { fromEnvironment, portOf, tellParent } from '../child.mjs';

/**
 * @typedef {{ cpuUs: number; queries: number; redisCalls: number }} Report
 */

const options =
  /** @type {{ count: number; databaseUrl: string; redisUrl: string; prefix: string; keyPrefix: string; poolSize: number }} */ (
    fromEnvironment('INSTANCES')
  );

if (cluster.isPrimary) {
  const workers = Array.from({ length: options.count }, () => cluster.fork());
  const server = createServer();
  // A free port for all of them: the primary finds one, the workers listen on it.
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = portOf(server);
  await new Promise((resolve) => server.close(resolve));
  // Each worker says when it can take the port (its imports are asynchronous), then listens on it.
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise((resolve) => {
          worker.once('message', () => worker.send({ port }));
          worker.once('listening', resolve);
        }),
    ),
  );
  /**
   * @param {Worker} worker
   * @returns {Promise<Report>}
   */
  const ask = (worker) => new Promise((resolve) => (worker.once('message', resolve), worker.send({ report: true })));
  process.on('message', async () => {
    const reports = await Promise.all(workers.map(ask));
    const own = process.cpuUsage();
    /** @param {keyof Report} field */
    const sum = (field) => reports.reduce((total, report) => total + report[field], 0);
    tellParent({
      cpuUs: sum('cpuUs') + own.user + own.system,
      primaryCpuUs: own.user + own.system,
      queries: sum('queries'),
      redisCalls: sum('redisCalls'),
    });
  });
  process.on('disconnect', () => {
    for (const worker of workers) worker.kill();
    process.exit(0);
  });
  tellParent({ port });
} else {
  const [{ default: pg }, { Redis }] = await Promise.all([import('pg'), import('ioredis')]);
  const { createWebhookHandler } = await import('channel-webhooks');
  const { createNodeListener } = await import('channel-webhooks/node');
  const { createPostgresStore } = await import('channel-webhooks/postgres');
  const { createRedisRateLimiter } = await import('channel-webhooks/redis');
  const counts = { queries: 0, redisCalls: 0 };
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
  pool.on('error', () => {});
  countCalls(pool, 'query', () => counts.queries++);
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
  });
  redis.on('error', () => {});
  countCalls(redis, 'call', () => counts.redisCalls++);
  const store = createPostgresStore({ pool, tablePrefix: options.prefix });
  const handle = createWebhookHandler({
    store,
    rateLimiter: createRedisRateLimiter({ client: redis, keyPrefix: options.keyPrefix }),
    onRateLimiterError: 'reject',
  });
  const server = createServer(createNodeListener(handle));
  server.keepAliveTimeout = 60_000;
  process.on('message', (/** @type {{ port?: number; report?: true }} */ message) => {
    if (message.port !== undefined) server.listen(message.port, '127.0.0.1');
    if (message.report) {
      const cpu = process.cpuUsage();
      tellParent({ cpuUs: cpu.user + cpu.system, ...counts });
    }
  });
  tellParent({ ready: true });
}
