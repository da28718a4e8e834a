/**
 * What the SQL stores share (the PostgreSQL, MySQL and SQLite stores, and the Durable Object, whose
 * storage is SQLite): the table prefix's rule, the webhook table's columns, the bounded webhook
 * lookups and the group commit of the server stores, the host app's own tables (channels read
 * through, messages written beside the store's own), and the statements
 * whose SQL is the same on every SQLite database with the library's tables.
 *
 * @module
 */
export { DEFAULT_TABLE_PREFIX, TABLE_PREFIX } from './table-prefix.js';
export {
  CHANNEL_SOURCE,
  MESSAGE_MAPPING,
  messageFieldValue,
  resolveChannelSource,
  resolveMessageMapping,
  type ChannelSource,
  type MessageColumns,
  type MessageFixedValue,
  type MessageMapping,
  type ResolvedChannelSource,
  type ResolvedMessageMapping,
} from './app-tables.js';
export { WEBHOOK_COLUMNS, webhookRowValues } from './webhook-row.js';
export { createFailureReport } from './failure-report.js';
export { chunksOf, countPerWebhook, historySlotRows, postRecordValues } from './history-slots.js';
export { createLookupGate, createProvenCredentials, type LookupGate } from './lookup-gate.js';
export { createGroupCommit, type GroupCommitLimits, type Pending, type SendBatch } from './group-commit.js';
export {
  createSqliteStatements,
  MESSAGE_COLUMNS,
  orNull,
  toMessage,
  type LastPostPlace,
  type SqliteAppTables,
  type SqliteExec,
  type SqliteRow,
  type SqliteStatements,
} from './sqlite-statements.js';
