// `npm run bench`: builds, then measures the core in process, memory, HTTP A/B pairs and the
// PostgreSQL + Redis backends; prints the tables and writes results.json, results.md and
// ratios.svg to the git-ignored bench/.tmp/ (to bench/ itself, the published figures, with
// BENCH_SAVE=1). Loopback only. Settings (environment):
//   BENCH_SAVE      1: write the results over the tracked bench/results.* and bench/ratios.svg
//   BENCH_SECONDS   seconds of each HTTP round (default 1.5)
//   BENCH_WARMUP    warm-up seconds before each HTTP run (default 1)
//   BENCH_ROUNDS    alternating A/B rounds of every HTTP pair (default 6); the other parts run
//                   min(3, BENCH_ROUNDS) rounds
//   BENCH_PARTS     comma-separated subset of core,memory,http,backends,sqlite,instrumentation,history,feed,
//                   groupcommit,mysql
//                   (default all)
//   BENCH_PAIRS     comma-separated subset of the pairs in http.mjs (node-small, express, koa,
//                   fastify, fetch, …, and with BENCH_BASELINE node-core-vs-baseline, …)
//   BENCH_BASELINE  root of another built package (package.json and dist/): each adapter is also
//                   measured against itself from that build, and the feed, group commit and MySQL
//                   parts' post costs against that build's
//   BENCH_WEBHOOKS  webhooks each HTTP server spreads its posts over (default 10,000)
//   BENCH_SMOKE     1: every part once, for a moment, on a tiny world (what the tests run), its
//                   results in bench/.tmp/smoke/; they show that the parts run, and measure nothing

/**
 * @import { HttpOptions } from './http.mjs'
 * @import { BenchResults } from './report.mjs'
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chartOf } from './chart.mjs';
import { runHttp } from './http.mjs';
import { ROOT, SMOKE } from './internal.mjs';
import { runPart } from './parts.mjs';
import { checkTargets, markdown } from './report.mjs';

/** @param {string} file */
const here = (file) => fileURLToPath(new URL(file, import.meta.url));

/**
 * @param {string} name
 * @param {string} fallback
 */
const env = (name, fallback) => process.env[name] || fallback;
/** @type {HttpOptions} */
const options = {
  seconds: Number(env('BENCH_SECONDS', SMOKE ? '0.1' : '1.5')),
  warmup: Number(env('BENCH_WARMUP', SMOKE ? '0.1' : '1')),
  rounds: Number(env('BENCH_ROUNDS', SMOKE ? '1' : '6')),
  connections: 50,
  webhooks: Number(env('BENCH_WEBHOOKS', SMOKE ? '100' : '10000')),
  pairs: process.env.BENCH_PAIRS ? process.env.BENCH_PAIRS.split(',') : undefined,
};
const parts = env(
  'BENCH_PARTS',
  'core,memory,http,backends,sqlite,instrumentation,history,feed,groupcommit,mysql',
).split(',');
/** @param {string} line */
const log = (line) => process.stderr.write(`${line}\n`);

function machine() {
  const model = /^model name\s*:\s*(.+)$/m.exec(safeRead('/proc/cpuinfo'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return {
    cpus: os.availableParallelism(),
    cpuModel: model.trim(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}

/** The commit measured, with `+changes` when src/ or adapters/ differ from it. */
function revision() {
  try {
    /** @param {string[]} args */
    const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src', 'adapters') === '' ? '' : '+changes'}`;
  } catch {
    return 'unknown';
  }
}

/** @param {string} file */
function safeRead(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function main() {
  const started = performance.now();
  /** @type {BenchResults} */
  const results = { date: new Date().toISOString(), revision: revision(), machine: machine(), options };
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const rounds = { BENCH_ROUNDS: String(Math.min(3, options.rounds)) };

  if (parts.includes('core')) {
    log('core in process …');
    results.core = await runPart('core', rounds);
  }
  if (parts.includes('memory')) {
    log(`memory … (${elapsed()})`);
    results.memory = await runPart('memory', rounds);
  }
  if (parts.includes('http')) {
    log(`HTTP A/B, ${options.rounds} rounds … (${elapsed()})`);
    results.http = await runHttp(options, log);
  }
  if (parts.includes('backends')) {
    log(`PostgreSQL + Redis … (${elapsed()})`);
    results.backends = await runPart('backends', rounds);
    if (results.backends.skipped) log(`  skipped: ${results.backends.skipped}`);
  }
  if (parts.includes('sqlite')) {
    log(`SQLite against memory … (${elapsed()})`);
    results.sqlite = await runPart('sqlite', rounds);
  }
  if (parts.includes('instrumentation')) {
    log(`instrumentation … (${elapsed()})`);
    results.instrumentation = await runPart('instrumentation', {
      ...rounds,
      BENCH_INSTRUMENTATION_ROUNDS: String(Math.max(options.rounds, SMOKE ? 1 : 7)),
    });
  }
  if (parts.includes('history')) {
    log(`post history on and off … (${elapsed()})`);
    results.history = await runPart('history', rounds);
  }
  if (parts.includes('feed')) {
    log(`the feed: its cost to a post, and latency to a client … (${elapsed()})`);
    results.feed = await runPart('feed', rounds);
    if (results.feed.skipped) log(`  skipped: ${results.feed.skipped}`);
  }
  if (parts.includes('groupcommit')) {
    log(`PostgreSQL group commit against the baseline … (${elapsed()})`);
    results.groupCommit = await runPart('groupcommit', rounds);
    if (results.groupCommit.skipped) log(`  skipped: ${results.groupCommit.skipped}`);
  }
  if (parts.includes('mysql')) {
    log(`MySQL on MariaDB beside PostgreSQL … (${elapsed()})`);
    results.mysql = await runPart('mysql', rounds);
    if (results.mysql.skipped) log(`  skipped: ${results.mysql.skipped}`);
  }
  results.loadAverageAfter = os.loadavg().map((x) => Number(x.toFixed(2)));
  results.seconds = Math.round((performance.now() - started) / 1000);
  results.targets = checkTargets(results);

  const m = results.machine;
  const machineLine = `${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}`;
  const table = [
    markdown(results),
    results.sqlite?.table,
    results.history?.table,
    results.feed?.table,
    results.groupCommit?.table,
    results.mysql?.table,
  ]
    .filter((part) => part !== undefined)
    .join('\n');
  console.log(
    `\nMachine: ${machineLine}; load average ${m.loadAverage.join(' ')} before, ${results.loadAverageAfter.join(' ')} after; ${results.seconds} s.\n`,
  );
  console.log(table);

  // A smoke run's figures are never published, nor put where a real run's are.
  const dir = SMOKE ? join('bench', '.tmp', 'smoke') : process.env.BENCH_SAVE === '1' ? 'bench' : join('bench', '.tmp');
  mkdirSync(join(ROOT, dir), { recursive: true });
  writeFileSync(join(ROOT, dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(
    join(ROOT, dir, 'results.md'),
    `Measured ${results.date.slice(0, 10)} at ${results.revision} on ${machineLine}.\n\n${table}`,
  );
  if (results.http?.length) writeFileSync(join(ROOT, dir, 'ratios.svg'), chartOf(results));
  log(`wrote ${dir}/results.json, results.md${results.http?.length ? ', ratios.svg' : ''} (${elapsed()})`);
}

// A build started elsewhere in the working tree (tsup empties dist/ first) must neither break nor
// change the code under test halfway through: the run works on a copy of the built package, whose
// own package.json makes `channel-webhooks` resolve to the copied dist/.
if (process.env.BENCH_ROOT === undefined) {
  const snapshot = here(SMOKE ? './.tmp/smoke/snapshot/' : './.tmp/snapshot/');
  rmSync(snapshot, { recursive: true, force: true });
  cpSync(join(ROOT, 'dist'), join(snapshot, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(snapshot, 'package.json'));
  for (const entry of readdirSync(here('.'))) {
    if (entry !== '.tmp') cpSync(here(entry), join(snapshot, 'bench', entry), { recursive: true });
  }
  const run = spawn(process.execPath, [...process.execArgv, join(snapshot, 'bench', 'run.mjs')], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_ROOT: ROOT },
  });
  run.once('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + os.constants.signals[signal])));
} else {
  await main();
}
