import type { TestProject } from 'vitest/node';
import { checkRuntimeInstall } from '../runtimes/runtime-install.js';
import { mariadbForRun } from './mariadb-server.js';
import {
  serverBinaries,
  startPostgres,
  startRedis,
  startRedisCluster,
  type PostgresServer,
  type RedisClusterServer,
  type RedisServer,
} from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's PostgreSQL, or null when there is none (see `backendsSkipped`). */
    databaseUrl: string | null;
    /** URL of the run's Redis, or null when there is none. */
    redisUrl: string | null;
    /** `host:port` of each master of the run's Redis Cluster, or null when there is none. */
    redisClusterNodes: string[] | null;
    /** URL of the run's MariaDB (for `*.mysql.test.ts` files), or null when there is none. */
    mysqlUrl: string | null;
    /** Why the PostgreSQL and Redis suites are skipped; empty when they run. */
    backendsSkipped: string[];
  }
}

/** True under CI, where a missing server must fail the run instead of skipping suites. */
export const isCi = (): boolean => ['true', '1'].includes((process.env.CI ?? '').toLowerCase());

/**
 * Starts one PostgreSQL, one Redis and one three-master Redis Cluster for the whole test run (unless
 * DATABASE_URL / REDIS_URL / REDIS_CLUSTER_NODES point at existing ones) and stops them afterwards.
 * Each test file isolates itself with its own table and key prefixes, so files still run in parallel.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  checkRuntimeInstall(isCi());
  const binaries = serverBinaries();
  let postgres: PostgresServer | null = null;
  let redis: RedisServer | null = null;
  const skipped: string[] = [];
  // Started first and awaited last: its join takes about two seconds, spent while PostgreSQL starts.
  const cluster = startClusterUnlessGiven(binaries.redis !== null);
  // Only for a run with a *.mysql.test.ts file; its install takes seconds, spent beside the others'.
  const mariadb = mariadbForRun(project);

  let databaseUrl = process.env.DATABASE_URL || null;
  if (databaseUrl === null) {
    if (binaries.postgres !== null) {
      postgres = await startPostgres();
      databaseUrl = postgres.url;
    } else {
      skipped.push(binaries.missing.find((line) => line.startsWith('PostgreSQL'))!);
    }
  }
  let redisUrl = process.env.REDIS_URL || null;
  if (redisUrl === null) {
    if (binaries.redis !== null) {
      redis = await startRedis();
      redisUrl = redis.url;
    } else {
      skipped.push(binaries.missing.find((line) => line.startsWith('redis-server'))!);
    }
  }

  const { server: redisCluster, nodes: redisClusterNodes, failure } = await cluster;
  if (failure !== null) skipped.push(failure);
  const { url: mysqlUrl, server: mysql, failure: mysqlFailure } = await mariadb;
  if (mysqlFailure !== null) skipped.push(mysqlFailure);

  const teardown = async () => {
    await Promise.all([postgres?.destroy(), redis?.destroy(), redisCluster?.destroy(), mysql?.destroy()]);
  };
  if (skipped.length > 0) {
    if (isCi()) {
      await teardown();
      throw new Error(`CI needs PostgreSQL, Redis and MariaDB for the backend suites, but: ${skipped.join('; ')}`);
    }
    console.warn(
      `\nPostgreSQL/Redis suites are SKIPPED locally: ${skipped.join('; ')}. Under CI=true this fails the run.\n`,
    );
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('redisClusterNodes', redisClusterNodes);
  project.provide('mysqlUrl', mysqlUrl);
  project.provide('backendsSkipped', skipped);
  return teardown;
}

/**
 * The run's Redis Cluster: REDIS_CLUSTER_NODES (`host:port,host:port,…`) when set, else a fresh
 * one. Never throws: a failure is returned as the reason the cluster suites are skipped, which
 * fails the run under CI like any missing server.
 */
async function startClusterUnlessGiven(
  haveRedis: boolean,
): Promise<{ server: RedisClusterServer | null; nodes: string[] | null; failure: string | null }> {
  const given = process.env.REDIS_CLUSTER_NODES;
  if (given) return { server: null, nodes: given.split(','), failure: null };
  if (!haveRedis) return { server: null, nodes: null, failure: 'Redis Cluster (needs redis-server and redis-cli)' };
  try {
    const server = await startRedisCluster();
    return { server, nodes: server.nodes.map(({ host, port }) => `${host}:${port}`), failure: null };
  } catch (error) {
    return { server: null, nodes: null, failure: `Redis Cluster did not start: ${(error as Error).message}` };
  }
}
