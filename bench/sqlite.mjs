// The SQLite part: posts per second through the handler on the SQLite store and limiter (one file,
// WAL, synchronous NORMAL) against the memory store and limiter, in the same run. SQLite runs with
// group commit (`groupCommit: true`, as a server runs it) and without it ("before": the build in
// BENCH_BASELINE when given, else this build with the option off):
// - in process: `handle()` called in a loop, one post after the other (a batch is then one post:
//   this row shows what a lone post pays), and with 32 posts in flight;
// - over node:http: each server in its own process, loaded by autocannon from this one, rounds in turn;
// - two server processes on one SQLite file, loaded at once, against one process on it.
// Every post is a new message with no key (the limiters allow all of them). Settings:
//   BENCH_SQLITE_SECONDS  seconds of each run (default 2); BENCH_ROUNDS rounds (default 3)

/** @import { WebhookHandler } from 'channel-webhooks' */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BASELINE } from './build.mjs';
import { SMOKE, SMOKE_LOAD } from './internal.mjs';
import { SMALL } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';
import { openBenchStore } from './sqlite-stores.mjs';
import { perRound, round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_SQLITE_SECONDS ?? (SMOKE ? 0.1 : 2));
const rounds = Number(process.env.BENCH_ROUNDS ?? (SMOKE ? 1 : 3));
const WARM_UP = SMOKE ? 0.05 : 0.5;
const WEBHOOKS = SMOKE ? 50 : 1_000;
// Posts between two looks at the clock (and two turns of the event loop) in process.
const BETWEEN_TURNS = SMOKE ? 10 : 100;
const CONNECTIONS = 50;
const SERVER = fileURLToPath(new URL('./servers/sqlite-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cw-bench-sqlite-'));
let files = 0;
const newFile = () => join(dir, `bench-${files++}.sqlite`);

/**
 * Posts through `handle` for `seconds`, `inFlight` at a time, each as the one before it answers; answers posts per second.
 * @param {WebhookHandler} handle
 * @param {string[]} paths
 * @param {number} seconds
 */
async function inProcess(handle, paths, seconds, inFlight = 1) {
  const bytes = new TextEncoder().encode(SMALL);
  const headers = { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) };
  let posts = 0;
  let next = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const lane = async () => {
    while (performance.now() < deadline) {
      for (let i = 0; i < BETWEEN_TURNS; i++) {
        const answer = await handle({ method: 'POST', url: roundRobin(paths, next++), headers, body: bytes });
        if (answer.status !== 201) throw new Error(`in process: ${answer.status} ${JSON.stringify(answer.body)}`);
        posts++;
      }
      // A store that answers at once never yields: let the history's writer and timers run.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return posts / ((performance.now() - start) / 1000);
}

const IN_FLIGHT = 32;
/** @type {['memory', 'sqlite', 'sqlite-before']} */
const KINDS = ['memory', 'sqlite', 'sqlite-before'];

/**
 * @typedef {{ port: number; paths: string[]; stop: () => Promise<unknown> }} Server
 * @param {(typeof KINDS)[number]} kind
 * @param {string} file
 * @returns {Promise<Server>}
 */
function launch(kind, file) {
  const child = fork(SERVER, [kind, file, String(WEBHOOKS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (/** @type {{ port: number; paths: string[] }} */ message) =>
      resolve({ ...message, stop: () => new Promise((done) => (child.once('exit', done), child.disconnect())) }),
    );
    child.once('exit', (code) => reject(new Error(`sqlite-server ${kind} exited with ${code}`)));
  });
}

/**
 * Loads every server at once, `connections` each, for `seconds`; answers 2xx per second in total.
 * @param {Server[]} servers
 * @param {string[]} paths
 * @param {number} seconds
 * @param {number} connections
 */
async function load(servers, paths, seconds, connections) {
  const body = Buffer.from(SMALL);
  let next = 0;
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        ...SMOKE_LOAD,
        url: `http://127.0.0.1:${server.port}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            setupRequest: (request) => ({ ...request, path: roundRobin(paths, next++) }),
          },
        ],
      }),
    ),
  );
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
  if (failed > 0) throw new Error(`over HTTP: ${failed} answers were not 2xx`);
  return results.reduce((sum, result) => sum + result['2xx'], 0) / seconds;
}

async function measure() {
  // In process, the three alternating, on one handler each: one post at a time, then 32 in flight.
  const open = Object.fromEntries(
    await Promise.all(
      KINDS.map(async (kind) => [kind, await openBenchStore(kind, kind === 'memory' ? '' : newFile(), WEBHOOKS)]),
    ),
  );
  const runs = { one: byKind(), inFlight: byKind() };
  for (const kind of KINDS) await inProcess(open[kind].handle, open[kind].paths, WARM_UP);
  for (let r = 0; r < rounds; r++) {
    for (const kind of KINDS) runs.one[kind].push(await inProcess(open[kind].handle, open[kind].paths, seconds));
    for (const kind of KINDS)
      runs.inFlight[kind].push(await inProcess(open[kind].handle, open[kind].paths, seconds, IN_FLIGHT));
  }

  // Over node:http: one server of each, then two SQLite (group commit) servers on one file.
  const files = { sqlite: newFile(), 'sqlite-before': newFile() };
  const seeded = await openBenchStore('sqlite', files.sqlite, WEBHOOKS);
  await openBenchStore('sqlite-before', files['sqlite-before'], 0);
  await seedLike(files['sqlite-before'], files.sqlite);
  const [memory, sqlite, sqliteBefore, secondOnFile] = await Promise.all([
    launch('memory', ''),
    launch('sqlite', files.sqlite),
    launch('sqlite-before', files['sqlite-before']),
    launch('sqlite', files.sqlite),
  ]);
  const servers = { memory, sqlite, 'sqlite-before': sqliteBefore, secondOnFile };
  const pathsOf = { memory: servers.memory.paths, sqlite: seeded.paths, 'sqlite-before': seeded.paths };
  /** @type {ReturnType<typeof byKind> & { twoProcesses: number[] }} */
  const http = { ...byKind(), twoProcesses: [] };
  try {
    for (const kind of KINDS) await load([servers[kind]], pathsOf[kind], WARM_UP * 2, CONNECTIONS);
    await load([servers.sqlite, servers.secondOnFile], seeded.paths, WARM_UP * 2, CONNECTIONS / 2);
    for (let r = 0; r < rounds; r++) {
      for (const kind of KINDS) http[kind].push(await load([servers[kind]], pathsOf[kind], seconds, CONNECTIONS));
      http.twoProcesses.push(
        await load([servers.sqlite, servers.secondOnFile], seeded.paths, seconds, CONNECTIONS / 2),
      );
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }

  /** @param {number[]} values */
  const rate = (values) => summarize(values.map((x) => round(x)));
  /**
   * @param {number[]} a
   * @param {number[]} b
   */
  const ratio = (a, b) => summarize(perRound(a, b, (x, y) => round(x / y, 3)));
  /** @param {ReturnType<typeof byKind>} set */
  const compare = (set) => ({
    memory: rate(set.memory),
    sqlite: rate(set.sqlite),
    before: rate(set['sqlite-before']),
    ratio: ratio(set.sqlite, set.memory),
    beforeRatio: ratio(set['sqlite-before'], set.memory),
    afterToBefore: ratio(set.sqlite, set['sqlite-before']),
  });
  const result = {
    seconds,
    rounds,
    webhooks: WEBHOOKS,
    connections: CONNECTIONS,
    inFlight: IN_FLIGHT,
    before: BASELINE !== null ? 'the build of BENCH_BASELINE' : 'this build without groupCommit',
    settings: 'better-sqlite3, one file in the temporary directory, WAL, synchronous NORMAL; limiters allow every post',
    inProcess: compare(runs.one),
    inProcessInFlight: compare(runs.inFlight),
    http: {
      ...compare(http),
      twoProcessesOneFile: rate(http.twoProcesses),
      twoProcessesToOne: ratio(http.twoProcesses, http.sqlite),
    },
    target: { httpRatio: 0.6, inProcessRatio: 0.6 },
  };
  return result;
}

/** @returns {Record<(typeof KINDS)[number], number[]>} */
function byKind() {
  return { memory: [], sqlite: [], 'sqlite-before': [] };
}

/**
 * Copies the channel and webhooks of `from` into `to` (the same secrets, so the same paths): both files hold the same data.
 * @param {string} to
 * @param {string} from
 */
async function seedLike(to, from) {
  const { default: Database } = await import('better-sqlite3');
  const database = new Database(to);
  database.exec(`ATTACH DATABASE '${from}' AS source`);
  database.exec('INSERT INTO channel_webhooks_channels SELECT * FROM source.channel_webhooks_channels');
  database.exec('INSERT INTO channel_webhooks_webhooks SELECT * FROM source.channel_webhooks_webhooks');
  database.exec('DETACH DATABASE source');
  database.close();
}

/** @param {Awaited<ReturnType<typeof measure>>} r */
function tableOf(r) {
  /**
   * @param {string} label
   * @param {typeof r.inProcess} set
   * @param {number} [target]
   */
  const row = (label, set, target) => {
    const met = target === undefined ? '' : ` (target ≥ ${target}: ${set.ratio.median >= target ? 'met' : 'MISSED'})`;
    /** @param {import('./stats.mjs').Summary} x */
    const range = (x) => `${x.median} (${x.min}–${x.max})`;
    return `| ${label} | ${set.memory.median} | ${set.sqlite.median} | ${range(set.ratio)}${met} | ${set.before.median} | ${range(set.beforeRatio)} | ${range(set.afterToBefore)} |`;
  };
  return [
    `### SQLite store and limiter against memory (posts/s, median of ${r.rounds} × ${r.seconds} s)`,
    '',
    '| run | memory | SQLite, group commit | ÷ memory | SQLite before | before ÷ memory | group commit ÷ before |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    row('in process, one post after the other', r.inProcess),
    row(`in process, ${r.inFlight} in flight`, r.inProcessInFlight, r.target.inProcessRatio),
    row(`node:http, ${r.connections} connections`, r.http, r.target.httpRatio),
    `| node:http, two processes on one file (group commit) | | ${r.http.twoProcessesOneFile.median} | ${r.http.twoProcessesToOne.median} × one process | | | |`,
    '',
    `${r.settings}; "before" is ${r.before}. Ratios: median of the rounds (lowest–highest).`,
    '',
  ].join('\n');
}

const figures = await measure();
const result = { ...figures, table: tableOf(figures) };
/** @typedef {typeof result} SqliteResult */

if (process.send) process.send({ type: 'result', result });
else console.log(result.table);
