import { invalidArgument } from '../../../src/store-kit/index.js';
import type { ResolvedChannelSource, ResolvedMessageMapping } from '../sql/index.js';
import type { SqliteRunner } from './sqlite-database.js';

/**
 * Checks, at start-up, that the app's tables given in the options (`null` when not) exist with the columns named:
 * a typo is then an `invalid_argument` from the factory instead of a 500 at the first post.
 * SQLite answers `table_info` for a view too, so a view of channels passes.
 */
export function checkAppTables(
  factory: string,
  runner: SqliteRunner,
  channels: ResolvedChannelSource | null,
  messages: ResolvedMessageMapping | null,
): void {
  if (channels !== null)
    requireColumns(factory, runner, 'options.channels', channels.table, [
      channels.id,
      channels.ownerId,
      channels.archived,
    ]);
  if (messages !== null)
    requireColumns(
      factory,
      runner,
      'options.messages',
      messages.table,
      messages.columns.map(({ column }) => column),
    );
}

function requireColumns(factory: string, runner: SqliteRunner, where: string, table: string, wanted: string[]): void {
  const [schema, name] = table.includes('.') ? table.split('.') : ['main', table];
  const rows = runner.attempt('start-up', () =>
    runner.statement(`PRAGMA ${schema}.table_info(${name})`).all(),
  ) as Array<{
    name: string;
  }>;
  if (rows.length === 0)
    throw invalidArgument(factory, `${where}.table names \`${table}\`, which is no table or view of the database`);
  const present = new Set(rows.map((row) => row.name.toLowerCase()));
  const missing = wanted.filter((column) => !present.has(column));
  if (missing.length > 0)
    throw invalidArgument(
      factory,
      `${where} names ${missing.map((column) => `\`${column}\``).join(', ')}, not a column of \`${table}\` (it has ${[...present].join(', ')})`,
    );
}
