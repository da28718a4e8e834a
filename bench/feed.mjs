// The feed part: what the message feed costs a post, and how long a message takes to reach a client.
// 1. The post, before and after the feed, in one run: this build against BENCH_BASELINE (a build of
//    the code before it; without one this half is skipped), in alternating rounds (A B B A …) on
//    the memory store and the SQLite store (in process, one post at a time) and the PostgreSQL store
//    (32 posts in flight on a pool of 10, a table prefix for each build, this build once with nobody
//    listening and once with the feed's LISTEN connection open), on the test cluster (fsync and
//    synchronous_commit off, set on its command line, which ALTER SYSTEM cannot override): NOTIFY's
//    lock at commit weighs more when each commit waits for the disk, which this part does not measure.
// 2. Latency from a post's 201 to its event reaching a Server-Sent Events client, on two instances
//    (processes) sharing one PostgreSQL: posts alternate between them at a steady rate, and a client
//    of each instance follows the channel. The instance stamps each message as it stores it (just
//    before the 201) and the client as the event arrives, on the machine's shared clock; the
//    clients share this process with the load, so on a busy machine their own delay is in it.
// Settings: BENCH_FEED_SECONDS seconds of each round (default 2); BENCH_ROUNDS rounds (default 3);
// BENCH_FEED_RATE posts per second of the latency runs (default 100).

/**
 * @import { MemoryStore } from 'channel-webhooks'
 * @import { PostgresStore } from 'channel-webhooks/postgres'
 * @import { SqliteStore } from 'channel-webhooks/sqlite'
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASELINE, importEntry } from './build.mjs';
import { SMOKE, loadServers } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';
import { handlerWorld } from './post-cost.mjs';
import { postgresCpuUs } from './scale/postgres-cpu.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_FEED_SECONDS ?? (SMOKE ? 0.1 : 2));
const rounds = Math.max(2, Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 2 : 3)));
const rate = Number(process.env.BENCH_FEED_RATE ?? 100);
const WEBHOOKS = SMOKE ? 20 : 300;
const CONCURRENCY = 32;
const INSTANCE = fileURLToPath(new URL('./servers/feed-instance.mjs', import.meta.url));

/**
 * @typedef {Awaited<ReturnType<typeof build>>} Build
 * @typedef {{ perSecond: number; nodeUs: number; serverUs: number }} Run
 */

/**
 * A build's entries: this one's through the package name, the baseline's from its dist/.
 * @param {string | null} root
 */
async function build(root) {
  const [core, sqlite, postgres] = await Promise.all([
    importEntry(root, 'index'),
    importEntry(root, 'sqlite'),
    importEntry(root, 'postgres'),
  ]);
  return { core, sqlite, postgres };
}

/**
 * A handler on `store` with `WEBHOOKS` webhooks of one channel, and their paths.
 * @param {Build} build
 * @param {MemoryStore | SqliteStore | PostgresStore} store
 */
const world = ({ core }, store) => handlerWorld(core, store, WEBHOOKS);

/**
 * Posts for `seconds`, `concurrency` at a time; answers posts per second and CPU µs per post (Node, and `server` when given).
 * @param {() => Promise<void>} post
 * @param {number} concurrency
 * @param {() => number} [server]
 * @returns {Promise<Run>}
 */
async function measure(post, concurrency, server = () => 0) {
  let posts = 0;
  const cpu = process.cpuUsage();
  const serverBefore = server();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await post();
        posts++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    perSecond: posts / ((performance.now() - start) / 1000),
    nodeUs: (used.user + used.system) / posts,
    serverUs: (server() - serverBefore) / posts,
  };
}

/**
 * Alternating rounds of `before` and `after` (A B B A …): each figure's median and range, and the after ÷ before ratios.
 * @param {() => Promise<void>} before
 * @param {() => Promise<void>} after
 * @param {number} concurrency
 * @param {() => number} [server]
 */
async function compare(before, after, concurrency, server) {
  /** @type {{ before: Run[]; after: Run[] }} */
  const runs = { before: [], after: [] };
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 === 0
      ? /** @type {const} */ (['before', 'after'])
      : /** @type {const} */ (['after', 'before']))
      runs[which].push(await measure(which === 'before' ? before : after, concurrency, server));
  }
  /**
   * @param {'before' | 'after'} which
   * @param {keyof Run} key
   */
  const figure = (which, key, digits = 1) => summarize(runs[which].map((run) => round(run[key], digits)));
  /** @param {keyof Run} key */
  const ratio = (key) =>
    summarize(perRound(runs.after, runs.before, (after, before) => round(after[key] / before[key], 3)));
  return {
    perSecond: {
      before: figure('before', 'perSecond', 0),
      after: figure('after', 'perSecond', 0),
      ratio: ratio('perSecond'),
    },
    nodeUs: { before: figure('before', 'nodeUs'), after: figure('after', 'nodeUs'), ratio: ratio('nodeUs') },
    ...(server === undefined
      ? {}
      : {
          serverUs: {
            before: figure('before', 'serverUs'),
            after: figure('after', 'serverUs'),
            ratio: ratio('serverUs'),
          },
          totalUs: totalRatio(runs),
        }),
  };
}

/**
 * After ÷ before of Node and PostgreSQL CPU per post together, per round.
 * @param {{ before: Run[]; after: Run[] }} runs
 */
function totalRatio(runs) {
  return summarize(
    perRound(runs.after, runs.before, (after, before) =>
      round((after.nodeUs + after.serverUs) / (before.nodeUs + before.serverUs), 3),
    ),
  );
}

/**
 * @typedef {{ baseline: string } & Partial<Record<'memory' | 'sqlite' | 'postgresUnwatched' | 'postgres', Awaited<ReturnType<typeof compare>>>>} Cost
 * @param {string} postgresUrl
 * @returns {Promise<Cost | { skipped: string }>}
 */
async function postCost(postgresUrl) {
  if (BASELINE === null)
    return { skipped: 'BENCH_BASELINE is not set: no build of the code before the feed to compare with' };
  if (!existsSync(join(BASELINE, 'dist', 'index.js'))) return { skipped: `BENCH_BASELINE has no dist/: ${BASELINE}` };
  const [before, after] = await Promise.all([build(BASELINE), build(null)]);
  /** @type {Cost} */
  const result = { baseline: BASELINE };

  result.memory = await compare(
    await world(before, before.core.createMemoryStore()),
    await world(after, after.core.createMemoryStore()),
    1,
  );

  const { default: Database } = await import('better-sqlite3');
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-feed-'));
  try {
    /**
     * @param {Build} which
     * @param {string} name
     */
    const open = (which, name) => which.sqlite.createSqliteStore({ database: new Database(join(dir, name)) });
    result.sqlite = await compare(
      await world(before, open(before, 'before.sqlite')),
      await world(after, open(after, 'after.sqlite')),
      1,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const { default: pg } = await import('pg');
  const port = Number(new URL(postgresUrl).port);
  const beforePool = new pg.Pool({ connectionString: postgresUrl, max: 10 });
  const afterPool = new pg.Pool({ connectionString: postgresUrl, max: 11 });
  const pools = [beforePool, afterPool];
  let stop = () => {};
  try {
    const beforeStore = before.postgres.createPostgresStore({ pool: beforePool, tablePrefix: 'bench_before_' });
    const afterStore = after.postgres.createPostgresStore({ pool: afterPool, tablePrefix: 'bench_after_' });
    for (const store of [beforeStore, afterStore]) await store.migrate();
    const [postBefore, postAfter] = [await world(before, beforeStore), await world(after, afterStore)];
    // First with nobody listening (the column, the wider keys, NOTIFY's queue), then as an instance
    // runs it: its LISTEN connection open, every notification delivered and read.
    result.postgresUnwatched = await compare(postBefore, postAfter, CONCURRENCY, () => postgresCpuUs(port));
    if (afterStore.watchFeed === undefined) throw new Error('the PostgreSQL store has no watchFeed');
    stop = afterStore.watchFeed(() => {});
    result.postgres = await compare(postBefore, postAfter, CONCURRENCY, () => postgresCpuUs(port));
  } finally {
    // The LISTEN connection goes back to its pool first: a pool ends only once every connection is back.
    stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.allSettled(pools.map((pool) => pool.end()));
  }
  return result;
}

/**
 * One instance of the latency runs, in its own process; `onStored(id, at)` hears when it stored each message.
 * @param {string} databaseUrl
 * @param {(id: string, at: number) => void} onStored
 * @returns {Promise<{ origin: string; stop: () => Promise<unknown> }>}
 */
function instance(databaseUrl, onStored) {
  const child = fork(INSTANCE, [databaseUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.on(
      'message',
      (/** @type {{ type: 'stored'; id: string; at: number } | { type: 'ready'; port: number }} */ message) => {
        if (message.type === 'stored') onStored(message.id, message.at);
        else
          resolve({
            origin: `http://127.0.0.1:${message.port}`,
            stop: () => new Promise((done) => (child.once('exit', done), child.disconnect())),
          });
      },
    );
    child.once('exit', (code) => reject(new Error(`feed-instance exited with ${code}`)));
  });
}

/** Now, on the clock the instances stamp with. */
const now = () => performance.timeOrigin + performance.now();

/**
 * Follows `url` as Server-Sent Events, calling `onEvent(messageId)` as each event is read.
 * @param {string} url
 * @param {(id: string, at: number) => void} onEvent
 * @param {AbortSignal} signal
 */
async function follow(url, onEvent, signal) {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  if (response.body === null) throw new Error(`${url} answered ${response.status} without a body`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        if (data !== undefined) onEvent(JSON.parse(data).id, now());
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  })();
}

/**
 * @param {number[]} sorted
 * @param {number} p
 */
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** @param {string} postgresUrl */
async function latency(postgresUrl) {
  const { createPostgresStore } = await import('channel-webhooks/postgres');
  const { createWebhookManager } = await import('channel-webhooks');
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
  const store = createPostgresStore({ pool, tablePrefix: 'bench_latency_' });
  await store.migrate();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  if (store.readFeed === undefined) throw new Error('the PostgreSQL store reads no feed');
  const manager = createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  /** @type {string[]} */
  const paths = [];
  for (let i = 0; i < (SMOKE ? 5 : 50); i++)
    paths.push(
      new URL(
        (await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `latency ${i}` })).url,
      ).pathname,
    );
  /** @type {Map<string, number>} */
  let stored = new Map();
  /**
   * @param {string} id
   * @param {number} at
   */
  const onStored = (id, at) => stored.set(id, at);
  const instances = [await instance(postgresUrl, onStored), await instance(postgresUrl, onStored)];
  /** @type {({ posts: number; failed: number; delivered: number[] } & Record<'p50' | 'p99' | 'sameP50' | 'sameP99' | 'otherP50' | 'otherP99', number>)[]} */
  const runs = [];
  try {
    for (let r = 0; r < rounds; r++) {
      /** @type {Map<string, number>} */
      const answered = new Map();
      stored = new Map();
      /** @type {Map<string, number>[]} */
      const arrived = [new Map(), new Map()];
      const stop = new AbortController();
      // Each client starts after the messages already stored: from the newest cursor there is.
      const { entries } = await store.readFeed({ channelId: 'general', limit: 1_000_000 });
      const after = entries.at(-1)?.cursor;
      await Promise.all(
        instances.map((each, i) =>
          follow(
            `${each.origin}/events${after === undefined ? '' : `?after=${encodeURIComponent(after)}`}`,
            (id, at) => arrived[i]?.set(id, at),
            stop.signal,
          ),
        ),
      );
      const count = Math.round(rate * seconds * 2);
      const sent = [];
      let failed = 0;
      const start = performance.now();
      for (let i = 0; i < count; i++) {
        const due = start + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        sent.push(
          fetch(`${roundRobin(instances, i).origin}${roundRobin(paths, i)}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: SMALL,
          }).then(async (response) => {
            const answer = await response.json();
            if (response.status === 201) answered.set(answer.message.id, i % 2);
            else failed++;
          }),
        );
      }
      await Promise.all(sent);
      const until = performance.now() + 10_000;
      while (arrived.some((map) => map.size < answered.size) && performance.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      stop.abort();
      /** @type {number[]} */
      const same = [];
      /** @type {number[]} */
      const other = [];
      for (const [id, instance] of answered) {
        for (const [i, map] of arrived.entries()) {
          const at = map.get(id);
          if (at !== undefined) (i === instance ? same : other).push(at - (stored.get(id) ?? Number.NaN));
        }
      }
      const all = [...same, ...other].sort((a, b) => a - b);
      same.sort((a, b) => a - b);
      other.sort((a, b) => a - b);
      runs.push({
        posts: count,
        failed,
        delivered: arrived.map((map) => map.size),
        p50: percentile(all, 50),
        p99: percentile(all, 99),
        sameP50: percentile(same, 50),
        sameP99: percentile(same, 99),
        otherP50: percentile(other, 50),
        otherP99: percentile(other, 99),
      });
    }
  } finally {
    await Promise.allSettled([...instances.map((each) => each.stop()), pool.end()]);
  }
  /** @param {'p50' | 'p99' | 'sameP50' | 'sameP99' | 'otherP50' | 'otherP99'} key */
  const figure = (key) => summarize(runs.map((run) => round(run[key], 1)));
  return {
    rate,
    postsPerRound: runs[0]?.posts,
    failed: runs.map((run) => run.failed),
    delivered: runs.map((run) => run.delivered),
    p50: figure('p50'),
    p99: figure('p99'),
    sameInstance: { p50: figure('sameP50'), p99: figure('sameP99') },
    otherInstance: { p50: figure('otherP50'), p99: figure('otherP99') },
  };
}

/**
 * The part's tables, in the shape of the report's.
 * @param {{ cost: Awaited<ReturnType<typeof postCost>>; latency: Awaited<ReturnType<typeof latency>> }} result
 */
function table(result) {
  const lines = [];
  /**
   * @param {import('./stats.mjs').Summary} s
   * @param {number} [digits]
   */
  const span = (s, digits = 0) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
  if ('skipped' in result.cost) lines.push(`The feed's cost to a post: skipped (${result.cost.skipped}).`);
  else {
    lines.push(
      `**The feed's cost to a post** — this build (after) against ${result.cost.baseline} (before) in alternating rounds of ${seconds} s; median (lowest–highest round). Ratios are after ÷ before, per round: below 1 for posts per second, or above 1 for CPU per post, is what the feed costs.`,
      '',
      '| Store | Posts/s before | Posts/s after | Posts/s after ÷ before | Node CPU µs/post before → after | ÷ | PostgreSQL CPU µs/post before → after | ÷ | All CPU ÷ |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const [name, key] of /** @type {const} */ ([
      ['memory, in process', 'memory'],
      ['SQLite, in process', 'sqlite'],
      ['PostgreSQL, 32 in flight, nobody listening (test cluster: fsync off)', 'postgresUnwatched'],
      ['PostgreSQL, 32 in flight, a LISTEN connection open (test cluster: fsync off)', 'postgres'],
    ])) {
      const run = result.cost[key];
      if (run === undefined) continue;
      const server =
        run.serverUs === undefined || run.totalUs === undefined
          ? ['', '', '']
          : [
              `${span(run.serverUs.before, 1)} → ${span(run.serverUs.after, 1)}`,
              span(run.serverUs.ratio, 3),
              span(run.totalUs, 3),
            ];
      lines.push(
        `| ${name} | ${span(run.perSecond.before)} | ${span(run.perSecond.after)} | ${span(run.perSecond.ratio, 3)} | ${span(run.nodeUs.before, 1)} → ${span(run.nodeUs.after, 1)} | ${span(run.nodeUs.ratio, 3)} | ${server.join(' | ')} |`,
      );
    }
    lines.push('');
  }
  {
    const l = result.latency;
    lines.push(
      `**From a post's 201 to its event at a client** — two instances (processes) on one PostgreSQL, ${l.rate} posts/s alternating between them, ${l.postsPerRound} posts per round, a Server-Sent Events client of each instance following the channel; ms from the message stored (just before its 201) to its event read by the client, median of the rounds (lowest–highest). Posts not answered 201 per round: ${l.failed.join(', ')}; delivered per round and client: ${l.delivered.map((pair) => pair.join('/')).join(', ')}.`,
      '',
      '| Client on | p50 ms | p99 ms |',
      '|---|--:|--:|',
      `| the instance that stored it | ${span(l.sameInstance.p50, 1)} | ${span(l.sameInstance.p99, 1)} |`,
      `| the other instance | ${span(l.otherInstance.p50, 1)} | ${span(l.otherInstance.p99, 1)} |`,
      `| both | ${span(l.p50, 1)} | ${span(l.p99, 1)} |`,
      '',
    );
  }
  return lines.join('\n');
}

async function main() {
  const servers = await loadServers();
  const { missing } = servers.serverBinaries();
  if (missing.length > 0) return { skipped: `no ephemeral servers: ${missing.join('; ')}`, table: '' };
  const postgres = await servers.startPostgres();
  try {
    const result = { cost: await postCost(postgres.url), latency: await latency(postgres.url) };
    return { ...result, table: table(result) };
  } finally {
    await postgres.destroy();
  }
}

/** @typedef {Awaited<ReturnType<typeof main>>} FeedResult */

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(result.table);
