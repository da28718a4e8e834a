// A full idempotency index (every message, NULL keys too) against the partial one the PostgreSQL
// store has (keyed messages only), on two message tables of N rows in one ephemeral PostgreSQL:
// inserts as posts make them (random webhook, 10% with a key, ON CONFLICT … DO UPDATE … RETURNING),
// in alternating rounds. `node bench/scale/key-index.mjs [rows]` (default 3,000,000: ~2.5 GB of
// disk, ~5 minutes on 2 cores). Prints the index sizes, then per round the inserts per second,
// PostgreSQL CPU per insert and index pages read from outside shared buffers per insert.

import pg from 'pg';
import { SMOKE, loadServers } from '../internal.mjs';
import { postgresCpuUs } from './postgres-cpu.mjs';

const rows = Number(process.argv[2] ?? (SMOKE ? 1_000 : 3_000_000));
const WEBHOOKS = 10_000;
const INSERTS = SMOKE ? 80 : 6_000;
const ROUNDS = SMOKE ? 1 : 3;
const servers = await loadServers();
const postgres = await servers.startPostgres();
const pool = new pg.Pool({ connectionString: postgres.url, max: 8 });
const port = Number(new URL(postgres.url).port);
const text = JSON.stringify(
  'deploy finished on production cluster eu-west with zero errors and all health checks green '.repeat(3).slice(0, 200),
);
const variants = {
  full: { index: '(webhook_id, idempotency_key)', conflict: '(webhook_id, idempotency_key)' },
  partial: {
    index: '(webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL',
    conflict: '(webhook_id, idempotency_key) WHERE idempotency_key IS NOT NULL',
  },
};
const webhook = () =>
  `wh_${Math.floor(Math.random() * WEBHOOKS)
    .toString(16)
    .padStart(22, '0')}`;

try {
  for (const [name, { index }] of Object.entries(variants)) {
    const table = `m_${name}`;
    await pool.query(`CREATE TABLE ${table} (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL UNIQUE, channel_id text NOT NULL,
      webhook_id text NOT NULL, author_name text NOT NULL, body json NOT NULL, blocks json NOT NULL, created_at timestamptz NOT NULL, idempotency_key text)`);
    await pool.query(`INSERT INTO ${table} (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
      SELECT md5(i::text)::uuid::text, 'ch-' || (i % 100), 'wh_' || lpad(to_hex((i::bigint * 7919) % ${WEBHOOKS}), 22, '0'), 'n', '${text}'::json, '[]'::json, now(),
             CASE WHEN i % 10 = 0 THEN '"seed-' || i || '"' END
      FROM generate_series(1, ${rows}) AS i`);
    await pool.query(`CREATE UNIQUE INDEX ${table}_key ON ${table} ${index}`);
    await pool.query(`CREATE INDEX ${table}_channel ON ${table} (channel_id, seq)`);
    await pool.query(`VACUUM ANALYZE ${table}`);
  }
  const { rows: sizes } = await pool.query(
    `SELECT relname AS index, pg_relation_size(oid) AS bytes FROM pg_class WHERE relname ~ '^m_(full|partial)_(key|id_key)$' ORDER BY 1`,
  );
  console.log(JSON.stringify({ rows, sizes }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, { conflict }] of Object.entries(variants)) {
      const table = `m_${name}`;
      const reads = async () =>
        (
          await pool.query('SELECT sum(idx_blks_read)::bigint AS read FROM pg_statio_user_indexes WHERE relname = $1', [
            table,
          ])
        ).rows[0].read;
      const [readBefore, cpuBefore, started] = [await reads(), postgresCpuUs(port), performance.now()];
      let keyed = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          for (let i = worker; i < INSERTS; i += 8) {
            await pool.query({
              name: `insert_${name}`,
              text: `INSERT INTO ${table} (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
                     VALUES (gen_random_uuid()::text, 'ch-1', $1, 'n', '"x"', '[]', now(), $2)
                     ON CONFLICT ${conflict} DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key RETURNING (xmax = 0) AS inserted`,
              values: [webhook(), Math.random() < 0.1 ? `"r-${round}-${keyed++}"` : null],
            });
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(
        JSON.stringify({
          index: name,
          round,
          insertsPerSecond: Math.round(INSERTS / seconds),
          postgresCpuUsPerInsert: Math.round((postgresCpuUs(port) - cpuBefore) / INSERTS),
          indexReadsPerInsert: Number(((Number(await reads()) - Number(readBefore)) / INSERTS).toFixed(2)),
        }),
      );
    }
  }
} finally {
  await pool.end();
  await postgres.destroy();
}
