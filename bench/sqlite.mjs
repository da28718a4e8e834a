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

import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SMALL } from './payloads.mjs';
import { openBenchStore } from './sqlite-stores.mjs';
import { round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_SQLITE_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const WEBHOOKS = 1_000;
const CONNECTIONS = 50;
const SERVER = fileURLToPath(new URL('./servers/sqlite-server.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cw-bench-sqlite-'));
let files = 0;
const newFile = () => join(dir, `bench-${files++}.sqlite`);

/** Posts through `handle` for `seconds`, `inFlight` at a time, each as the one before it answers; answers posts per second. */
async function inProcess(handle, paths, seconds, inFlight = 1) {
  const bytes = new TextEncoder().encode(SMALL);
  const headers = { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) };
  let posts = 0;
  let next = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const lane = async () => {
    while (performance.now() < deadline) {
      for (let i = 0; i < 100; i++) {
        const answer = await handle({ method: 'POST', url: paths[next++ % paths.length], headers, body: bytes });
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
const KINDS = ['memory', 'sqlite', 'sqlite-before'];

function launch(kind, file) {
  const child = fork(SERVER, [kind, file, String(WEBHOOKS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message) =>
      resolve({ ...message, stop: () => new Promise((done) => (child.once('exit', done), child.disconnect())) }),
    );
    child.once('exit', (code) => reject(new Error(`sqlite-server ${kind} exited with ${code}`)));
  });
}

/** Loads every server at once, `connections` each, for `seconds`; answers 2xx per second in total. */
async function load(servers, paths, seconds, connections) {
  const body = Buffer.from(SMALL);
  let next = 0;
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: `http://127.0.0.1:${server.port}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }),
          },
        ],
      }),
    ),
  );
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
  if (failed > 0) throw new Error(`over HTTP: ${failed} answers were not 2xx`);
  return results.reduce((sum, result) => sum + result['2xx'], 0) / seconds;
}

async function main() {
  // In process, the three alternating, on one handler each: one post at a time, then 32 in flight.
  const open = Object.fromEntries(
    await Promise.all(
      KINDS.map(async (kind) => [kind, await openBenchStore(kind, kind === 'memory' ? null : newFile(), WEBHOOKS)]),
    ),
  );
  const runs = { one: byKind(), inFlight: byKind() };
  for (const kind of KINDS) await inProcess(open[kind].handle, open[kind].paths, 0.5);
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
  const servers = {};
  [servers.memory, servers.sqlite, servers['sqlite-before'], servers.secondOnFile] = await Promise.all([
    launch('memory', ''),
    launch('sqlite', files.sqlite),
    launch('sqlite-before', files['sqlite-before']),
    launch('sqlite', files.sqlite),
  ]);
  const pathsOf = { memory: servers.memory.paths, sqlite: seeded.paths, 'sqlite-before': seeded.paths };
  const http = { ...byKind(), twoProcesses: [] };
  try {
    for (const kind of KINDS) await load([servers[kind]], pathsOf[kind], 1, CONNECTIONS);
    await load([servers.sqlite, servers.secondOnFile], seeded.paths, 1, CONNECTIONS / 2);
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

  const rate = (values) => summarize(values.map((x) => round(x)));
  const ratio = (a, b) => summarize(a.map((x, i) => round(x / b[i], 3)));
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
    before: process.env.BENCH_BASELINE ? 'the build of BENCH_BASELINE' : 'this build without groupCommit',
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
  result.table = tableOf(result);
  return result;
}

function byKind() {
  return Object.fromEntries(KINDS.map((kind) => [kind, []]));
}

/** Copies the channel and webhooks of `from` into `to` (the same secrets, so the same paths): both files hold the same data. */
async function seedLike(to, from) {
  const { default: Database } = await import('better-sqlite3');
  const database = new Database(to);
  database.exec(`ATTACH DATABASE '${from}' AS source`);
  database.exec('INSERT INTO channel_webhooks_channels SELECT * FROM source.channel_webhooks_channels');
  database.exec('INSERT INTO channel_webhooks_webhooks SELECT * FROM source.channel_webhooks_webhooks');
  database.exec('DETACH DATABASE source');
  database.close();
}

function tableOf(r) {
  const row = (label, set, target) => {
    const met = target === undefined ? '' : ` (target ≥ ${target}: ${set.ratio.median >= target ? 'met' : 'MISSED'})`;
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

const result = await main();
process.send?.({ type: 'result', result });
