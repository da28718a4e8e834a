export { createPostgresStore } from './create-postgres-store.js';
export type { PostgresQuery, PostgresQueryable, PostgresStore, PostgresStoreOptions } from './create-postgres-store.js';
export { DEFAULT_TABLE_PREFIX, postgresSchema } from './schema.js';
export type { PostgresSchemaOptions } from './schema.js';
export type { PostgresChannelSource } from './options.js';
