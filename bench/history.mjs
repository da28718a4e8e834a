// The post history's cost, per store, in one run. The same webhooks are posted to through handlers
// that differ only in the history: `on` (the store's recordPosts), `off` (the same store without it)
// and, with BENCH_BASELINE, `before` (the build before the history, on a store of its own). Rounds
// alternate between them (A B, B A, …), so that a machine getting busier or quieter weighs on each
// alike; each ratio is taken round by round, and reported as its median and its range.
// 1. In process, one store at a time: memory and SQLite one post after the other, the event loop
//    turning every 64 posts as a server's does between requests (the history is written then), the
//    cost being this process's CPU time per post, history writes included; PostgreSQL with 32 posts
//    in flight on a pool of 10, on the ephemeral server the tests start, its cost the posts per
//    second of wall time (the server's work included).
// 2. Over node:http, memory and SQLite: a server process per variant, loaded by autocannon; the cost
//    is the server's CPU time per post.
// 3. A flood from senders holding valid URLs, under the default limit (60 a minute a webhook):
//    invalid posts to 10 webhooks, answered 400 and then 429; what a post then costs with the
//    history and without, and the history's size after one flood and after another.
// Every other limiter allows every post. Settings: BENCH_HISTORY_SECONDS (default 2) per round,
// BENCH_ROUNDS (default 3) rounds of each variant.

/**
 * @import { MemoryStore, WebhookHandler } from 'channel-webhooks'
 * @import { PostgresStore } from 'channel-webhooks/postgres'
 * @import { SqliteStore } from 'channel-webhooks/sqlite'
 * @import { Summary } from './stats.mjs'
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BASELINE, importEntry } from './build.mjs';
import { SMOKE, SMOKE_LOAD, loadServers } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_HISTORY_SECONDS ?? (SMOKE ? 0.1 : 2));
const rounds = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
const WARM_UP = SMOKE ? 0.05 : 0.5;
const WEBHOOKS = SMOKE ? 50 : 1_000;
// Posts between two turns of the event loop (and two looks at the clock), as a server's requests.
const BETWEEN_TURNS = SMOKE ? 8 : 64;
const FLOODED = 10;
const CONCURRENCY = 32;
const CONNECTIONS = 50;
const LIMIT = 1_000_000;
const REFUSED = JSON.stringify({ text: 'deploy', attachments: [{ color: 'good', text: 'Slack only' }] });
const SERVER = fileURLToPath(new URL('./servers/history-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cw-bench-history-'));
let files = 0;
const newFile = () => join(dir, `history-${files++}.sqlite`);

/**
 * @typedef {Awaited<ReturnType<typeof load>>} Build
 * @typedef {MemoryStore | SqliteStore | PostgresStore} Store
 * @typedef {{ handle: WebhookHandler; paths: string[]; next: number }} Variant
 * @typedef {{ rates: { off: Summary; on: Summary; before?: Summary }; ratios: { 'on/off': Summary; 'on/before'?: Summary } }} Comparison
 */

/** @param {string | null} root */
const load = async (root) => ({
  core: await importEntry(root, 'index'),
  sqlite: await importEntry(root, 'sqlite'),
  postgres: await importEntry(root, 'postgres'),
});

/**
 * Seeds `count` webhooks in `store`'s channel `general`; returns their URL paths.
 * @param {Build['core']} core
 * @param {Store} store
 */
async function seed(core, store, count = WEBHOOKS) {
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = core.createWebhookManager({ store, baseUrl: 'http://127.0.0.1' });
  const paths = [];
  for (let i = 0; i < count; i++) {
    const { url } = await manager.create({ userId: 'u1', role: 'owner' }, { channelId: 'general', name: `bench ${i}` });
    paths.push(new URL(url).pathname);
  }
  return paths;
}

/** @param {Store} store */
const withoutHistory = (store) => ({ ...store, recordPosts: undefined, listPosts: undefined });

/**
 * A handler over `store` and the paths it posts to; the limiter allows every post unless `limit` says otherwise.
 * @param {Build['core']} core
 * @param {Parameters<Build['core']['createWebhookHandler']>[0]['store']} store
 * @param {string[]} paths
 * @returns {Variant}
 */
function variant(core, store, paths, limit = LIMIT) {
  const handle = core.createWebhookHandler({
    store,
    rateLimiter: core.createMemoryRateLimiter({ limit }),
    onError: () => {},
  });
  return { handle, paths, next: 0 };
}

/** @param {string} body */
function requestOf(body) {
  const bytes = new TextEncoder().encode(body);
  return { headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) }, bytes };
}

/**
 * Posts `body` one at a time for `seconds`, the loop yielding every 64 posts (8 in a smoke run);
 * answers posts per CPU-second.
 * @param {Variant} v
 * @param {string} body
 * @param {number} seconds
 * @param {(status: number) => boolean} [expect]
 */
async function oneAtATime(v, body, seconds, expect = (status) => status === 201) {
  const { headers, bytes } = requestOf(body);
  let posts = 0;
  const cpu = process.cpuUsage();
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < BETWEEN_TURNS; i++) {
      const answer = await v.handle({ method: 'POST', url: roundRobin(v.paths, v.next++), headers, body: bytes });
      if (!expect(answer.status)) throw new Error(`unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
      posts++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(cpu);
  return (posts * 1e6) / (used.user + used.system);
}

/**
 * `CONCURRENCY` posts in flight for `seconds`; answers posts per second of wall time.
 * @param {Variant} v
 * @param {string} body
 * @param {number} seconds
 */
async function inFlight(v, body, seconds) {
  const { headers, bytes } = requestOf(body);
  let posts = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const answer = await v.handle({ method: 'POST', url: roundRobin(v.paths, v.next++), headers, body: bytes });
      if (answer.status !== 201) throw new Error(`unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
      posts++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  return posts / ((performance.now() - start) / 1000);
}

/**
 * Rounds of every variant, alternating, after a warm-up of each: each variant's rates (higher is
 * cheaper) and the per-round ratios of `on` to the others.
 * @template V
 * @param {{ off: V; on: V; before?: V }} variants
 * @param {(variant: V, seconds: number) => Promise<number>} run
 * @returns {Promise<Comparison>}
 */
async function compare(variants, run) {
  const sides = Object.entries(variants).map(([name, variant]) => ({
    name,
    variant: /** @type {V} */ (variant),
    samples: /** @type {number[]} */ ([]),
  }));
  for (const { variant } of sides) await run(variant, WARM_UP);
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) side.samples.push(await run(side.variant, seconds));
  }
  const on = /** @type {(typeof sides)[number]} */ (sides.find((side) => side.name === 'on'));
  return /** @type {Comparison} */ ({
    rates: Object.fromEntries(sides.map((side) => [side.name, summarize(side.samples.map((x) => round(x)))])),
    ratios: Object.fromEntries(
      sides
        .filter((side) => side !== on)
        .map((side) => [`on/${side.name}`, summarize(perRound(on.samples, side.samples, (a, b) => round(a / b, 3)))]),
    ),
  });
}

/**
 * Records the store keeps over `paths`' webhooks, read through the port.
 * @param {Store} store
 * @param {string[]} paths
 */
async function kept(store, paths) {
  let records = 0;
  for (const path of paths) records += (await store.listPosts(path.split('/')[3] ?? '', 100)).length;
  return records;
}

/**
 * Part 1 and 3 on one store: stored posts with and without the history, then a flood.
 * @param {string} name
 * @param {{ current: Build; baseline: Build | null; store: (build: Build) => Promise<Store> }} open
 * @param {(v: Variant, body: string, seconds: number) => Promise<number>} run
 */
async function inProcess(name, open, run) {
  const store = await open.store(open.current);
  const paths = await seed(open.current.core, store);
  /** @type {{ off: Variant; on: Variant; before?: Variant }} */
  const variants = {
    off: variant(open.current.core, withoutHistory(store), paths),
    on: variant(open.current.core, store, paths),
  };
  if (open.baseline !== null) {
    const before = await open.store(open.baseline);
    variants.before = variant(open.baseline.core, before, await seed(open.baseline.core, before));
  }
  const stored = await compare(variants, (v, s) => run(v, SMALL, s));

  // The flood: invalid posts to a few webhooks under the default limit, so most are 429s.
  const flooded = paths.slice(0, FLOODED);
  /** @param {number} status */
  const refusedOrLimited = (status) => status === 400 || status === 429;
  const floods = {
    off: variant(open.current.core, withoutHistory(store), flooded, 60),
    on: variant(open.current.core, store, flooded, 60),
  };
  const flood = await compare(floods, (v, s) => oneAtATime(v, REFUSED, s, refusedOrLimited));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const afterOne = await kept(store, flooded);
  await oneAtATime(floods.on, REFUSED, seconds, refusedOrLimited);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const afterTwo = await kept(store, flooded);
  return { store: name, stored, flood, floodHistory: { afterOne, afterTwo, bound: 100 * FLOODED } };
}

/**
 * Part 2: one server process per variant over node:http; the server's CPU µs per post.
 * @param {'memory' | 'sqlite'} kind
 */
async function overHttp(kind) {
  /**
   * @typedef {{ port: number; paths: string[]; cpu: () => Promise<number>; stop: () => Promise<unknown> }} Server
   * @param {'on' | 'off'} history
   * @returns {Promise<Server>}
   */
  const launch = (history) => {
    const child = fork(SERVER, [kind, kind === 'sqlite' ? newFile() : '', String(WEBHOOKS), history], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('message', (/** @type {{ port: number; paths: string[] }} */ { port, paths }) =>
        resolve({
          port,
          paths,
          cpu: () =>
            new Promise(
              (done) => (
                child.once('message', (/** @type {{ micros: number }} */ message) => done(message.micros)),
                child.send({ type: 'cpu' })
              ),
            ),
          stop: () => new Promise((done) => (child.once('exit', done), child.disconnect())),
        }),
      );
      child.once('exit', (code) => reject(new Error(`history-server ${kind} ${history} exited with ${code}`)));
    });
  };
  const servers = { off: await launch('off'), on: await launch('on') };
  const body = Buffer.from(SMALL);
  /**
   * @param {Server} server
   * @param {number} seconds
   */
  const run = async (server, seconds) => {
    let next = 0;
    await server.cpu();
    const result = await autocannon({
      ...SMOKE_LOAD,
      url: `http://127.0.0.1:${server.port}`,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          setupRequest: (request) => ({ ...request, path: roundRobin(server.paths, next++) }),
        },
      ],
    });
    if (result.non2xx + result.errors + result.timeouts > 0)
      throw new Error(`over HTTP: ${result.non2xx + result.errors + result.timeouts} answers were not 2xx`);
    // Posts per CPU-second of the server: higher is cheaper, as in the other parts.
    return (result['2xx'] * 1e6) / (await server.cpu());
  };
  try {
    return { store: kind === 'memory' ? 'memory' : 'SQLite', ...(await compare(servers, run)) };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

async function measure() {
  const current = await load(null);
  const baseline = BASELINE === null ? null : await load(BASELINE);
  const { default: Database } = await import('better-sqlite3');
  /** @type {{ inProcess: (Awaited<ReturnType<typeof inProcess>> | { store: string; skipped: string })[]; http: Awaited<ReturnType<typeof overHttp>>[] }} */
  const results = { inProcess: [], http: [] };

  results.inProcess.push(
    await inProcess('memory', { current, baseline, store: async ({ core }) => core.createMemoryStore() }, oneAtATime),
  );
  results.inProcess.push(
    await inProcess(
      'SQLite',
      {
        current,
        baseline,
        store: async ({ sqlite }) => sqlite.createSqliteStore({ database: new Database(newFile()) }),
      },
      oneAtATime,
    ),
  );
  const servers = await loadServers();
  const { missing } = servers.serverBinaries();
  if (missing.length > 0)
    results.inProcess.push({ store: 'PostgreSQL', skipped: `no ephemeral server: ${missing.join('; ')}` });
  else {
    const { default: pg } = await import('pg');
    const postgres = await servers.startPostgres();
    /** @type {import('pg').Pool[]} */
    const pools = [];
    let prefixes = 0;
    /** @param {Build} build */
    const store = async ({ postgres: module }) => {
      const pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
      pool.on('error', () => {});
      pools.push(pool);
      const made = module.createPostgresStore({ pool, tablePrefix: `bench_history_${prefixes++}_` });
      await made.migrate();
      return made;
    };
    try {
      results.inProcess.push(await inProcess('PostgreSQL', { current, baseline, store }, inFlight));
    } finally {
      await Promise.allSettled(pools.map((pool) => pool.end()));
      await postgres.destroy();
    }
  }
  results.http.push(await overHttp('memory'), await overHttp('sqlite'));
  rmSync(dir, { recursive: true, force: true });
  return {
    seconds,
    rounds,
    webhooks: WEBHOOKS,
    flooded: FLOODED,
    concurrency: CONCURRENCY,
    connections: CONNECTIONS,
    baseline: BASELINE !== null,
    ...results,
  };
}

/** @param {Awaited<ReturnType<typeof measure>>} r */
function tableOf(r) {
  /** @param {Summary | undefined} s */
  const ratio = (s) => (s === undefined ? '—' : `${s.median.toFixed(3)} (${s.min.toFixed(3)}–${s.max.toFixed(3)})`);
  /** @param {Summary} s */
  const met = (s) => (s.median >= 0.95 ? 'yes' : '**no**');
  const lines = [
    `### The post history's cost (${r.rounds} alternating rounds of ${r.seconds} s per variant; median, lowest–highest round)`,
    '',
    'Rates are posts per second of CPU (in process: this process; over HTTP: the server), or of wall time for PostgreSQL (the server included). A ratio of `on` to another variant below 1 is what the history costs.',
    '',
    '| Store | where | off | on | on ÷ off | ≥ 0.95 | on ÷ before |',
    '| --- | --- | ---: | ---: | ---: | :-: | ---: |',
  ];
  for (const s of r.inProcess) {
    if ('skipped' in s) lines.push(`| ${s.store} | skipped: ${s.skipped} | | | | | |`);
    else {
      const where = s.store === 'PostgreSQL' ? `in process, ${r.concurrency} in flight` : 'in process, one at a time';
      lines.push(
        `| ${s.store} | ${where} | ${s.stored.rates.off.median} | ${s.stored.rates.on.median} | ${ratio(s.stored.ratios['on/off'])} | ${met(s.stored.ratios['on/off'])} | ${ratio(s.stored.ratios['on/before'])} |`,
      );
    }
  }
  for (const s of r.http) {
    lines.push(
      `| ${s.store} | node:http, ${r.connections} connections | ${s.rates.off.median} | ${s.rates.on.median} | ${ratio(s.ratios['on/off'])} | ${met(s.ratios['on/off'])} | — |`,
    );
  }
  lines.push(
    '',
    `A flood: invalid posts to ${r.flooded} webhooks under the default limit (60 a minute each), so 400s, then 429s, one record a minute:`,
    '',
    '| Store | off | on | on ÷ off | records kept after a flood, after another (at most) |',
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const s of r.inProcess.filter((each) => 'flood' in each)) {
    const { afterOne, afterTwo, bound } = s.floodHistory;
    lines.push(
      `| ${s.store} | ${s.flood.rates.off.median} | ${s.flood.rates.on.median} | ${ratio(s.flood.ratios['on/off'])} | ${afterOne}, ${afterTwo} (${bound}) |`,
    );
  }
  lines.push(
    '',
    `${r.webhooks.toLocaleString('en-US')} webhooks, each post to the next. "off" is the same store without recordPosts; "before" the build of BENCH_BASELINE${r.baseline ? '' : ' (not given in this run)'}.`,
    '',
  );
  return lines.join('\n');
}

const figures = await measure();
const result = { ...figures, table: tableOf(figures) };
/** @typedef {typeof result} HistoryResult */

if (process.send) process.send({ type: 'result', result });
else console.log(JSON.stringify(result, null, 2));
