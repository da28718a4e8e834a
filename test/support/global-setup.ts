import type { TestProject } from 'vitest/node';
import { serverBinaries, startPostgres, startRedis, type PostgresServer, type RedisServer } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's PostgreSQL, or null when there is none (see `backendsSkipped`). */
    databaseUrl: string | null;
    /** URL of the run's Redis, or null when there is none. */
    redisUrl: string | null;
    /** Why the PostgreSQL and Redis suites are skipped; empty when they run. */
    backendsSkipped: string[];
  }
}

/** True under CI, where a missing server must fail the run instead of skipping suites. */
export const isCi = (): boolean => ['true', '1'].includes((process.env.CI ?? '').toLowerCase());

/**
 * Starts one PostgreSQL and one Redis for the whole test run (unless DATABASE_URL / REDIS_URL point
 * at existing ones) and stops them afterwards. Each test file isolates itself with its own table
 * and key prefixes, so files still run in parallel.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binaries = serverBinaries();
  let postgres: PostgresServer | null = null;
  let redis: RedisServer | null = null;
  const skipped: string[] = [];

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

  const teardown = async () => {
    await Promise.all([postgres?.destroy(), redis?.destroy()]);
  };
  if (skipped.length > 0) {
    if (isCi()) {
      await teardown();
      throw new Error(`CI needs PostgreSQL and Redis for the backend suites, but: ${skipped.join('; ')}`);
    }
    console.warn(`\nPostgreSQL/Redis suites are SKIPPED locally: ${skipped.join('; ')}. Under CI=true this fails the run.\n`);
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('backendsSkipped', skipped);
  return teardown;
}
