// What a read of memory and a page of SQLite cost on this machine, the units of the growth model in
// docs/scaling.md: `node bench/scale/unit-costs.mjs` (after `npm run build`; ~1.5 GB of memory and
// ~300 MB of disk in bench/.tmp for ~1 minute). Prints one JSON line:
// - `memory`: ns per dependent read of a random cache line, from JavaScript, in a working set of
//   400 KB and of 400 MB: a typed array (a read per line), objects (one object to the next), and a
//   `Map` of 2,000 and of 2,000,000 webhook ids (a lookup with a string made as a URL's is, one field
//   of the value read).
// - `caches`: ns per dependent read in a typed array of 1 to 64 MB: how much of the caches a core
//   gets, where reads start to cost what no cache holds.
// - `sqlite`: µs of CPU per point read whose leaf page SQLite's cache holds and per one it reads from
//   the operating system's page cache; per page a transaction dirties (its change, its WAL frame at
//   commit and its copy at the checkpoint after: transactions of 32 updates, each row on a page of
//   its own against all on one page, less the reads), and of that the checkpoint's copy alone; with
//   SQLite's defaults (2 MB of cache, a checkpoint every 1,000 frames).

import { mkdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { SMOKE, TMP } from '../internal.mjs';
import { round } from './drive.mjs';

const SMALL_BYTES = 400 * 1024;
const LARGE_BYTES = SMOKE ? 4 * 2 ** 20 : 400 * 2 ** 20;
const STEPS = SMOKE ? 10_000 : 3_000_000;

/** A random cyclic order of `n` slots: each slot holds the next, so every read depends on the one before. */
function randomCycle(/** @type {number} */ n) {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const swap = /** @type {number} */ (order[i]);
    order[i] = /** @type {number} */ (order[j]);
    order[j] = swap;
  }
  return order;
}

/** @param {() => number} walk runs STEPS dependent reads; answers something read, so none is optimized away */
function nsPerStep(walk) {
  walk();
  const start = process.hrtime.bigint();
  const sink = walk();
  const ns = Number(process.hrtime.bigint() - start) / STEPS;
  return sink === -1 ? Number.NaN : round(ns, 1);
}

/** A typed array of `bytes`, one index per 64-byte line, each naming the next line to read. */
function typedArrayRead(/** @type {number} */ bytes) {
  const lines = Math.floor(bytes / 64);
  const order = randomCycle(lines);
  const next = new Int32Array(lines * 16);
  for (let k = 0; k < lines; k++)
    next[/** @type {number} */ (order[k]) * 16] = /** @type {number} */ (order[(k + 1) % lines]) * 16;
  return nsPerStep(() => {
    let at = 0;
    for (let i = 0; i < STEPS; i++) at = /** @type {number} */ (next[at]);
    return at;
  });
}

/** Objects of about 64 bytes, `bytes` of them, each pointing to the next in a random order. */
function objectRead(/** @type {number} */ bytes) {
  const count = Math.floor(bytes / 64);
  const order = randomCycle(count);
  /** @typedef {{ next: Node | null; n: number; a: string; b: number; c: null; d: null }} Node */
  /** @type {Node[]} */
  const nodes = Array.from({ length: count }, (_, n) => ({ next: null, n, a: 'x', b: 1.5, c: null, d: null }));
  for (let k = 0; k < count; k++)
    /** @type {Node} */ (nodes[/** @type {number} */ (order[k])]).next = /** @type {Node} */ (
      nodes[/** @type {number} */ (order[(k + 1) % count])]
    );
  let node = /** @type {Node} */ (nodes[0]);
  return nsPerStep(() => {
    for (let i = 0; i < STEPS; i++) node = /** @type {Node} */ (node.next);
    return node.n;
  });
}

const idOf = (/** @type {number} */ i) => ['wh_', i.toString(16).padStart(22, '0')].join('');

/** A Map of `count` webhook ids to records: ns per lookup by a fresh string, less the time to make it. */
function mapRead(/** @type {number} */ count) {
  /** @type {Map<string, { n: number }>} */
  const map = new Map();
  for (let i = 0; i < count; i++) map.set(idOf(i), { n: i });
  const steps = Math.min(STEPS, 1_000_000);
  const time = (/** @type {(key: string) => number} */ use) => {
    const start = process.hrtime.bigint();
    let sum = 0;
    for (let i = 0; i < steps; i++) sum += use(idOf((Math.random() * count) | 0));
    return { ns: Number(process.hrtime.bigint() - start) / steps, sum };
  };
  time((key) => key.length);
  const made = time((key) => key.length);
  const found = time((key) => /** @type {{ n: number }} */ (map.get(key)).n);
  return round(found.ns - made.ns, 1);
}

const cpuUs = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

/**
 * A SQLite file in WAL mode with `rows` rows of about 150 bytes (26 a page), rowid-keyed, as the
 * store opens its file (synchronous NORMAL, SQLite's 2 MB cache).
 * @param {string} file
 * @param {number} rows
 */
function sqliteFile(file, rows) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT NOT NULL, n INTEGER NOT NULL)');
  const insert = database.prepare('INSERT INTO t (id, pad, n) VALUES (?, ?, 0)');
  database.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(i, 'x'.repeat(130));
  })();
  database.pragma('wal_checkpoint(TRUNCATE)');
  return database;
}

const ROWS_A_PAGE = 26;

function sqliteCosts() {
  mkdirSync(TMP, { recursive: true });
  const file = `${TMP}unit-costs.sqlite`;
  const rows = SMOKE ? 20_000 : 2_000_000;
  const database = sqliteFile(file, rows);
  const read = database.prepare('SELECT pad FROM t WHERE id = ?');
  const reads = SMOKE ? 2_000 : 300_000;
  /** @param {number} span rows the reads are spread over */
  const perRead = (span) => {
    for (let i = 0; i < reads / 10; i++) read.get((Math.random() * span) | 0);
    const start = cpuUs();
    for (let i = 0; i < reads; i++) read.get((Math.random() * span) | 0);
    return (cpuUs() - start) / reads;
  };
  // 2,000 rows fit SQLite's cache; 2,000,000 (~300 MB) do not, so nearly every read reads its leaf.
  const cachedRead = perRead(2_000);
  const coldRead = perRead(rows);

  const update = database.prepare('UPDATE t SET n = n + 1 WHERE id = ?');
  const begin = database.prepare('BEGIN IMMEDIATE');
  const commit = database.prepare('COMMIT');
  const transactions = SMOKE ? 50 : 2_000;
  /** @param {() => (j: number) => number} pick a transaction's rows: the row of its j-th update */
  const perTransaction = (pick) => {
    const start = cpuUs();
    for (let k = 0; k < transactions; k++) {
      const rowOf = pick();
      begin.run();
      for (let j = 0; j < 32; j++) update.run(rowOf(j));
      commit.run();
    }
    return (cpuUs() - start) / transactions;
  };
  const pages = Math.floor(rows / ROWS_A_PAGE);
  // 32 rows, each on a random page (32 pages read and dirtied), or on one random page (one of each).
  const onPages = () => (/** @type {number} */ _j) => ((Math.random() * pages) | 0) * ROWS_A_PAGE;
  const onOnePage = () => {
    const page = (Math.random() * pages) | 0;
    return (/** @type {number} */ j) => page * ROWS_A_PAGE + (j % ROWS_A_PAGE);
  };
  const spread = perTransaction(onPages);
  const together = perTransaction(onOnePage);
  const dirtied = (spread - together) / 31 - (coldRead - cachedRead);
  // The checkpoint's share: the same transactions with no checkpoint, then one checkpoint of them all.
  database.pragma('wal_checkpoint(TRUNCATE)');
  database.pragma('wal_autocheckpoint = 0');
  perTransaction(onPages);
  const start = cpuUs();
  database.pragma('wal_checkpoint(TRUNCATE)');
  const checkpoint = (cpuUs() - start) / (transactions * 32);
  database.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  return {
    cachedReadUs: round(cachedRead, 2),
    osCacheReadUs: round(coldRead, 2),
    dirtiedPageUs: round(dirtied, 2),
    checkpointCopyUs: round(checkpoint, 2),
  };
}

const memory = {
  typedArray: { small: typedArrayRead(SMALL_BYTES), large: typedArrayRead(LARGE_BYTES) },
  objects: { small: objectRead(SMALL_BYTES), large: objectRead(LARGE_BYTES) },
  mapLookup: { small: mapRead(2_000), large: mapRead(SMOKE ? 20_000 : 2_000_000) },
};
const caches = Object.fromEntries(
  (SMOKE ? [1, 2] : [1, 2, 4, 8, 16, 64]).map((mib) => [`${mib} MB`, typedArrayRead(mib * 2 ** 20)]),
);
console.log(JSON.stringify({ memory, caches, sqlite: sqliteCosts() }));
