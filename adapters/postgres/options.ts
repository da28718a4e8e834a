import { ChannelWebhookError } from '../../src/internal.js';
import type { PostgresStoreOptions } from './create-postgres-store.js';
import { checkTablePrefix } from './schema.js';

/**
 * Where the store reads channels when the host app keeps them in a table (or view) of its own.
 * Every name is an identifier, spliced into SQL: lower-case letters, digits and `_`, starting with a
 * letter or `_`; `table` may carry a schema (`app.channels`).
 *
 * @example
 * ```ts
 * const channels: PostgresChannelSource = { table: 'channels', id: 'id', ownerId: 'owner_id', archived: 'is_archived' };
 * const store = createPostgresStore({ pool, channels });
 * ```
 */
export interface PostgresChannelSource {
  /** Table or view holding the channels, optionally schema-qualified. */
  table: string;
  /** Column of the channel id, `text` or `varchar` (for another type, give a view that casts it). Default `'id'`. */
  id?: string;
  /** Column of the owner's user id (read as `text`). Default `'owner_id'`. */
  ownerId?: string;
  /** `boolean` column, `true` when the channel is archived (`NULL` counts as not archived). Default `'archived'`. */
  archived?: string;
}

/** The checked options the store runs with. */
export interface ResolvedOptions {
  prefix: string;
  timeoutMs: number;
  channels: { table: string; id: string; ownerId: string; archived: string };
  maxConcurrentLookups: number;
  maxQueuedLookups: number;
  preparedStatements: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

// `pool` is checked here like every other option, so it may be anything.
export function resolveOptions(options: Omit<PostgresStoreOptions, 'pool'> & { pool?: unknown }): ResolvedOptions {
  if (typeof options !== 'object' || options === null) invalid('createPostgresStore needs an options object: { pool }');
  if (typeof (options.pool as { query?: unknown } | null | undefined)?.query !== 'function') {
    invalid('createPostgresStore needs { pool }: a node-postgres Pool (anything with query())');
  }
  const prefix = checkTablePrefix(options.tablePrefix);
  const timeoutMs = options.timeoutMs ?? 5_000;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    invalid(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  const maxConcurrentLookups = positiveInteger(options.maxConcurrentLookups ?? 8, 'maxConcurrentLookups', 1);
  const maxQueuedLookups = positiveInteger(options.maxQueuedLookups ?? 64, 'maxQueuedLookups', 0);
  const preparedStatements = options.preparedStatements ?? true;
  if (typeof preparedStatements !== 'boolean') invalid(`preparedStatements must be true or false, got ${String(preparedStatements)}`);
  return { prefix, timeoutMs, channels: resolveChannels(options.channels, prefix), maxConcurrentLookups, maxQueuedLookups, preparedStatements };
}

function resolveChannels(source: PostgresChannelSource | undefined, prefix: string): ResolvedOptions['channels'] {
  if (source === undefined) return { table: `${prefix}channels`, id: 'id', ownerId: 'owner_id', archived: 'archived' };
  if (typeof source !== 'object' || source === null) invalid('channels must be { table, id?, ownerId?, archived? }');
  const table = source.table;
  if (typeof table !== 'string' || !table.split('.').every((part) => IDENTIFIER.test(part)) || table.split('.').length > 2) {
    invalid(`channels.table must be a lower-case identifier, optionally schema-qualified ("app.channels"); got ${JSON.stringify(table)}`);
  }
  const column = (name: 'id' | 'ownerId' | 'archived', fallback: string): string => {
    const value = source[name] ?? fallback;
    if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
      invalid(`channels.${name} must be a lower-case column name (letters, digits, "_"); got ${JSON.stringify(value)}`);
    }
    return value;
  };
  return { table, id: column('id', 'id'), ownerId: column('ownerId', 'owner_id'), archived: column('archived', 'archived') };
}

function positiveInteger(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) invalid(`${name} must be an integer ≥ ${min}, got ${String(value)}`);
  return value;
}

function invalid(message: string): never {
  throw new ChannelWebhookError('invalid_argument', message);
}
