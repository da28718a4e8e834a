// N instances behind one port (node:cluster), each with its own pool and Redis client, against one
// PostgreSQL and one Redis: `node instances.mjs` with INSTANCES (JSON) in the environment:
// { count, databaseUrl, redisUrl, prefix, keyPrefix, poolSize }. The primary tells the parent the
// port over IPC; { report: true } answers with every process's CPU time and the PostgreSQL
// queries and Redis calls the workers sent.

import cluster from 'node:cluster';
import { createServer } from 'node:http';

const options = JSON.parse(process.env.INSTANCES);

if (cluster.isPrimary) {
  const workers = Array.from({ length: options.count }, () => cluster.fork());
  const server = createServer();
  // A free port for all of them: the primary finds one, the workers listen on it.
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
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
  const ask = (worker) => new Promise((resolve) => (worker.once('message', resolve), worker.send({ report: true })));
  process.on('message', async () => {
    const reports = await Promise.all(workers.map(ask));
    const own = process.cpuUsage();
    const sum = (field) => reports.reduce((total, report) => total + report[field], 0);
    process.send({
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
  process.send({ port });
} else {
  const [{ default: pg }, { Redis }] = await Promise.all([import('pg'), import('ioredis')]);
  const { createWebhookHandler } = await import('channel-webhooks');
  const { createNodeListener } = await import('channel-webhooks/node');
  const { createPostgresStore } = await import('channel-webhooks/postgres');
  const { createRedisRateLimiter } = await import('channel-webhooks/redis');
  const counts = { queries: 0, redisCalls: 0 };
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
  pool.on('error', () => {});
  const query = pool.query.bind(pool);
  pool.query = (...args) => (counts.queries++, query(...args));
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
  });
  redis.on('error', () => {});
  const call = redis.call.bind(redis);
  redis.call = (...args) => (counts.redisCalls++, call(...args));
  const store = createPostgresStore({ pool, tablePrefix: options.prefix });
  const handle = createWebhookHandler({
    store,
    rateLimiter: createRedisRateLimiter({ client: redis, keyPrefix: options.keyPrefix }),
    onRateLimiterError: 'reject',
  });
  const server = createServer(createNodeListener(handle));
  server.keepAliveTimeout = 60_000;
  process.on('message', (message) => {
    if (message.port !== undefined) server.listen(message.port, '127.0.0.1');
    if (message.report) {
      const cpu = process.cpuUsage();
      process.send({ cpuUs: cpu.user + cpu.system, ...counts });
    }
  });
  process.send({ ready: true });
}
