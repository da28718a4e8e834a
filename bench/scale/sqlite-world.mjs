// A SQLite world for the world server: a database file with the store's schema, `webhooks`
// webhooks and `messages` messages (10% with idempotency keys), seeded with SQL in one transaction
// each, as the PostgreSQL worlds are (SQLite has no generate_series: a recursive CTE counts).

import { CHANNELS, webhookId, webhookSecret } from './world.mjs';

/**
 * Opens `file`, migrates it with the store and seeds it; returns the store. `cacheMiB` sets SQLite's page cache; `groupCommit` the store's option.
 * @param {{ file: string; webhooks: number; messages: number; cacheMiB?: number | undefined; groupCommit?: boolean; prefix?: string }} world
 * @param {(secret: string) => string} hashSecret
 */
export async function openSqliteWorld(
  { file, webhooks, messages, cacheMiB, groupCommit = false, prefix = 'channel_webhooks_' },
  hashSecret,
) {
  const [{ default: Database }, { createSqliteStore }] = await Promise.all([
    import('better-sqlite3'),
    import('channel-webhooks/sqlite'),
  ]);
  const database = new Database(file);
  const store = createSqliteStore({ database, tablePrefix: prefix, groupCommit });
  store.migrate();
  // SQLite's page cache is 2 MB unless the app sets it; `--sqlite-cache-mib` tries a larger one.
  if (cacheMiB !== undefined) database.pragma(`cache_size = -${cacheMiB * 1024}`);
  for (let c = 0; c < CHANNELS; c++) store.putChannel({ id: `ch-${c}`, ownerId: 'u1', archived: false });
  database.transaction(() => {
    const insert = database.prepare(
      `INSERT INTO ${prefix}webhooks (id, channel_id, name, secret_hash, created_by, created_at) VALUES (?, ?, ?, ?, 'u1', ?)`,
    );
    for (let i = 0; i < webhooks; i++)
      insert.run(webhookId(i), `ch-${i % CHANNELS}`, `bench ${i}`, hashSecret(webhookSecret(i)), 1764000000000 + i);
  })();
  if (messages > 0) {
    const text = JSON.stringify(
      'deploy finished on production cluster eu-west with zero errors and all health checks green '
        .repeat(3)
        .slice(0, 200),
    );
    database.exec(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${messages - 1})
       INSERT INTO ${prefix}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
       SELECT lower(hex(randomblob(16))), 'ch-' || (w % ${CHANNELS}), 'wh_' || printf('%022x', w), 'bench ' || w, '${text}', '[]',
              strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${messages} - i) || ' seconds'),
              CASE WHEN i % 10 = 0 THEN '"seed-' || i || '"' END
       FROM (SELECT i, (i * 7919) % ${webhooks} AS w FROM n)`,
    );
  }
  return { store, close: () => database.close() };
}
