export { createSqliteStore } from './create-sqlite-store.js';
export type { SqliteGroupCommitStore, SqliteStore, SqliteStoreOptions } from './create-sqlite-store.js';
export { createSqliteRateLimiter } from './create-sqlite-rate-limiter.js';
export type {
  SqliteGroupCommitRateLimiter,
  SqliteRateLimiter,
  SqliteRateLimiterOptions,
} from './create-sqlite-rate-limiter.js';
export type { SqliteConnectionOptions } from './options.js';
export type { ChannelSource, MessageColumns, MessageFixedValue, MessageMapping } from '../sql/index.js';
export type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
export { SQLITE_SCHEMA_VERSION, sqliteSchema } from './schema.js';
export type { SqliteSchemaOptions } from './schema.js';
