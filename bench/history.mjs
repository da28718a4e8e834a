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

import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { bundle } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_HISTORY_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const baselineRoot = process.env.BENCH_BASELINE || null;
const WEBHOOKS = 1_000;
const FLOODED = 10;
const CONCURRENCY = 32;
const CONNECTIONS = 50;
const LIMIT = 1_000_000;
const REFUSED = JSON.stringify({ text: 'deploy', attachments: [{ color: 'good', text: 'Slack only' }] });
const SERVER = fileURLToPath(new URL('./servers/history-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cw-bench-history-'));
let files = 0;
const newFile = () => join(dir, `history-${files++}.sqlite`);

const load = async (root) => {
  const from = (entry, name) =>
    root === null ? import(name) : import(pathToFileURL(join(root, 'dist', `${entry}.js`)).href);
  return {
    core: await from('index', 'channel-webhooks'),
    sqlite: await from('sqlite', 'channel-webhooks/sqlite'),
    postgres: await from('postgres', 'channel-webhooks/postgres'),
  };
};

/** Seeds `count` webhooks in `store`'s channel `general`; returns their URL paths. */
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

const withoutHistory = (store) => ({ ...store, recordPosts: undefined, listPosts: undefined });

/** A handler over `store` and the paths it posts to; the limiter allows every post unless `limit` says otherwise. */
function variant(core, store, paths, limit = LIMIT) {
  const handle = core.createWebhookHandler({
    store,
    rateLimiter: core.createMemoryRateLimiter({ limit }),
    onError: () => {},
  });
  return { handle, paths, next: 0 };
}

function requestOf(body) {
  const bytes = new TextEncoder().encode(body);
  return { headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) }, bytes };
}

/** Posts `body` one at a time for `seconds`, the loop yielding every 64 posts; answers posts per CPU-second. */
async function oneAtATime(v, body, seconds, expect = (status) => status === 201) {
  const { headers, bytes } = requestOf(body);
  let posts = 0;
  const cpu = process.cpuUsage();
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 64; i++) {
      const answer = await v.handle({ method: 'POST', url: v.paths[v.next++ % v.paths.length], headers, body: bytes });
      if (!expect(answer.status)) throw new Error(`unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
      posts++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(cpu);
  return (posts * 1e6) / (used.user + used.system);
}

/** `CONCURRENCY` posts in flight for `seconds`; answers posts per second of wall time. */
async function inFlight(v, body, seconds) {
  const { headers, bytes } = requestOf(body);
  let posts = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const answer = await v.handle({ method: 'POST', url: v.paths[v.next++ % v.paths.length], headers, body: bytes });
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
 */
async function compare(variants, run) {
  for (const v of Object.values(variants)) await run(v, 0.5);
  const names = Object.keys(variants);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse())
      samples[name].push(await run(variants[name], seconds));
  }
  return {
    rates: Object.fromEntries(names.map((name) => [name, summarize(samples[name].map((x) => round(x)))])),
    ratios: Object.fromEntries(
      names
        .filter((name) => name !== 'on')
        .map((name) => [`on/${name}`, summarize(samples.on.map((x, i) => round(x / samples[name][i], 3)))]),
    ),
  };
}

/** Records the store keeps over `paths`' webhooks, read through the port. */
async function kept(store, paths) {
  let records = 0;
  for (const path of paths) records += (await store.listPosts(path.split('/')[3], 100)).length;
  return records;
}

/** Part 1 and 3 on one store: stored posts with and without the history, then a flood. */
async function inProcess(name, open, run) {
  const store = await open.store(open.current);
  const paths = await seed(open.current.core, store);
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
  await open.close?.();
  return { store: name, stored, flood, floodHistory: { afterOne, afterTwo, bound: 100 * FLOODED } };
}

/** Part 2: one server process per variant over node:http; the server's CPU µs per post. */
async function overHttp(kind) {
  const launch = (history) => {
    const child = fork(SERVER, [kind, kind === 'sqlite' ? newFile() : '', String(WEBHOOKS), history], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('message', ({ port, paths }) =>
        resolve({
          port,
          paths,
          cpu: () =>
            new Promise(
              (done) => (child.once('message', (message) => done(message.micros)), child.send({ type: 'cpu' })),
            ),
          stop: () => new Promise((done) => (child.once('exit', done), child.disconnect())),
        }),
      );
      child.once('exit', (code) => reject(new Error(`history-server ${kind} ${history} exited with ${code}`)));
    });
  };
  const servers = { off: await launch('off'), on: await launch('on') };
  const body = Buffer.from(SMALL);
  const run = async (server, seconds) => {
    let next = 0;
    await server.cpu();
    const result = await autocannon({
      url: `http://127.0.0.1:${server.port}`,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          setupRequest: (request) => ({ ...request, path: server.paths[next++ % server.paths.length] }),
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

async function main() {
  const current = await load(null);
  const baseline = baselineRoot === null ? null : await load(baselineRoot);
  const { default: Database } = await import('better-sqlite3');
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
  const servers = await import(await bundle('servers.mjs', `export * from './test/support/servers.ts';`));
  const { missing } = servers.serverBinaries();
  if (missing.length > 0)
    results.inProcess.push({ store: 'PostgreSQL', skipped: `no ephemeral server: ${missing.join('; ')}` });
  else {
    const { default: pg } = await import('pg');
    const postgres = await servers.startPostgres();
    const pools = [];
    let prefixes = 0;
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
  const result = {
    seconds,
    rounds,
    webhooks: WEBHOOKS,
    flooded: FLOODED,
    concurrency: CONCURRENCY,
    connections: CONNECTIONS,
    baseline: baselineRoot !== null,
    ...results,
  };
  result.table = tableOf(result);
  return result;
}

function tableOf(r) {
  const ratio = (s) => (s === undefined ? '—' : `${s.median.toFixed(3)} (${s.min.toFixed(3)}–${s.max.toFixed(3)})`);
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
    if (s.skipped) lines.push(`| ${s.store} | skipped: ${s.skipped} | | | | | |`);
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
  for (const s of r.inProcess.filter((each) => !each.skipped)) {
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

const result = await main();
if (process.send) process.send({ type: 'result', result });
else console.log(JSON.stringify(result, null, 2));
