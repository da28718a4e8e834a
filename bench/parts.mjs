// The parts of `npm run bench` that run in a process of their own (all but `http`, which loads its
// servers from the runner's process): each as bench/run.mjs starts it, which is how the tests
// smoke-run them too. BENCH_PARTS names them.

/**
 * @typedef {{
 *   core: import('./core.mjs').CoreResult;
 *   memory: import('./memory.mjs').MemoryResult;
 *   backends: import('./backends.mjs').BackendsResult;
 *   sqlite: import('./sqlite.mjs').SqliteResult;
 *   instrumentation: import('./instrumentation.mjs').InstrumentationResult;
 *   history: import('./history.mjs').HistoryResult;
 *   feed: import('./feed.mjs').FeedResult;
 *   groupcommit: import('./group-commit.mjs').GroupCommitResult;
 *   mysql: import('./mysql.mjs').MysqlResult;
 * }} PartResults
 */

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Each part's script and the Node flags it runs with; `backends` for the parts that start the
 * throwaway PostgreSQL (and Redis, or MariaDB) the tests start (test/support/servers.ts).
 * @type {{ [Name in keyof PartResults]: { script: string; flags: string[]; backends: boolean } }}
 */
export const PARTS = {
  // One core: V8's garbage collector runs on this thread too, not on helpers using the other core.
  core: { script: 'core.mjs', flags: ['--single-threaded-gc'], backends: false },
  memory: { script: 'memory.mjs', flags: ['--expose-gc'], backends: false },
  backends: { script: 'backends.mjs', flags: [], backends: true },
  sqlite: { script: 'sqlite.mjs', flags: [], backends: false },
  instrumentation: { script: 'instrumentation.mjs', flags: [], backends: false },
  history: { script: 'history.mjs', flags: [], backends: true },
  feed: { script: 'feed.mjs', flags: [], backends: true },
  groupcommit: { script: 'group-commit.mjs', flags: [], backends: true },
  mysql: { script: 'mysql.mjs', flags: [], backends: true },
};

/**
 * Runs a part in its own process, with `env` added to this one's, and answers the result it sends back.
 * @template {keyof PartResults} Name
 * @param {Name} name
 * @param {Record<string, string>} [env]
 * @returns {Promise<PartResults[Name]>}
 */
export function runPart(name, env = {}) {
  const { script, flags } = PARTS[name];
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
      execArgv: [...process.execArgv, '--max-old-space-size=4096', ...flags],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    /** @type {PartResults[Name] | undefined} */
    let result;
    proc.on('message', (/** @type {{ type?: string; result?: PartResults[Name] }} */ message) => {
      if (message?.type === 'result') result = message.result;
    });
    proc.once('error', reject);
    proc.once('exit', (code) =>
      result === undefined ? reject(new Error(`${script} exited with code ${code}`)) : resolve(result),
    );
  });
}
