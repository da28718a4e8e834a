import {
  checkArgument,
  checkOptions,
  invalidArgument,
  required,
  rule,
  type Message,
  type OptionsShape,
} from '../../../src/store-kit/index.js';

/**
 * Where a SQL store reads channels when the host app keeps them in a table (or view) of its own.
 * Every name is an identifier, spliced into SQL: lower-case letters, digits and `_`, starting with a
 * letter or `_`; `table` may carry a schema (`app.channels`).
 *
 * @example
 * ```ts
 * const channels: ChannelSource = { table: 'rooms', id: 'id', ownerId: 'owner_id', archived: 'is_archived' };
 * const store = createSqliteStore({ database, channels });
 * ```
 */
export interface ChannelSource {
  /** Table or view holding the channels, optionally schema-qualified. */
  table: string;
  /** Column of the channel id, text (PostgreSQL: `text` or `varchar`; for another type, give a view that casts it). Default `'id'`. */
  id?: string;
  /** Column of the owner's user id (read as text). Default `'owner_id'`. */
  ownerId?: string;
  /**
   * Column that is true when the channel is archived (`NULL` counts as not archived): `boolean` on
   * PostgreSQL, an integer on SQLite (non-zero is archived). Default `'archived'`.
   */
  archived?: string;
}

/**
 * The fields of a stored message that {@link MessageMapping} can map to the app's columns. `body`
 * is the message's text as it is, `blocks` its blocks as JSON text, `createdAt` its ISO 8601 time.
 *
 * @example
 * ```ts
 * const columns: MessageColumns = { id: 'id', channelId: 'room_id', body: 'text', createdAt: 'created_at' };
 * ```
 */
export interface MessageColumns {
  /** The message id (a UUID the handler made). */
  id?: string;
  /** The channel id. */
  channelId?: string;
  /** The webhook's id, the message's author. */
  webhookId?: string;
  /** The name shown as the message's author (the webhook's name, or the post's `username`). */
  authorName?: string;
  /** The message text. */
  body?: string;
  /** The message's blocks as JSON text (`[]` when there are none). */
  blocks?: string;
  /** When the message was stored, ISO 8601 in UTC. */
  createdAt?: string;
}

/** A fixed value the app gives a column of each webhook message: bound as a parameter, never spliced. */
export type MessageFixedValue = string | number | boolean | null;

/**
 * Where a SQL store also writes each message it stores: a row in the host app's own messages table,
 * in the same transaction as the library's own row and idempotency key, so a post answered 201 has
 * its row there, a duplicate adds none and a failure (a constraint of the app's table too) leaves
 * neither. `columns` names the app's column for each message field it wants; `values` gives other
 * columns a fixed value for every webhook message (`kind: 'webhook'`, the app's own author id).
 * Every name is an identifier, checked as {@link ChannelSource}'s; every value is bound.
 *
 * @example
 * ```ts
 * const messages: MessageMapping = {
 *   table: 'posts',
 *   columns: { id: 'id', channelId: 'room_id', body: 'text', authorName: 'author_name', createdAt: 'created_at' },
 *   values: { kind: 'webhook', user_id: 'bot' },
 * };
 * const store = createSqliteStore({ database, messages });
 * ```
 */
export interface MessageMapping {
  /** The app's messages table, optionally schema-qualified. */
  table: string;
  /** The app's column for each message field it keeps (at least one). */
  columns: MessageColumns;
  /** Fixed values of other columns, by column name. */
  values?: Record<string, MessageFixedValue>;
}

/** A checked channel source, every name filled in. */
export interface ResolvedChannelSource {
  table: string;
  id: string;
  ownerId: string;
  archived: string;
}

/** A checked message mapping: the app's columns in order, and how each gets its value. */
export interface ResolvedMessageMapping {
  table: string;
  /** Each column of the app's row, with the message field it takes or the fixed value it has. */
  columns: Array<{ column: string; field: keyof MessageColumns } | { column: string; value: MessageFixedValue }>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

const isIdentifier = (value: unknown): boolean => typeof value === 'string' && IDENTIFIER.test(value);

const COLUMN = rule('a lower-case column name (letters, digits, "_")', isIdentifier);

const TABLE = required(
  rule(
    'a lower-case identifier, optionally schema-qualified ("app.channels")',
    (value) => typeof value === 'string' && value.split('.').length <= 2 && value.split('.').every(isIdentifier),
  ),
);

/** The rule of the `channels` option itself; its keys are checked by {@link resolveChannelSource}. */
export const CHANNEL_SOURCE = rule(
  '{ table, id?, ownerId?, archived? }',
  (value) => typeof value === 'object' && value !== null,
);

/** The rule of the `messages` option itself; its keys are checked by {@link resolveMessageMapping}. */
export const MESSAGE_MAPPING = rule(
  '{ table, columns, values? }',
  (value) => typeof value === 'object' && value !== null,
);

const CHANNELS: OptionsShape = { table: TABLE, id: COLUMN, ownerId: COLUMN, archived: COLUMN };

const MESSAGE_FIELDS: ReadonlyArray<keyof MessageColumns> = [
  'id',
  'channelId',
  'webhookId',
  'authorName',
  'body',
  'blocks',
  'createdAt',
];

const MESSAGES: OptionsShape = {
  table: TABLE,
  columns: required(rule('{ id?, channelId?, … }', (value) => typeof value === 'object' && value !== null)),
  values: rule('an object of column names', (value) => typeof value === 'object' && value !== null),
};

const FIXED_VALUE = rule(
  'a string, a finite number, a boolean or null',
  (value) =>
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)),
);

/** Checks a `channels` option (already known to be an object, or absent) and fills in its defaults; `fallback` is the store's own table. */
export function resolveChannelSource(
  factory: string,
  source: ChannelSource | undefined,
  fallback: string,
): ResolvedChannelSource {
  checkOptions(factory, source, CHANNELS, 'options.channels', true);
  if (source === undefined) return { table: fallback, id: 'id', ownerId: 'owner_id', archived: 'archived' };
  return {
    table: source.table,
    id: source.id ?? 'id',
    ownerId: source.ownerId ?? 'owner_id',
    archived: source.archived ?? 'archived',
  };
}

/** Checks a `messages` option: known fields only, identifiers only, each column once, values bindable. */
export function resolveMessageMapping(
  factory: string,
  mapping: MessageMapping | undefined,
): ResolvedMessageMapping | null {
  if (mapping === undefined) return null;
  checkOptions(factory, mapping, MESSAGES, 'options.messages');
  const fieldShape: OptionsShape = Object.fromEntries(MESSAGE_FIELDS.map((field) => [field, COLUMN]));
  checkOptions(factory, mapping.columns, fieldShape, 'options.messages.columns');
  const columns: ResolvedMessageMapping['columns'] = [];
  for (const field of MESSAGE_FIELDS) {
    const column = mapping.columns[field];
    if (column !== undefined) columns.push({ column, field });
  }
  if (columns.length === 0)
    throw invalidArgument(factory, 'options.messages.columns must map at least one message field to a column');
  for (const [column, value] of Object.entries(mapping.values ?? {})) {
    if (value === undefined) continue;
    if (!isIdentifier(column))
      throw invalidArgument(
        factory,
        `options.messages.values has the key ${JSON.stringify(column)}, which is not a lower-case column name (letters, digits, "_")`,
      );
    checkArgument(factory, `options.messages.values.${column}`, value, FIXED_VALUE);
    columns.push({ column, value });
  }
  const seen = new Set<string>();
  for (const { column } of columns) {
    if (seen.has(column))
      throw invalidArgument(
        factory,
        `options.messages names the column \`${column}\` twice; each column takes one value`,
      );
    seen.add(column);
  }
  return { table: mapping.table, columns };
}

/** What the app's column mapped to `field` gets for `message`. */
export function messageFieldValue(message: Message, field: keyof MessageColumns): string {
  switch (field) {
    case 'id':
      return message.id;
    case 'channelId':
      return message.channelId;
    case 'webhookId':
      return message.author.id;
    case 'authorName':
      return message.author.name;
    case 'body':
      return message.body;
    case 'blocks':
      return JSON.stringify(message.blocks);
    case 'createdAt':
      return message.createdAt;
  }
}
