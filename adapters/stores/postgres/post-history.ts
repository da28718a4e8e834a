import { isFolded, POST_HISTORY_LIMIT, type PostRecord } from '../../../src/store-kit/index.js';

// The post history on PostgreSQL (see `postgresSchema`): batches appended to `post_log` in post
// order, folded into `post_chunks`, one row per webhook and fold, holding its records in order.

/**
 * Records an instance appends before it folds the log itself, so that a log nobody reads stays
 * bounded. A fold costs more per webhook it writes (a chunk inserted, an older one deleted) than per
 * record: with 1,000 webhooks posting, folding every 2,048 records cost PostgreSQL 9.3 µs of CPU a
 * record, every 8,192 5.5 (the rings before cost 16.5), and a fold of 8,192 records takes 40 to 50 ms.
 */
export const FOLD_AT = 8_192;

/** A record as the log and the chunks keep it: `[status, at, count, code, errors, key, messageId, bodyBytes]`, errors and key as JSON text. */
export type StoredRecord = [number, number, number, string | null, string, string | null, string | null, number | null];

/** The append of one batch: its webhook ids, its records as one JSON array, and the places (from 1) of its 415s and 429s. */
export function appendPostsSql(p: string): string {
  return `INSERT INTO ${p}post_log (webhook_ids, records, folded) VALUES ($1::text[], $2::json, $3::integer[])`;
}

/**
 * The parameters of {@link appendPostsSql} for `records`, in their order. A record's errors and key
 * travel as JSON text inside the JSON array: PostgreSQL's JSON functions refuse `\u0000` and a lone
 * surrogate in what they unpack (a sender chooses both, as a property name a 400's pointer
 * repeats), and the fold unpacks only numbers.
 */
export function appendValues(records: readonly PostRecord[]): unknown[] {
  const folded: number[] = [];
  const stored = records.map((record, i): StoredRecord => {
    if (isFolded(record.status)) folded.push(i + 1);
    return [
      record.status,
      record.at,
      record.count,
      record.code,
      JSON.stringify(record.errors),
      record.idempotencyKey === null ? null : JSON.stringify(record.idempotencyKey),
      record.messageId,
      record.bodyBytes,
    ];
  });
  return [records.map((record) => record.webhookId), JSON.stringify(stored), folded];
}

/** A stored record with its minute's at and count: the JSON array it is, rebuilt. */
const withAtAndCount = (record: string, at: string, count: string) =>
  `json_build_array(${record}->0, ${at}, ${count}, ${record}->3, ${record}->4, ${record}->5, ${record}->6, ${record}->7)`;

/**
 * The fold, as one simple-protocol query, so one transaction on one connection whatever the pool
 * (PgBouncer in transaction mode included), in one round trip, leaving no session state:
 * - `pg_advisory_xact_lock`, keyed by the prefix (as `migrate()` is), makes folds take turns: the
 *   fold statement then reads what the fold before it committed. Appends take no lock: a batch
 *   committed after the fold's snapshot, or still open, stays in the log for the next fold.
 * - `taken` empties the log of what it holds; `incoming` is its records in post order (the log's
 *   `seq`, then each batch's own order).
 * - A minute's 415s of a webhook are one record, and so are its 429s (`minutes`: the first of them
 *   in the log, its count the sum and its `at` the earliest). When the webhook's last 100 records
 *   already hold that minute's record (`kept`), they are added to it (`added` rewrites its chunk);
 *   otherwise the first of them takes a place. Their at and count are read as `numeric`, so no
 *   value a record holds can make the fold fail and the log stay behind it.
 * - Each webhook's records go into one new chunk (`written`), numbered on from its newest chunk
 *   (`heads`), of its last 100 only; then its chunks wholly older than its last 100 records go.
 * - JIT is off for the transaction: the estimated cost of the statement passes `jit_above_cost`
 *   as the tables grow, and compiling it cost a fold seconds.
 */
export function foldPostsSql(p: string, lockKey: number): string {
  const last = POST_HISTORY_LIMIT;
  return `SET LOCAL jit = off;
SELECT pg_advisory_xact_lock(${lockKey});
WITH taken AS (
  DELETE FROM ${p}post_log RETURNING seq, webhook_ids, records, folded
), incoming AS MATERIALIZED (
  SELECT t.seq, e.o, e.webhook_id, e.r, e.o = ANY (t.folded) AS folded
  FROM taken t, ROWS FROM (unnest(t.webhook_ids), json_array_elements(t.records)) WITH ORDINALITY AS e(webhook_id, r, o)
), limited AS MATERIALIZED (
  SELECT i.seq, i.o, i.webhook_id, (i.r->>0)::integer AS status, (i.r->>1)::numeric AS at, (i.r->>2)::numeric AS count
  FROM incoming i WHERE i.folded
), minutes AS MATERIALIZED (
  SELECT DISTINCT ON (webhook_id, status, floor(at / 60000)) webhook_id, status, floor(at / 60000) AS minute, seq, o,
    min(at) OVER w AS at, sum(count) OVER w AS count
  FROM limited WINDOW w AS (PARTITION BY webhook_id, status, floor(at / 60000))
  ORDER BY webhook_id, status, floor(at / 60000), seq, o
), heads AS MATERIALIZED (
  SELECT w.webhook_id, coalesce(c.position + c.length, 0) AS next
  FROM (SELECT DISTINCT webhook_id FROM incoming) w
  LEFT JOIN LATERAL (
    SELECT position, length FROM ${p}post_chunks c WHERE c.webhook_id = w.webhook_id ORDER BY position DESC LIMIT 1
  ) c ON true
), kept AS MATERIALIZED (
  SELECT m.webhook_id, m.status, m.minute, m.at, m.count, k.position, k.o
  FROM minutes m JOIN heads h USING (webhook_id)
  CROSS JOIN LATERAL (
    SELECT c.position, e.o FROM ${p}post_chunks c, json_array_elements(c.records) WITH ORDINALITY AS e(r, o)
    WHERE c.webhook_id = m.webhook_id AND c.position + c.length > h.next - ${last} AND c.position + e.o - 1 >= h.next - ${last}
      AND (e.r->>0)::integer = m.status AND floor((e.r->>1)::numeric / 60000) = m.minute
    ORDER BY c.position DESC, e.o DESC LIMIT 1
  ) k
), added AS (
  UPDATE ${p}post_chunks c SET records = (
    SELECT json_agg(CASE WHEN k.o IS NULL THEN e.r
      ELSE ${withAtAndCount('e.r', 'least((e.r->>1)::numeric, k.at)', '(e.r->>2)::numeric + k.count')} END ORDER BY e.o)
    FROM json_array_elements(c.records) WITH ORDINALITY AS e(r, o)
    LEFT JOIN kept k ON k.webhook_id = c.webhook_id AND k.position = c.position AND k.o = e.o
  )
  WHERE (c.webhook_id, c.position) IN (SELECT webhook_id, position FROM kept)
), merged AS (
  SELECT l.seq, l.o, m.at, m.count, (l.seq, l.o) = (m.seq, m.o) AND k.webhook_id IS NULL AS stands
  FROM limited l JOIN minutes m ON m.webhook_id = l.webhook_id AND m.status = l.status AND m.minute = floor(l.at / 60000)
  LEFT JOIN kept k ON k.webhook_id = m.webhook_id AND k.status = m.status AND k.minute = m.minute
), grouped AS (
  SELECT i.webhook_id, count(*) AS total,
    json_agg(CASE WHEN d.seq IS NULL THEN i.r ELSE ${withAtAndCount('i.r', 'd.at', 'd.count')} END ORDER BY i.seq, i.o) AS records
  FROM incoming i LEFT JOIN merged d ON d.seq = i.seq AND d.o = i.o
  WHERE d.seq IS NULL OR d.stands
  GROUP BY i.webhook_id
), written AS (
  INSERT INTO ${p}post_chunks (webhook_id, position, length, records)
  SELECT g.webhook_id, h.next + greatest(g.total - ${last}, 0), least(g.total, ${last}),
    CASE WHEN g.total <= ${last} THEN g.records ELSE (
      SELECT json_agg(e.r ORDER BY e.o) FROM json_array_elements(g.records) WITH ORDINALITY AS e(r, o) WHERE e.o > g.total - ${last}
    ) END
  FROM grouped g JOIN heads h USING (webhook_id)
  RETURNING webhook_id, position + length AS next
)
DELETE FROM ${p}post_chunks c USING written w
WHERE c.webhook_id = w.webhook_id AND c.position < w.next - ${last} AND c.position + c.length <= w.next - ${last}`;
}

/** The chunks that hold a webhook's newest `$2` records, newest first, each its records as JSON text. */
export function listPostsSql(p: string): string {
  return `SELECT records::text AS fields FROM ${p}post_chunks
  WHERE webhook_id = $1 AND position + length > (
    SELECT position + length FROM ${p}post_chunks WHERE webhook_id = $1 ORDER BY position DESC LIMIT 1
  ) - $2
  ORDER BY position DESC`;
}

/** The newest `limit` records of `webhookId` (at most its last 100) from its chunks, newest first. */
export function readPosts(webhookId: string, chunks: StoredRecord[][], limit: number): PostRecord[] {
  const most = Math.min(limit, POST_HISTORY_LIMIT);
  const records: PostRecord[] = [];
  for (const chunk of chunks) {
    for (let i = chunk.length - 1; i >= 0 && records.length < most; i--) {
      const [status, at, count, code, errors, key, messageId, bodyBytes] = chunk[i]!;
      records.push({
        webhookId,
        at,
        status,
        code,
        errors: JSON.parse(errors),
        idempotencyKey: key === null ? null : JSON.parse(key),
        messageId,
        bodyBytes,
        count,
      });
    }
  }
  return records;
}
