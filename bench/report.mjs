// The results as Markdown tables (printed, and written to bench/results.md for bench/README.md), and
// the targets of the benchmark, each checked against the results.

/**
 * What `npm run bench` measured (bench/results.json): the run, and each part that ran.
 * @typedef {{
 *   date: string;
 *   revision: string;
 *   machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string; loadAverage: number[] };
 *   options: import('./http.mjs').HttpOptions;
 *   core?: import('./core.mjs').CoreResult;
 *   memory?: import('./memory.mjs').MemoryResult;
 *   http?: import('./http.mjs').HttpPairResult[];
 *   backends?: import('./backends.mjs').BackendsResult;
 *   sqlite?: import('./sqlite.mjs').SqliteResult;
 *   instrumentation?: import('./instrumentation.mjs').InstrumentationResult;
 *   history?: import('./history.mjs').HistoryResult;
 *   feed?: import('./feed.mjs').FeedResult;
 *   groupCommit?: import('./group-commit.mjs').GroupCommitResult;
 *   mysql?: import('./mysql.mjs').MysqlResult;
 *   loadAverageAfter?: number[];
 *   seconds?: number;
 *   targets?: Target[];
 * }} BenchResults
 * @typedef {{ what: string; value: number; met: boolean }} Target
 * @typedef {import('./stats.mjs').Summary} Summary
 */

/** @param {number} value */
const int = (value) => Math.round(value).toLocaleString('en-US');
/**
 * @param {number} value
 * @param {number} [digits]
 */
const fixed = (value, digits = 2) => value.toFixed(digits);
/**
 * @param {Summary} s
 * @param {(value: number) => string} format
 */
const range = (s, format) => `${format(s.min)}–${format(s.max)}`;
/** @param {boolean} met */
const yes = (met) => (met ? 'yes' : '**no**');
/** @param {number} n */
const rounds = (n) => `${n} round${n === 1 ? '' : 's'}`;

/**
 * @param {BenchResults} results
 * @returns {Target[]}
 */
export function checkTargets(results) {
  const targets = [];
  for (const pair of results.http ?? []) {
    if (pair.target === null) continue;
    targets.push({
      what: `${pair.label}: throughput ≥ ${pair.target} of its hand-written route`,
      value: pair.ratio.median,
      met: pair.ratio.median >= pair.target,
    });
  }
  if (results.core) {
    const rate = results.core.posts.small.postsPerSecond.median;
    targets.push({
      what: 'in-process core ≥ 300,000 small posts/s on one core (GC on the same thread)',
      value: rate,
      met: rate >= 300_000,
    });
  }
  if (results.backends !== undefined && results.backends.skipped === undefined) {
    const trips = results.backends.roundTripsPerAcceptedPost;
    targets.push({
      what: 'PostgreSQL ≤ 2 round trips per accepted post',
      value: trips.postgres,
      met: trips.postgres <= 2,
    });
    targets.push({ what: 'Redis 1 round trip per accepted post', value: trips.redis, met: trips.redis <= 1 });
  }
  if (results.instrumentation) {
    const noop = results.instrumentation.variants.find((variant) => variant.name === 'noop')?.wallToBare ?? Number.NaN;
    targets.push({
      what: 'instrumentHandler with the no-op API (no SDK): posts/s ≥ 0.95 of the bare handler',
      value: noop,
      met: noop >= 0.95,
    });
  }
  if (results.memory) {
    const full = results.memory.limiterBytesPerWebhook.fullWindow;
    targets.push({ what: 'memory limiter ≤ 1 KiB per active webhook (full window)', value: full, met: full <= 1024 });
    const idle = results.memory.idleAfterWindow.afterTwoWindows;
    targets.push({
      what: `100,000 idle webhooks hold nothing once their window passed (keys left, ${idle.liveWebhooks} webhooks still active)`,
      value: idle.keysLeft,
      met: idle.keysLeft <= idle.liveWebhooks + 1,
    });
  }
  return targets;
}

/** @param {BenchResults} results */
export function markdown(results) {
  const out = [];
  const { options } = results;
  if (results.http) {
    out.push(
      `**HTTP, library (A) against a hand-written route (B) on the same stack** — ${options.connections} connections, ` +
        `${rounds(options.rounds)} of ${options.seconds} s alternating A and B (ABBA), after ${options.warmup} s of warm-up; A and B in fresh server processes for each pair; ` +
        `each request to the next of ${int(options.webhooks)} webhooks. Ratios are medians of the per-round ratios (lowest–highest round). ` +
        'CPU = CPU time of the server process per request (user + system); its ratio is B ÷ A, so higher is better for both ratios. ' +
        'Budget = what the library adds per request, the median CPU µs of A less that of B: the figure that travels best between machines.',
      '',
      '| Pair | A req/s | B req/s | Throughput A/B | CPU µs/req A / B | Budget µs/req | CPU B/A | Target | Met | Non-2xx |',
      '|---|--:|--:|--:|--:|--:|--:|--:|:-:|--:|',
    );
    for (const pair of results.http) {
      out.push(
        `| ${pair.label} | ${int(pair.a.rps.median)} | ${int(pair.b.rps.median)} | ${fixed(pair.ratio.median)} (${range(pair.ratio, fixed)}) | ` +
          `${fixed(pair.a.cpuUsPerRequest.median, 0)} / ${fixed(pair.b.cpuUsPerRequest.median, 0)} | ${fixed(pair.a.cpuUsPerRequest.median - pair.b.cpuUsPerRequest.median, 1)} | ${fixed(pair.cpuRatio.median)} (${range(pair.cpuRatio, fixed)}) | ${pair.target === null ? '—' : `≥ ${fixed(pair.target)}`} | ${pair.target === null ? '—' : yes(pair.ratio.median >= pair.target)} | ${pair.a.failures + pair.b.failures} |`,
      );
    }
    out.push('');
  }
  if (results.core) {
    const { posts, validation, secrets } = results.core;
    out.push(
      `**In process, one post at a time** — memory store, default limiter, ${int(results.core.webhooks)} webhooks, ${rounds(results.core.rounds)} of ${results.core.seconds} s, node --single-threaded-gc so that all the work is on one core; median (lowest–highest).`,
      '',
      '| Payload | Posts/s (wall) | Posts per CPU-second | µs per post (CPU) | Non-2xx |',
      '|---|--:|--:|--:|--:|',
    );
    for (const [name, p] of Object.entries(posts)) {
      out.push(
        `| ${name === 'small' ? '~200 B text' : '60 KiB (text + 18 sections)'} | ${int(p.postsPerSecond.median)} (${range(p.postsPerSecond, int)}) | ${int(p.postsPerCpuSecond.median)} (${range(p.postsPerCpuSecond, int)}) | ${fixed(p.cpuUsPerPost, 1)} | ${p.failures} |`,
      );
    }
    const { floor } = posts.small;
    if (floor !== undefined) {
      out.push(
        `| the contract floor, ~200 B text (hand-written, not the library; rounds alternate with the row above) | ${int(floor.postsPerSecond.median)} (${range(floor.postsPerSecond, int)}) | ${int(floor.postsPerCpuSecond.median)} (${range(floor.postsPerCpuSecond, int)}) | ${fixed(1e6 / floor.postsPerCpuSecond.median, 1)} | ${floor.failures} |`,
        '',
        `The library's posts per CPU-second ÷ the floor's: ${fixed(floor.cpuRatio.median)} (${range(floor.cpuRatio, fixed)}).`,
      );
    }
    out.push('', '| Step alone | µs per call |', '|---|--:|');
    out.push(
      `| validate ~200 B text (JSON.parse of it: ${fixed(validation.small.jsonParseUs)}) | ${fixed(validation.small.validateUs)} |`,
    );
    out.push(
      `| validate 5 blocks of 5 types (JSON.parse: ${fixed(validation.fiveBlocks.jsonParseUs)}) | ${fixed(validation.fiveBlocks.validateUs)} |`,
    );
    out.push(
      `| validate 60 KiB, 18 sections (JSON.parse: ${fixed(validation.large.jsonParseUs)}) | ${fixed(validation.large.validateUs)} |`,
    );
    out.push(
      `| secret: SHA-256 + constant-time compare (node:crypto for comparison: ${fixed(secrets.nodeCryptoHashAndCompareUs)}) | ${fixed(secrets.coreHashAndCompareUs)} |`,
    );
    for (const [n, us] of Object.entries(results.core.limiterUsPerHit))
      out.push(`| memory limiter, one request, ${int(Number(n))} webhooks active | ${fixed(us)} |`);
    out.push('');
  }
  if (results.backends) {
    const b = results.backends;
    if (b.skipped !== undefined) {
      out.push(`**Backends** — skipped: ${b.skipped}`, '');
    } else {
      out.push(
        `**PostgreSQL store + Redis limiter, in process** — ${b.concurrency} posts in flight, pool of ${b.poolSize}, ${rounds(b.rounds)} of ${b.seconds} s; ${b.postgresSettings}.`,
        '',
        '| Measure | Per second | Ratio of the library |',
        '|---|--:|--:|',
        `| library, end to end (~200 B posts) | ${int(b.endToEnd.median)} (${range(b.endToEnd, int)}) | |`,
        `| hand-written post: SELECT webhook + limiter script + INSERT | ${int(b.rawPost.median)} (${range(b.rawPost, int)}) | ${fixed(b.ratioToRawPost.median)} (${range(b.ratioToRawPost, fixed)}) |`,
        `| raw \`INSERT … ON CONFLICT DO NOTHING RETURNING\` | ${int(b.rawInsert.median)} (${range(b.rawInsert, int)}) | ${fixed(b.ratioToRawInsert.median)} (${range(b.ratioToRawInsert, fixed)}) |`,
        `| raw limiter script (\`EVALSHA\`) | ${int(b.rawLimiter.median)} (${range(b.rawLimiter, int)}) | |`,
        '',
        `Round trips per accepted post (counted over ${int(b.accepted)} posts, ${b.failures} non-2xx): PostgreSQL ${b.roundTripsPerAcceptedPost.postgres}, Redis ${b.roundTripsPerAcceptedPost.redis}.`,
        '',
      );
    }
  }
  if (results.memory) {
    const m = results.memory;
    out.push(
      '**Memory** (V8 heap after full GC)',
      '',
      '| Measure | Bytes |',
      '|---|--:|',
      `| memory limiter, per webhook with 1 request in the window | ${int(m.limiterBytesPerWebhook.oneRequest)} |`,
      `| memory limiter, per webhook with 60 requests in the window | ${int(m.limiterBytesPerWebhook.fullWindow)} |`,
      `| memory store, per stored message (${m.store.textChars}-character text) | ${int(m.store.bytesPerMessage)} |`,
      `| ${int(m.idleAfterWindow.webhooks)} webhooks active (per webhook) | ${int(m.idleAfterWindow.bytesPerActiveWebhook)} |`,
      `| the same, idle, after one more request (${int(m.idleAfterWindow.afterOneRequest.keysLeft)} keys left; that request took ${m.idleAfterWindow.firstRequestMs} ms) | ${int(m.idleAfterWindow.afterOneRequest.bytesLeft)} |`,
      `| the same, after two more windows of light traffic on ${m.idleAfterWindow.afterTwoWindows.liveWebhooks} other webhooks (${int(m.idleAfterWindow.afterTwoWindows.keysLeft)} keys left; longest request ${m.idleAfterWindow.longestRequestMs} ms) | ${int(m.idleAfterWindow.afterTwoWindows.bytesLeft)} |`,
      '',
    );
  }
  if (results.instrumentation) {
    const i = results.instrumentation;
    const label = {
      bare: 'bare handler',
      noop: "`instrumentHandler`, no SDK (the API's no-op)",
      sdk: '`instrumentHandler` with an SDK (metrics reader, batched spans)',
    };
    out.push(
      `**OpenTelemetry** — in process, the handler bare and wrapped, ${rounds(i.rounds)} of ${i.seconds} s each, alternating; medians.`,
      '',
      '| Variant | Posts/s (wall) | Of bare (wall) | Of bare (CPU) |',
      '|---|--:|--:|--:|',
    );
    for (const v of i.variants)
      out.push(
        `| ${label[v.name] ?? v.name} | ${int(v.wall)} | ${fixed(v.wallToBare, 3)} | ${fixed(v.cpuToBare, 3)} |`,
      );
    out.push('');
  }
  const targets = checkTargets(results);
  if (targets.length > 0) {
    out.push('| Target | Measured | Met |', '|---|--:|:-:|');
    for (const t of targets)
      out.push(
        `| ${t.what} | ${Number.isInteger(t.value) || t.value > 100 ? int(t.value) : fixed(t.value)} | ${yes(t.met)} |`,
      );
    out.push('');
  }
  return out.join('\n');
}
