export { createMysqlStore } from './create-mysql-store.js';
export type { MysqlStore } from './create-mysql-store.js';
export type { MysqlConnection, MysqlPool, MysqlQuery, MysqlStoreOptions } from './options.js';
export { MYSQL_SCHEMA_VERSION, mysqlSchema } from './schema.js';
export type { MysqlSchemaOptions } from './schema.js';
export { DEFAULT_TABLE_PREFIX } from '../sql/index.js';
export type { ChannelSource, MessageColumns, MessageFixedValue, MessageMapping } from '../sql/index.js';
