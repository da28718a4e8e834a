export { createPostgresStore } from './create-postgres-store.js';
export type { PostgresStore } from './create-postgres-store.js';
export type { PostgresChannelSource, PostgresQuery, PostgresQueryable, PostgresStoreOptions } from './options.js';
export { DEFAULT_TABLE_PREFIX, postgresSchema } from './schema.js';
export type { PostgresSchemaOptions } from './schema.js';
