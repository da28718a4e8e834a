// The tables `npm run bench:scale` prints, from its results.

/**
 * @param {string[]} head
 * @param {unknown[][]} rows
 */
const table = (head, rows) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
/** @param {unknown} x */
const n = (x) => (x === null || x === undefined ? '–' : typeof x === 'number' ? x.toLocaleString('en-US') : String(x));
/**
 * @param {number | null} small
 * @param {number | null} large
 */
const ratio = (small, large) => (small && large ? (small / large).toFixed(2) : '–');

/**
 * Markdown tables of the growth, the PostgreSQL internals, the Redis limiter and the instances.
 * @param {import('./run.mjs').ScaleResults} results
 */
export function printReport(results) {
  const out = [
    `Shared machine: ${results.machine.cpus} cores, load ${results.machine.loadAverage.join(' ')} at start; ${results.seconds} s per run${results.quick ? ' (--quick)' : ''}.`,
  ];
  if (results.growth.length > 0) {
    out.push(
      '',
      'Growth of the cost of a post (in process: 32 concurrent posts through the handler; over node:http: autocannon, 32 connections)',
      table(
        [
          'store',
          'world',
          'size',
          'in-process posts/s',
          'p50 ms',
          'p99 ms',
          'CPU µs/post',
          'node:http posts/s',
          'p50 ms',
          'p99 ms',
          'server CPU µs/post',
          'heap B/webhook',
        ],
        results.growth.map((r) => [
          r.store,
          r.dimension,
          n(r.size),
          n(r.inprocPerSecond),
          r.inprocP50Ms,
          r.inprocP99Ms,
          r.inprocCpuUsPerPost,
          n(r.httpPerSecond),
          r.httpP50Ms,
          r.httpP99Ms,
          r.httpServerCpuUsPerPost,
          n(r.heapPerWebhook),
        ]),
      ),
    );
    /** @typedef {(typeof results.growth)[number]} Row */
    /** @type {Record<string, Row[]>} */
    const groups = {};
    for (const r of results.growth) {
      const name = `${r.store} ${r.dimension}`;
      groups[name] = [...(groups[name] ?? []), r];
    }
    out.push(
      '',
      'Growth, smallest → largest world (largest / smallest; target ≤ 1.3). Medians of alternating rounds; on a shared machine throughput swings 2-4× between rounds, CPU per post much less.',
      table(
        ['store, world', 'in-process time per post', 'node:http time per post', 'CPU per post (Node + PostgreSQL)'],
        Object.entries(groups).map(([name, rows]) => {
          // Each group holds the row that made it.
          const [first, last] = /** @type {[Row, Row]} */ ([rows[0], rows.at(-1)]);
          /** @param {Row} r */
          const cpu = (r) => r.inprocCpuUsPerPost + (r.postgresCpuUsPerPost ?? 0);
          return [
            `${name} ${n(first.size)} → ${n(last.size)}`,
            ratio(first.inprocPerSecond, last.inprocPerSecond),
            ratio(first.httpPerSecond, last.httpPerSecond),
            ratio(cpu(last), cpu(first)),
          ];
        }),
      ),
    );
  }
  if (results.postgresWorlds.length > 0) {
    out.push(
      '',
      'PostgreSQL per post (in-process runs) and the message table per stored message',
      table(
        [
          'world',
          'size',
          'PostgreSQL CPU µs/post',
          'WAL B/post',
          'blocks read/post',
          'blocks hit/post',
          'heap B/message',
          'index B/message',
        ],
        results.postgresWorlds.map((r) => [
          r.dimension,
          n(r.size),
          r.postgresCpuUsPerPost,
          n(r.walBytesPerPost),
          r.blocksReadPerPost,
          r.blocksHitPerPost,
          n(r.heapBytesPerMessage),
          n(r.indexBytesPerMessage),
        ]),
      ),
    );
  }
  if (results.redis.length > 0) {
    out.push(
      '',
      'Redis limiter (32 concurrent decisions, random keys among the active ones)',
      table(
        [
          'server',
          'active webhooks',
          'B/active webhook',
          'B/further post',
          'decisions/s',
          'p50 ms',
          'p99 ms',
          'round trips/decision',
          'commands/decision',
          'Redis CPU µs/decision',
        ],
        results.redis.map((r) => [
          r.limiter,
          n(r.activeWebhooks),
          n(r.bytesPerActiveWebhook),
          r.bytesPerFurtherPost,
          n(r.decisionsPerSecond),
          r.p50Ms,
          r.p99Ms,
          r.roundTripsPerDecision,
          r.redisCommandsPerDecision,
          r.redisCpuUsPerDecision,
        ]),
      ),
    );
  }
  if ((results.redisBatchSize ?? []).length > 0) {
    out.push(
      '',
      'Redis limiter: time one script holds Redis, by batch size (2 × maxBatch decisions in flight, 60 times per key)',
      table(
        ['server', 'maxBatch', 'decisions/script', 'script µs', 'Redis µs/decision', 'decisions/s'],
        results.redisBatchSize.map((r) => [
          r.server,
          r.maxBatch,
          r.decisionsPerScript,
          r.scriptUs,
          r.redisUsPerDecision,
          n(r.decisionsPerSecond),
        ]),
      ),
    );
  }
  if ((results.redisBatching ?? []).length > 0) {
    /** @param {[number, number]} range */
    const range = ([low, high]) => (low === high ? n(low) : `${n(low)}–${n(high)}`);
    out.push(
      '',
      'Redis limiter batched and not (maxBatch 1), alternating rounds; ranges over the rounds, per decision',
      table(
        [
          'server',
          'active webhooks',
          'in flight',
          'mode',
          'decisions/s',
          'p50 ms',
          'p99 ms',
          'round trips',
          'commands',
          'Redis CPU µs',
          'Node CPU µs',
        ],
        results.redisBatching.map((r) => [
          r.server,
          n(r.activeWebhooks),
          r.inFlight,
          r.mode,
          range(r.decisionsPerSecond),
          range(r.p50Ms),
          range(r.p99Ms),
          range(r.roundTripsPerDecision),
          range(r.commandsPerDecision),
          range(r.redisCpuUsPerDecision),
          range(r.nodeCpuUsPerDecision),
        ]),
      ),
    );
  }
  if (results.instances.length > 0) {
    out.push(
      '',
      'Instances behind one port (node:cluster), one PostgreSQL, one Redis; per answered post',
      table(
        [
          'instances',
          'posts/s',
          'stored/s',
          'p50 ms',
          'p99 ms',
          'exactly once',
          '60/min',
          'Node CPU µs',
          'PostgreSQL CPU µs',
          'Redis CPU µs',
          'load gen. CPU µs',
          'PG round trips',
          'WAL B/stored',
          'Redis round trips',
          'Redis commands',
          'cores used',
        ],
        results.instances.map((r) => [
          r.instances,
          n(r.postsPerSecond),
          n(r.storedPerSecond),
          r.p50Ms,
          r.p99Ms,
          r.checks.exactlyOnce ? 'yes' : 'NO',
          r.checks.sixtyPerMinute === null ? 'too few posts' : r.checks.sixtyPerMinute ? 'yes' : 'NO',
          r.perPost.nodeCpuUs,
          r.perPost.postgresCpuUs,
          r.perPost.redisCpuUs,
          r.perPost.loadGeneratorCpuUs,
          r.perPost.postgresRoundTrips,
          n(r.perPost.walBytesPerStored),
          r.perPost.redisRoundTrips,
          r.perPost.redisCommands,
          r.coresUsed,
        ]),
      ),
    );
  }
  return out.join('\n');
}
