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

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundle } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { postgresCpuUs } from './scale/postgres-cpu.mjs';
import { round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_GROUP_SECONDS ?? 2);
const rounds = Math.max(2, Number(process.env.BENCH_ROUNDS ?? 3));
const baseline = process.env.BENCH_BASELINE || null;
const WEBHOOKS = 300;
const allowAll = {
  hit: () => ({ allowed: true, limit: 1_000_000, windowMs: 60_000, remaining: 999_999, resetMs: 60_000 }),
};
const body = new TextEncoder().encode(SMALL);
const headers = { 'content-type': 'application/json', 'content-length': String(body.byteLength) };

/** A build's entries: this one's through the package name, the baseline's from its dist/. */
async function build(root) {
  const at = (entry) =>
    root === null
      ? import(`channel-webhooks${entry === 'index' ? '' : `/${entry}`}`)
      : import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);
  const [core, postgres] = await Promise.all([at('index'), at('postgres')]);
  return { core, postgres };
}

/** A pool of 10 whose statements are counted. */
function countedPool(pg, url) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {});
  const query = pool.query.bind(pool);
  pool.statements = 0;
  pool.query = (...args) => (pool.statements++, query(...args));
  return pool;
}

/** A handler on `store` with `WEBHOOKS` webhooks of one channel: one post to the next of them. */
async function world({ core }, store) {
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = core.createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const paths = [];
  for (let i = 0; i < WEBHOOKS; i++)
    paths.push(
      new URL((await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` })).url)
        .pathname,
    );
  const handle = core.createWebhookHandler({ store, rateLimiter: allowAll });
  let next = 0;
  return async () => {
    const answer = await handle({ method: 'POST', url: paths[next++ % paths.length], headers, body: async () => body });
    if (answer.status !== 201) throw new Error(`post answered ${answer.status}`);
  };
}

/** Posts for `seconds`, `concurrency` at a time. */
async function measure({ post, pool }, concurrency, port) {
  let posts = 0;
  const walls = [];
  const cpu = process.cpuUsage();
  const serverBefore = postgresCpuUs(port);
  const statementsBefore = pool.statements;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const began = performance.now();
        await post();
        walls.push(performance.now() - began);
        posts++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  walls.sort((a, b) => a - b);
  return {
    perSecond: posts / ((performance.now() - start) / 1000),
    nodeUs: (used.user + used.system) / posts,
    serverUs: (postgresCpuUs(port) - serverBefore) / posts,
    statements: (pool.statements - statementsBefore) / posts,
    p50Ms: walls[Math.floor(walls.length / 2)],
    p99Ms: walls[Math.min(walls.length - 1, Math.floor(walls.length * 0.99))],
  };
}

const KEYS = ['perSecond', 'nodeUs', 'serverUs', 'statements', 'p50Ms', 'p99Ms'];

/** Alternating rounds of `before` and `after`: each figure's median and range, and the after ÷ before ratios per round. */
async function compare(before, after, concurrency, port) {
  const runs = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 === 0 ? ['before', 'after'] : ['after', 'before'])
      runs[which].push(await measure(which === 'before' ? before : after, concurrency, port));
  }
  const result = {};
  for (const key of KEYS) {
    result[key] = {
      before: summarize(runs.before.map((run) => round(run[key], 3))),
      after: summarize(runs.after.map((run) => round(run[key], 3))),
      ratio: summarize(runs.after.map((run, i) => round(run[key] / runs.before[i][key], 3))),
    };
  }
  return result;
}

async function postCost(postgresUrl) {
  if (baseline === null)
    return { skipped: 'BENCH_BASELINE is not set: no build of the code before group commit to compare with' };
  if (!existsSync(join(baseline, 'dist', 'index.js'))) return { skipped: `BENCH_BASELINE has no dist/: ${baseline}` };
  const [before, after] = await Promise.all([build(baseline), build(null)]);
  const { default: pg } = await import('pg');
  const port = Number(new URL(postgresUrl).port);
  const pools = [countedPool(pg, postgresUrl), countedPool(pg, postgresUrl)];
  const stores = [
    before.postgres.createPostgresStore({ pool: pools[0], tablePrefix: 'bench_gc_before_' }),
    after.postgres.createPostgresStore({ pool: pools[1], tablePrefix: 'bench_gc_after_' }),
  ];
  const stops = [];
  try {
    for (const store of stores) await store.migrate();
    const sides = [
      { post: await world(before, stores[0]), pool: pools[0] },
      { post: await world(after, stores[1]), pool: pools[1] },
    ];
    const result = { baseline };
    result.alone = await compare(sides[0], sides[1], 1, port);
    result.unwatched = await compare(sides[0], sides[1], 32, port);
    for (const store of stores) stops.push(store.watchFeed(() => {}));
    result.watched = await compare(sides[0], sides[1], 32, port);
    return result;
  } finally {
    for (const stop of stops) stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.allSettled(pools.map((pool) => pool.end()));
  }
}

const span = (s, digits = 0) =>
  s === undefined ? '' : `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/** The part's table, in the shape of the report's. */
function table(result) {
  if (result.skipped) return `**Group commit on PostgreSQL**: skipped (${result.skipped})\n`;
  const lines = [
    `**Group commit on PostgreSQL, this build against the baseline** — the handler on the PostgreSQL store, a limiter that always allows, the history on, ${WEBHOOKS} webhooks of one channel, pool of 10, ${rounds} rounds of ${seconds} s alternating; medians (lowest–highest round); ratios after ÷ before per round.`,
    '',
    '| Run | Figure | Before | After | After ÷ before |',
    '|---|---|--:|--:|--:|',
  ];
  const names = {
    alone: '1 in flight',
    unwatched: '32 in flight, nobody listening',
    watched: '32 in flight, LISTEN open',
  };
  const figures = {
    perSecond: ['posts/s', 0],
    nodeUs: ['Node CPU µs/post', 1],
    serverUs: ['PostgreSQL CPU µs/post', 1],
    statements: ['statements/post', 2],
    p50Ms: ['p50 ms', 2],
    p99Ms: ['p99 ms', 2],
  };
  for (const [run, name] of Object.entries(names)) {
    for (const [key, [label, digits]] of Object.entries(figures))
      lines.push(
        `| ${name} | ${label} | ${span(result[run][key].before, digits)} | ${span(result[run][key].after, digits)} | ${span(result[run][key].ratio, 3)} |`,
      );
  }
  lines.push('');
  return lines.join('\n');
}

async function main() {
  const servers = await import(await bundle('servers.mjs', `export * from './test/support/servers.ts';`));
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

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(result.table);
