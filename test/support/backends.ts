import { inject } from 'vitest';

/** Why a server is missing when the global set-up did not run at all (a file run on its own, or the unit config). */
const NO_GLOBAL_SETUP = 'the global set-up did not run (npx vitest run --config vitest.config.ts <file> starts it)';

/** A value the global set-up provides, as a string or a list, or null whatever form its absence takes. */
const present = <T>(value: T | null | undefined): T | null =>
  value === undefined || value === null || (typeof value === 'string' && value === '') ? null : value;

/**
 * The run's PostgreSQL, Redis, Redis Cluster and MariaDB (from global-setup.ts), and a suite title that says
 * loudly why a suite is skipped when a server is missing. Skipping only happens outside CI: under CI
 * the global set-up fails the run instead. Without the global set-up, `inject()` gives `undefined`:
 * every server is then absent, never an `undefined` that a `=== null` check lets through.
 */
export function backends(): {
  databaseUrl: string | null;
  redisUrl: string | null;
  redisClusterNodes: string[] | null;
  mysqlUrl: string | null;
  skipped: string[];
  title: (name: string, needs: 'postgres' | 'redis' | 'both' | 'cluster' | 'mysql') => string;
} {
  const databaseUrl = present(inject('databaseUrl'));
  const redisUrl = present(inject('redisUrl'));
  const nodes = present(inject('redisClusterNodes'));
  const redisClusterNodes = nodes !== null && nodes.length > 0 ? nodes : null;
  const mysqlUrl = present(inject('mysqlUrl'));
  const given = inject('backendsSkipped');
  const skipped = Array.isArray(given) && given.length > 0 ? given : [NO_GLOBAL_SETUP];
  const title = (name: string, needs: 'postgres' | 'redis' | 'both' | 'cluster' | 'mysql') => {
    const missing =
      needs === 'cluster'
        ? redisClusterNodes === null
        : needs === 'mysql'
          ? mysqlUrl === null
          : (needs !== 'redis' && databaseUrl === null) || (needs !== 'postgres' && redisUrl === null);
    return missing ? `${name} (SKIPPED: ${skipped.join('; ')})` : name;
  };
  return { databaseUrl, redisUrl, redisClusterNodes, mysqlUrl, skipped, title };
}
