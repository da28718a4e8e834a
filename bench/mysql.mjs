// The MySQL part: what a post costs on the MySQL store (on MariaDB), beside the PostgreSQL store in
// the same run, and against BENCH_BASELINE's MySQL store (a build of the code before a change;
// without one that side is left out). Each store is on a pool of 10 and a table prefix of its own,
// on the throwaway servers the tests start (MariaDB without a flush at each commit, the doublewrite
// buffer or the binary log; PostgreSQL with fsync and synchronous_commit off). Each post goes to the
// next of 300 webhooks of one channel through the handler, with a limiter that always allows (the
// store alone) and the post history on, as shipped; nobody follows the feed. Two runs, 1 post in
// flight (a post's latency alone) and 32, in rounds that take the stores in turn (A B C, C B A, …).
// Figures: posts per second, Node CPU and the server's CPU per post (its processes, from /proc), the
// statements (round trips) per post, and the wall time of a post (median and p99).
// Settings: BENCH_MYSQL_SECONDS seconds of each round (default 2); BENCH_ROUNDS rounds (default 3).

/**
 * @import { Side } from './post-cost.mjs'
 * @import { Summary } from './stats.mjs'
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE, importEntry } from './build.mjs';
import { countCalls } from './count-calls.mjs';
import { SMOKE, loadMariadb, loadServers } from './internal.mjs';
import { mariadbCpuUs } from './mariadb-cpu.mjs';
import { FIGURES, handlerWorld, measurePosts } from './post-cost.mjs';
import { postgresCpuUs } from './scale/postgres-cpu.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_MYSQL_SECONDS ?? (SMOKE ? 0.1 : 2));
const rounds = Math.max(2, Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 2 : 3)));
const WEBHOOKS = SMOKE ? 20 : 300;
const POOL_SIZE = 10;

/** @typedef {'mysql' | 'mysqlBaseline' | 'postgres'} SideName */

/** @type {Record<SideName, string>} */
const NAMES = {
  mysql: 'MariaDB, this build',
  mysqlBaseline: 'MariaDB, the baseline',
  postgres: 'PostgreSQL, this build',
};

/**
 * A mysql2 pool of 10 as the MySQL store takes it, whose statements (on the pool and in
 * transactions) are counted.
 * @param {typeof import('mysql2/promise')} mysql
 * @param {string} url
 */
function countedMysqlPool(mysql, url) {
  const pool = mysql.createPool({ uri: url, connectionLimit: POOL_SIZE });
  const counted = {
    statements: 0,
    end: () => pool.end(),
    /** @param {import('channel-webhooks/mysql').MysqlQuery} query */
    query: (query) => {
      counted.statements++;
      return /** @type {Promise<[unknown, unknown]>} */ (pool.query(query));
    },
    async getConnection() {
      const connection = await pool.getConnection();
      return {
        /** @param {import('channel-webhooks/mysql').MysqlQuery} query */
        query: (query) => {
          counted.statements++;
          return /** @type {Promise<[unknown, unknown]>} */ (connection.query(query));
        },
        release: () => connection.release(),
        destroy: () => connection.destroy(),
      };
    },
  };
  return counted;
}

/**
 * A pg pool of 10 whose statements are counted. Its connections stay open while the other stores
 * post: a server process that ends takes its CPU time out of the cluster's sum.
 * @param {typeof import('pg').default} pg
 * @param {string} url
 */
function countedPgPool(pg, url) {
  const pool = Object.assign(new pg.Pool({ connectionString: url, max: POOL_SIZE, idleTimeoutMillis: 0 }), {
    statements: 0,
  });
  pool.on('error', () => {});
  countCalls(pool, 'query', () => pool.statements++);
  return pool;
}

/**
 * Rounds of every side at `concurrency`, in turns: each figure's median and range per side, and per
 * round this build's MySQL store ÷ the baseline's and ÷ the PostgreSQL store.
 * @param {Partial<Record<SideName, Side>>} sides
 * @param {number} concurrency
 */
async function compare(sides, concurrency) {
  const names = /** @type {SideName[]} */ (Object.keys(sides));
  /** @type {Partial<Record<SideName, Awaited<ReturnType<typeof measurePosts>>[]>>} */
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++)
    for (const name of r % 2 === 0 ? names : [...names].reverse())
      runs[name]?.push(await measurePosts(/** @type {Side} */ (sides[name]), concurrency, seconds));
  /**
   * This build's MySQL store ÷ `over`, per round, of one figure.
   * @param {SideName} over
   * @param {(typeof FIGURES)[number]} key
   */
  const ratio = (over, key) =>
    runs[over] === undefined
      ? undefined
      : summarize(perRound(runs.mysql ?? [], runs[over], (a, b) => round(a[key] / b[key], 3)));
  return /** @type {Record<(typeof FIGURES)[number], { sides: Partial<Record<SideName, Summary>>; ofBaseline?: Summary; ofPostgres?: Summary }>} */ (
    Object.fromEntries(
      FIGURES.map((key) => [
        key,
        {
          sides: Object.fromEntries(
            names.map((name) => [name, summarize((runs[name] ?? []).map((run) => round(run[key], 3)))]),
          ),
          ofBaseline: ratio('mysqlBaseline', key),
          ofPostgres: ratio('postgres', key),
        },
      ]),
    )
  );
}

/**
 * @param {string} mariadbUrl
 * @param {string} postgresUrl
 */
async function postCost(mariadbUrl, postgresUrl) {
  const baseline =
    BASELINE !== null && existsSync(join(BASELINE, 'dist', 'mysql.js')) ? await importEntry(BASELINE, 'mysql') : null;
  const [core, { createMysqlStore }, { createPostgresStore }] = await Promise.all([
    importEntry(null, 'index'),
    importEntry(null, 'mysql'),
    importEntry(null, 'postgres'),
  ]);
  const baselineCore = baseline === null ? null : await importEntry(/** @type {string} */ (BASELINE), 'index');
  const [mysql, { default: pg }] = await Promise.all([import('mysql2/promise'), import('pg')]);
  const mariadbPort = Number(new URL(mariadbUrl).port);
  const postgresPort = Number(new URL(postgresUrl).port);
  const mysqlPool = countedMysqlPool(mysql, mariadbUrl);
  const baselinePool = countedMysqlPool(mysql, mariadbUrl);
  const pgPool = countedPgPool(pg, postgresUrl);
  try {
    const mysqlStore = createMysqlStore({ pool: mysqlPool, tablePrefix: 'bench_my_' });
    const pgStore = createPostgresStore({ pool: pgPool, tablePrefix: 'bench_my_' });
    /** @type {Partial<Record<SideName, Side>>} */
    const sides = {};
    await mysqlStore.migrate();
    sides.mysql = {
      post: await handlerWorld(core, mysqlStore, WEBHOOKS),
      statements: () => mysqlPool.statements,
      serverCpuUs: () => mariadbCpuUs(mariadbPort),
    };
    if (baseline !== null && baselineCore !== null) {
      const baselineStore = baseline.createMysqlStore({ pool: baselinePool, tablePrefix: 'bench_my_before_' });
      await baselineStore.migrate();
      sides.mysqlBaseline = {
        post: await handlerWorld(baselineCore, baselineStore, WEBHOOKS),
        statements: () => baselinePool.statements,
        serverCpuUs: () => mariadbCpuUs(mariadbPort),
      };
    }
    await pgStore.migrate();
    sides.postgres = {
      post: await handlerWorld(core, pgStore, WEBHOOKS),
      statements: () => pgPool.statements,
      serverCpuUs: () => postgresCpuUs(postgresPort),
    };
    const alone = await compare(sides, 1);
    const busy = await compare(sides, 32);
    return {
      baseline: baseline === null ? null : BASELINE,
      sides: /** @type {SideName[]} */ (Object.keys(sides)),
      alone,
      busy,
    };
  } finally {
    // The post history is written a tick after each answer: let the last batch land first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.allSettled([mysqlPool.end(), baselinePool.end(), pgPool.end()]);
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
  const names = result.sides;
  const lines = [
    `**The MySQL store on MariaDB, beside the PostgreSQL store${result.baseline === null ? '' : ' and against the baseline'}** — the handler, a limiter that always allows, the history on, ${WEBHOOKS} webhooks of one channel, pools of ${POOL_SIZE}, ${rounds} rounds of ${seconds} s taking the stores in turn; medians (lowest–highest round); ratios of this build's MySQL store per round.`,
    '',
    `| In flight | Figure | ${names.map((name) => NAMES[name]).join(' | ')} |${result.baseline === null ? '' : ' MariaDB ÷ baseline |'} MariaDB ÷ PostgreSQL |`,
    `|---|---|${names.map(() => '--:|').join('')}${result.baseline === null ? '' : '--:|'}--:|`,
  ];
  /** @type {[(typeof FIGURES)[number], string, number][]} */
  const figures = [
    ['perSecond', 'posts/s', 0],
    ['nodeUs', 'Node CPU µs/post', 1],
    ['serverUs', 'server CPU µs/post', 1],
    ['statements', 'statements/post', 2],
    ['p50Ms', 'p50 ms', 2],
    ['p99Ms', 'p99 ms', 2],
  ];
  for (const [run, inFlight] of /** @type {const} */ ([
    ['alone', 1],
    ['busy', 32],
  ]))
    for (const [key, label, digits] of figures) {
      const row = result[run][key];
      lines.push(
        `| ${inFlight} | ${label} | ${names.map((name) => span(row?.sides[name], digits)).join(' | ')} |${result.baseline === null ? '' : ` ${span(row?.ofBaseline, 3)} |`} ${span(row?.ofPostgres, 3)} |`,
      );
    }
  lines.push('');
  return lines.join('\n');
}

async function main() {
  const [servers, mariadb] = await Promise.all([loadServers(), loadMariadb()]);
  const missing = [...servers.serverBinaries().missing, mariadb.mariadbMissing()].filter((line) => line !== null);
  if (missing.length > 0) return { skipped: `no ephemeral servers: ${missing.join('; ')}`, table: '' };
  const [maria, postgres] = await Promise.all([mariadb.startMariadb(), servers.startPostgres()]);
  try {
    const result = await postCost(maria.url, postgres.url);
    return { ...result, skipped: undefined, table: table(result) };
  } finally {
    await Promise.allSettled([maria.destroy(), postgres.destroy()]);
  }
}

/** @typedef {Awaited<ReturnType<typeof main>>} MysqlResult */

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(result.table);
