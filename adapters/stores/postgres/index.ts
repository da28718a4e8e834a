export { createPostgresStore } from './create-postgres-store.js';
export type { PostgresStore } from './create-postgres-store.js';
export type {
  PostgresChannelSource,
  PostgresListenClient,
  PostgresQuery,
  PostgresQueryable,
  PostgresStoreOptions,
} from './options.js';
export { postgresSchema } from './schema.js';
export { POSTGRES_SCHEMA_VERSION, postgresMigrations } from './migrations.js';
export type { PostgresMigration } from './migrations.js';
export { DEFAULT_TABLE_PREFIX } from '../sql/index.js';
export type { ChannelSource, MessageColumns, MessageFixedValue, MessageMapping } from '../sql/index.js';
export type { PostgresSchemaOptions } from './schema.js';
