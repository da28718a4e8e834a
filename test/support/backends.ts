import { inject } from 'vitest';

/**
 * The run's PostgreSQL and Redis URLs (from global-setup.ts), and a suite title that says loudly
 * why a suite is skipped when a server is missing. Skipping only happens outside CI: under CI the
 * global setup fails the run instead.
 */
export function backends(): {
  databaseUrl: string | null;
  redisUrl: string | null;
  title: (name: string, needs: 'postgres' | 'redis' | 'both') => string;
} {
  const databaseUrl = inject('databaseUrl');
  const redisUrl = inject('redisUrl');
  const skipped = inject('backendsSkipped');
  const title = (name: string, needs: 'postgres' | 'redis' | 'both') => {
    const missing = (needs !== 'redis' && databaseUrl === null) || (needs !== 'postgres' && redisUrl === null);
    return missing ? `${name} (SKIPPED: ${skipped.join('; ')})` : name;
  };
  return { databaseUrl, redisUrl, title };
}
