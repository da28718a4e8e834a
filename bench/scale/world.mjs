// The worlds the scale benchmark posts into: webhooks and messages made from their index, so the
// seeding SQL and the load generator agree on ids and secrets without passing millions of them
// around. Ids and secrets keep the library's shapes (`wh_` and 22 base64url characters; 43).

// Each string is joined with `join`, which makes one flat string: a template literal makes a tree of
// pieces, which V8 flattens (a new string, pointed to from the old tree) the first time it is read.
// A request's URL and a stored id are flat; trees would make a post's cost depend on whether its
// webhook posted before, which a world of a million webhooks all posting would measure instead.

/**
 * @typedef {{ query(text: string, values?: unknown[]): Promise<unknown> }} Queryable
 */

/**
 * Webhook `i`'s id: `wh_` and its index in hex, zero-padded to 22 characters.
 * @param {number} i
 */
export const webhookId = (i) => ['wh_', i.toString(16).padStart(22, '0')].join('');

/**
 * Webhook `i`'s secret: `S` and its index in hex, zero-padded to 43 characters.
 * @param {number} i
 */
export const webhookSecret = (i) => ['S', i.toString(16).padStart(42, '0')].join('');

/**
 * The path a post to webhook `i` goes to.
 * @param {number} i
 */
export const webhookPath = (i) => ['/hooks/channels/', webhookId(i), '/', webhookSecret(i)].join('');

/** Channels the webhooks are spread over (webhook `i` posts to channel `i % CHANNELS`). */
export const CHANNELS = 100;
/** @param {number} i */
export const channelOf = (i) => `ch-${i % CHANNELS}`;

/** The same ids and secrets in SQL, for `generate_series(...) AS i`. */
const SQL_ID = `'wh_' || lpad(to_hex(i), 22, '0')`;
const SQL_SECRET_HASH = `encode(sha256(convert_to('S' || lpad(to_hex(i), 42, '0'), 'UTF8')), 'hex')`;

/**
 * Inserts webhooks `from` … `to - 1` (and the channels) into the store's tables, in one statement each.
 * @param {Queryable} pool
 * @param {string} prefix
 * @param {number} from
 * @param {number} to
 */
export async function seedWebhooks(pool, prefix, from, to) {
  await pool.query(
    `INSERT INTO ${prefix}channels (id, owner_id, archived)
     SELECT 'ch-' || c, 'u1', false FROM generate_series(0, ${CHANNELS - 1}) AS c ON CONFLICT DO NOTHING`,
  );
  await pool.query(
    `INSERT INTO ${prefix}webhooks (id, channel_id, name, secret_hash, created_by, created_at)
     SELECT ${SQL_ID}, 'ch-' || (i % ${CHANNELS}), 'bench ' || i, ${SQL_SECRET_HASH}, 'u1', 1764000000000 + i
     FROM generate_series(${from}, ${to - 1}) AS i`,
  );
}

/**
 * Message `i`'s id in SQL, shaped as the store makes them (a version 7 UUID: its time in ms in the
 * first 48 bits, here `ms`, then random bits, here from md5), so the seeded ids sort by time as the
 * ones posts add do, and the id index of a seeded world is the one a store that lived that long holds.
 * @param {string} ms
 */
const sqlMessageId = (ms) =>
  `(SELECT substr(t, 1, 8) || '-' || substr(t, 9, 4) || '-7' || substr(h, 1, 3) || '-8' || substr(h, 4, 3) || '-' || substr(h, 7, 12)
    FROM (SELECT lpad(to_hex(${ms}), 12, '0') AS t, md5(i::text) AS h) AS parts)`;

/**
 * Adds messages `from` … `to - 1` to the store's message table: ~200-character texts spread over
 * `webhooks` webhooks and their channels, every `keyEvery`-th with an idempotency key, times one
 * second apart ending now, ids time-ordered as the store's. Sent in slices of `slice` rows so each
 * transaction stays small.
 * @param {Queryable} pool
 * @param {string} prefix
 * @param {number} from
 * @param {number} to
 * @param {{ webhooks: number; keyEvery?: number; slice?: number; onSlice?: (done: number) => void }} options
 */
export async function seedMessages(
  pool,
  prefix,
  from,
  to,
  { webhooks, keyEvery = 10, slice = 1_000_000, onSlice = () => {} },
) {
  const text = JSON.stringify(
    'deploy finished on production cluster eu-west with zero errors and all health checks green '
      .repeat(3)
      .slice(0, 200),
  );
  for (let start = from; start < to; start += slice) {
    const end = Math.min(to, start + slice);
    await pool.query(
      `INSERT INTO ${prefix}messages (id, channel_id, webhook_id, author_name, body, blocks, created_at, idempotency_key)
       SELECT ${sqlMessageId(`(extract(epoch FROM now()) * 1000)::bigint - (${to} - i)::bigint * 1000`)}, 'ch-' || (w % ${CHANNELS}), 'wh_' || lpad(to_hex(w), 22, '0'), 'bench ' || w,
              '${text}'::json, '[]'::json, now() - make_interval(secs => ${to} - i),
              CASE WHEN i % ${keyEvery} = 0 THEN '"seed-' || i || '"' END
       FROM generate_series(${start}, ${end - 1}) AS i, LATERAL (SELECT (i::bigint * 7919) % ${webhooks} AS w) AS pick`,
    );
    onSlice(end);
  }
}

/**
 * Puts the channels and webhooks `0` … `count - 1` into a memory store, hashing with `hashSecret`.
 * @param {import('channel-webhooks').MemoryStore} store
 * @param {number} count
 * @param {(secret: string) => string} hashSecret
 */
export function fillMemoryStore(store, count, hashSecret) {
  for (let c = 0; c < CHANNELS; c++) store.putChannel({ id: `ch-${c}`, ownerId: 'u1', archived: false });
  for (let i = 0; i < count; i++) {
    store.insertWebhook({
      id: webhookId(i),
      channelId: channelOf(i),
      name: `bench ${i}`,
      secretHash: hashSecret(webhookSecret(i)),
      createdBy: 'u1',
      createdAt: 1764000000000 + i,
      rotatedAt: null,
      revokedAt: null,
      lastPostAt: null,
      description: null,
      avatarUrl: null,
    });
  }
}
