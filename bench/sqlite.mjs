// The SQLite part: posts per second through the handler on the SQLite store and limiter (one file,
// WAL, synchronous NORMAL) against the memory store and limiter, in the same run:
// - in process: `handle()` called in a loop, one post after the other;
// - over node:http: each server in its own process, loaded by autocannon from this one, A/B rounds;
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

/** Posts through `handle` one after the other for `seconds`; answers posts per second. */
async function inProcess(handle, paths, seconds) {
  const bytes = new TextEncoder().encode(SMALL);
  const headers = { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) };
  let posts = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 100; i++) {
      const answer = await handle({ method: 'POST', url: paths[posts % paths.length], headers, body: bytes });
      if (answer.status !== 201) throw new Error(`in process: ${answer.status} ${JSON.stringify(answer.body)}`);
      posts++;
    }
  }
  return posts / ((performance.now() - start) / 1000);
}

function launch(kind, file) {
  const child = fork(SERVER, [kind, file, String(WEBHOOKS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ ...message, stop: () => new Promise((done) => (child.once('exit', done), child.disconnect())) }));
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
  // In process, memory and SQLite alternating, on one handler each.
  const memory = await openBenchStore('memory', null, WEBHOOKS);
  const sqlite = await openBenchStore('sqlite', newFile(), WEBHOOKS);
  await inProcess(memory.handle, memory.paths, 0.5);
  await inProcess(sqlite.handle, sqlite.paths, 0.5);
  const runs = { memory: [], sqlite: [] };
  for (let r = 0; r < rounds; r++) {
    runs.memory.push(await inProcess(memory.handle, memory.paths, seconds));
    runs.sqlite.push(await inProcess(sqlite.handle, sqlite.paths, seconds));
  }

  // Over node:http: one memory server, one SQLite server, then two SQLite servers on one file.
  const file = newFile();
  const seeded = await openBenchStore('sqlite', file, WEBHOOKS);
  const [memoryServer, sqliteServer, secondOnFile] = await Promise.all([launch('memory', ''), launch('sqlite', file), launch('sqlite', file)]);
  const http = { memory: [], sqlite: [], twoProcesses: [] };
  try {
    await load([memoryServer], memoryServer.paths, 1, CONNECTIONS);
    await load([sqliteServer, secondOnFile], seeded.paths, 1, CONNECTIONS / 2);
    for (let r = 0; r < rounds; r++) {
      http.memory.push(await load([memoryServer], memoryServer.paths, seconds, CONNECTIONS));
      http.sqlite.push(await load([sqliteServer], seeded.paths, seconds, CONNECTIONS));
      http.twoProcesses.push(await load([sqliteServer, secondOnFile], seeded.paths, seconds, CONNECTIONS / 2));
    }
  } finally {
    await Promise.all([memoryServer.stop(), sqliteServer.stop(), secondOnFile.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }

  const rate = (values) => summarize(values.map((x) => round(x)));
  const ratio = (a, b) => summarize(a.map((x, i) => round(x / b[i], 3)));
  const result = {
    seconds,
    rounds,
    webhooks: WEBHOOKS,
    connections: CONNECTIONS,
    settings: 'better-sqlite3, one file in the temporary directory, WAL, synchronous NORMAL; limiters allow every post',
    inProcess: { memory: rate(runs.memory), sqlite: rate(runs.sqlite), ratio: ratio(runs.sqlite, runs.memory) },
    http: {
      memory: rate(http.memory),
      sqlite: rate(http.sqlite),
      ratio: ratio(http.sqlite, http.memory),
      twoProcessesOneFile: rate(http.twoProcesses),
      twoProcessesToOne: ratio(http.twoProcesses, http.sqlite),
    },
    target: { httpRatio: 0.8 },
  };
  result.table = tableOf(result);
  return result;
}

function tableOf(r) {
  const row = (label, memory, sqlite, ratio) => `| ${label} | ${memory} | ${sqlite} | ${ratio} |`;
  const met = r.http.ratio.median >= r.target.httpRatio ? 'met' : 'MISSED';
  return [
    `### SQLite store and limiter against memory (posts/s, median of ${r.rounds} × ${r.seconds} s)`,
    '',
    '| run | memory | SQLite | SQLite / memory |',
    '| --- | ---: | ---: | ---: |',
    row('in process, one post after the other', r.inProcess.memory.median, r.inProcess.sqlite.median, r.inProcess.ratio.median),
    row(
      `node:http, ${r.connections} connections`,
      r.http.memory.median,
      r.http.sqlite.median,
      `${r.http.ratio.median} (target ≥ ${r.target.httpRatio}: ${met})`,
    ),
    row('node:http, two processes on one file', '', r.http.twoProcessesOneFile.median, `${r.http.twoProcessesToOne.median} × one process`),
    '',
    `${r.settings}.`,
    '',
  ].join('\n');
}

const result = await main();
process.send?.({ type: 'result', result });
