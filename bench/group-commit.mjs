// The group-commit part: what a post costs on PostgreSQL before and after posts share statements,
// in one run: this build against BENCH_BASELINE (a build of the code before it; without one the
// part is skipped), in alternating rounds (A B B A …), each build on a pool of 10 and a table prefix
// of its own, on the test cluster (fsync and synchronous_commit off). Each post goes to the next of
// 300 webhooks of one channel through the handler, with a limiter that always allows (the store
// alone), the post history on as shipped, and:
// - 32 posts in flight, nobody listening to the feed;
// - 32 posts in flight, the feed's LISTEN connection open (every NOTIFY delivered and read);
// - 1 post in flight: a post's latency alone, which batching must leave as it was.
// Figures: posts per second, Node CPU and PostgreSQL CPU (its processes, from /proc) per post, the
// statements (round trips) per post, and the wall time of a post alone (median and p99).
// Settings: BENCH_GROUP_SECONDS seconds of each round (default 2); BENCH_ROUNDS rounds (default 3).

/**
 * @import { PostgresStore } from 'channel-webhooks/postgres'
 * @import { Side } from './post-cost.mjs'
 * @import { Summary } from './stats.mjs'
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE, importEntry } from './build.mjs';
import { countCalls } from './count-calls.mjs';
import { SMOKE, loadServers } from './internal.mjs';
import { FIGURES as KEYS, handlerWorld, measurePosts } from './post-cost.mjs';
import { postgresCpuUs } from './scale/postgres-cpu.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_GROUP_SECONDS ?? (SMOKE ? 0.1 : 2));
const rounds = Math.max(2, Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 2 : 3)));
const WEBHOOKS = SMOKE ? 20 : 300;

/**
 * @typedef {Awaited<ReturnType<typeof build>>} Build
 */

/**
 * A build's entries: this one's through the package name, the baseline's from its dist/.
 * @param {string | null} root
 */
async function build(root) {
  const [core, postgres] = await Promise.all([importEntry(root, 'index'), importEntry(root, 'postgres')]);
  return { core, postgres };
}

/**
 * A pool of 10 whose statements are counted.
 * @param {typeof import('pg').default} pg
 * @param {string} url
 */
function countedPool(pg, url) {
  const pool = Object.assign(new pg.Pool({ connectionString: url, max: 10 }), { statements: 0 });
  pool.on('error', () => {});
  countCalls(pool, 'query', () => pool.statements++);
  return pool;
}

/**
 * A build's store as a side of the comparison: its posts, its pool's statements, the cluster's CPU.
 * @param {Build} build
 * @param {PostgresStore} store
 * @param {ReturnType<typeof countedPool>} pool
 * @param {number} port
 * @returns {Promise<Side>}
 */
async function side({ core }, store, pool, port) {
  return {
    post: await handlerWorld(core, store, WEBHOOKS),
    statements: () => pool.statements,
    serverCpuUs: () => postgresCpuUs(port),
  };
}

/**
 * Alternating rounds of `before` and `after`: each figure's median and range, and the after ÷ before ratios per round.
 * @param {Side} before
 * @param {Side} after
 * @param {number} concurrency
 */
async function compare(before, after, concurrency) {
  /** @type {{ before: Awaited<ReturnType<typeof measurePosts>>[]; after: Awaited<ReturnType<typeof measurePosts>>[] }} */
  const runs = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 === 0
      ? /** @type {const} */ (['before', 'after'])
      : /** @type {const} */ (['after', 'before']))
      runs[which].push(await measurePosts(which === 'before' ? before : after, concurrency, seconds));
  }
  const result = /** @type {Record<(typeof KEYS)[number], { before: Summary; after: Summary; ratio: Summary }>} */ (
    Object.fromEntries(
      KEYS.map((key) => [
        key,
        {
          before: summarize(runs.before.map((run) => round(run[key], 3))),
          after: summarize(runs.after.map((run) => round(run[key], 3))),
          ratio: summarize(perRound(runs.after, runs.before, (a, b) => round(a[key] / b[key], 3))),
        },
      ]),
    )
  );
  return result;
}

/**
 * @param {string} postgresUrl
 * @returns {Promise<{ skipped: string } | { baseline: string } & Record<'alone' | 'unwatched' | 'watched', Awaited<ReturnType<typeof compare>>>>}
 */
async function postCost(postgresUrl) {
  if (BASELINE === null)
    return { skipped: 'BENCH_BASELINE is not set: no build of the code before group commit to compare with' };
  if (!existsSync(join(BASELINE, 'dist', 'index.js'))) return { skipped: `BENCH_BASELINE has no dist/: ${BASELINE}` };
  const [before, after] = await Promise.all([build(BASELINE), build(null)]);
  const { default: pg } = await import('pg');
  const port = Number(new URL(postgresUrl).port);
  const [beforePool, afterPool] = [countedPool(pg, postgresUrl), countedPool(pg, postgresUrl)];
  const beforeStore = before.postgres.createPostgresStore({ pool: beforePool, tablePrefix: 'bench_gc_before_' });
  const afterStore = after.postgres.createPostgresStore({ pool: afterPool, tablePrefix: 'bench_gc_after_' });
  const stores = [beforeStore, afterStore];
  /** @type {(() => void)[]} */
  const stops = [];
  try {
    for (const store of stores) await store.migrate();
    const beforeSide = await side(before, beforeStore, beforePool, port);
    const afterSide = await side(after, afterStore, afterPool, port);
    const alone = await compare(beforeSide, afterSide, 1);
    const unwatched = await compare(beforeSide, afterSide, 32);
    for (const store of stores) {
      if (store.watchFeed === undefined) throw new Error('the PostgreSQL store has no watchFeed');
      stops.push(store.watchFeed(() => {}));
    }
    const watched = await compare(beforeSide, afterSide, 32);
    return { baseline: BASELINE, alone, unwatched, watched };
  } finally {
    for (const stop of stops) stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.allSettled([beforePool, afterPool].map((pool) => pool.end()));
  }
}

/**
 * @param {Summary | undefined} s
 * @param {number} [digits]
 */
const span = (s, digits = 0) =>
  s === undefined ? '' : `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/**
 * The part's table, in the shape of the report's.
 * @param {Awaited<ReturnType<typeof postCost>>} result
 */
function table(result) {
  if ('skipped' in result) return `**Group commit on PostgreSQL**: skipped (${result.skipped})\n`;
  const lines = [
    `**Group commit on PostgreSQL, this build against the baseline** — the handler on the PostgreSQL store, a limiter that always allows, the history on, ${WEBHOOKS} webhooks of one channel, pool of 10, ${rounds} rounds of ${seconds} s alternating; medians (lowest–highest round); ratios after ÷ before per round.`,
    '',
    '| Run | Figure | Before | After | After ÷ before |',
    '|---|---|--:|--:|--:|',
  ];
  /** @type {['alone' | 'unwatched' | 'watched', string][]} */
  const names = [
    ['alone', '1 in flight'],
    ['unwatched', '32 in flight, nobody listening'],
    ['watched', '32 in flight, LISTEN open'],
  ];
  /** @type {[(typeof KEYS)[number], string, number][]} */
  const figures = [
    ['perSecond', 'posts/s', 0],
    ['nodeUs', 'Node CPU µs/post', 1],
    ['serverUs', 'PostgreSQL CPU µs/post', 1],
    ['statements', 'statements/post', 2],
    ['p50Ms', 'p50 ms', 2],
    ['p99Ms', 'p99 ms', 2],
  ];
  for (const [run, name] of names) {
    for (const [key, label, digits] of figures)
      lines.push(
        `| ${name} | ${label} | ${span(result[run][key].before, digits)} | ${span(result[run][key].after, digits)} | ${span(result[run][key].ratio, 3)} |`,
      );
  }
  lines.push('');
  return lines.join('\n');
}

async function main() {
  const servers = await loadServers();
  const { missing } = servers.serverBinaries();
  if (missing.length > 0) return { skipped: `no ephemeral servers: ${missing.join('; ')}`, table: '' };
  const postgres = await servers.startPostgres();
  try {
    const result = await postCost(postgres.url);
    return { ...result, table: table(result) };
  } finally {
    await postgres.destroy();
  }
}

/** @typedef {Awaited<ReturnType<typeof main>>} GroupCommitResult */

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(result.table);
