import { rule, type ArgumentRule } from '../../../src/store-kit/index.js';

/**
 * The table prefix used when none is given, by the PostgreSQL and the SQLite store alike.
 *
 * @example
 * ```ts
 * await pool.query(`SELECT count(*) FROM ${DEFAULT_TABLE_PREFIX}messages`);
 * ```
 */
export const DEFAULT_TABLE_PREFIX = 'channel_webhooks_';

/**
 * The rule of a table prefix, for every SQL store. Names are spliced into SQL (identifiers cannot
 * be bound as parameters), so only a plain lower-case identifier is accepted.
 */
export const TABLE_PREFIX: ArgumentRule = rule(
  '1-40 lower-case letters, digits or "_", starting with a letter or "_"',
  (value) => typeof value === 'string' && /^[a-z_][a-z0-9_]{0,39}$/.test(value),
);
