// What a post costs on Durable Objects, in workerd through miniflare (the runtime install: npm run
// runtimes:install): calls to objects per post, the runtime's CPU per post (user + system time of
// the workerd process, over many posts), latency, and the posts one object answers per second.
// Two ways: the router (createDurableObjectFetchHandler: the handler runs in the object) and the
// handler in the worker over createDurableObjectStore and createDurableObjectRateLimiter.
//
//   node bench/cloudflare.mjs            (BENCH_POSTS=2000 BENCH_CONCURRENCY=16 to change the load;
//                                         BENCH_SMOKE=1: one round of 40 posts)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { SMOKE } from './internal.mjs';
import { roundRobin } from './round-robin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const POSTS = Number(process.env.BENCH_POSTS ?? (SMOKE ? 40 : 2_000));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? (SMOKE ? 4 : 16));
const ROUNDS = SMOKE ? 1 : 2;
const WEBHOOKS = Math.ceil(POSTS / 50);
const TICK_MS = 1_000 / 100;

const dir = mkdtempSync(join(tmpdir(), 'cw-bench-cloudflare-'));
const scriptPath = join(dir, 'worker.js');
await build({
  entryPoints: [join(root, 'test/adapters/stores/cloudflare/worker/test-worker.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  outfile: scriptPath,
  logLevel: 'warning',
});
const { Miniflare } = await import(
  pathToFileURL(join(root, 'test/runtimes/node_modules/miniflare/dist/src/index.js')).href
);
const miniflare = new Miniflare({
  modules: true,
  scriptPath,
  modulesRoot: dir,
  compatibilityDate: '2025-09-01',
  durableObjects: { CHANNEL_WEBHOOKS: { className: 'TestObject', useSQLite: true } },
  durableObjectsPersist: join(dir, 'objects'),
  host: '127.0.0.1',
  port: 0,
});
const base = (await miniflare.ready).origin;

/**
 * @typedef {{ status: number | undefined; calls: number; ms: number; text: string }} Answer
 * @param {string} path
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 * @returns {Promise<Answer>}
 */
function post(path, body, headers = {}) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            calls: Number(res.headers['x-object-calls'] ?? 0),
            ms: performance.now() - started,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** CPU ms used so far by the workerd processes under this one. */
function workerdCpuMs() {
  const pids = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('workerd'))
    .map((line) => line.trim().split(/\s+/)[0]);
  let ticks = 0;
  for (const pid of pids) {
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * TICK_MS;
}

/**
 * @param {string} channelId
 * @param {number} count
 */
async function webhooksOfOneChannel(channelId, count) {
  await post('/__manage', { op: 'putChannel', channel: { id: channelId, ownerId: 'u-owner', archived: false } });
  const paths = [];
  for (let i = 0; i < count; i++) {
    const answer = await post('/__manage', { op: 'create', channelId, name: `hook ${i}` });
    paths.push(new URL(JSON.parse(answer.text).url).pathname);
  }
  return paths;
}

/**
 * @param {number[]} values
 * @param {number} p
 */
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? Number.NaN;

/**
 * @param {string} name
 * @param {string} prefix
 * @param {string} channelId
 */
async function measure(name, prefix, channelId) {
  const paths = await webhooksOfOneChannel(channelId, WEBHOOKS);
  for (const path of paths.slice(0, 4)) await post(`${prefix}${path}`, { text: 'warm-up' });
  const cpuBefore = workerdCpuMs();
  const started = performance.now();
  /** @type {Answer[]} */
  const answers = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSTS) {
        const i = next++;
        answers.push(
          await post(`${prefix}${roundRobin(paths, i)}`, { text: `post ${i}` }, { 'idempotency-key': `k-${i}` }),
        );
      }
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  const cpuMs = workerdCpuMs() - cpuBefore;
  const counts = new Map();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  const statuses = [...counts].map(([status, count]) => `${status}×${count}`);
  const calls = [...new Set(answers.map((answer) => answer.calls))];
  return {
    name,
    posts: POSTS,
    statuses: statuses.join(' '),
    calls: calls.join('/'),
    cpuUsPerPost: Math.round((cpuMs * 1_000) / POSTS),
    postsPerSecond: Math.round(POSTS / seconds),
    p50: percentile(
      answers.map((answer) => answer.ms),
      0.5,
    ).toFixed(1),
    p99: percentile(
      answers.map((answer) => answer.ms),
      0.99,
    ).toFixed(1),
  };
}

const rows = [];
for (let round = 0; round < ROUNDS; round++) {
  rows.push(await measure('router: handler in the object', '', `bench-object-${round}`));
  rows.push(await measure('handler in the worker, store and limiter over RPC', '/worker', `bench-worker-${round}`));
}
await miniflare.dispose();
rmSync(dir, { recursive: true, force: true });

console.log(
  `${POSTS} posts a row, ${CONCURRENCY} at a time, to ${WEBHOOKS} webhooks of one channel (one object); Node ${process.version}, ${new Date().toISOString()}`,
);
console.log(
  '| Way | Answers | Calls to objects a post | workerd CPU µs a post | Posts/s (one object) | p50 ms | p99 ms |',
);
console.log('|---|---|--:|--:|--:|--:|--:|');
for (const row of rows)
  console.log(
    `| ${row.name} | ${row.statuses} | ${row.calls} | ${row.cpuUsPerPost} | ${row.postsPerSecond} | ${row.p50} | ${row.p99} |`,
  );
