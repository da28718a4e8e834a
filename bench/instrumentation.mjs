// `node bench/instrumentation.mjs` (after `npm run build`): in-process posts per second of the
// handler bare, wrapped by instrumentHandler with no OpenTelemetry SDK registered (the API's no-op),
// and wrapped with an SDK (metrics collected by a reader, spans batched to a discarding exporter).
// Alternating rounds, medians; prints the ratios to bare, or sends them to `npm run bench` when it
// runs this file as one of its parts. Settings (environment):
//   BENCH_SECONDS                  seconds of each round (default 1)
//   BENCH_INSTRUMENTATION_ROUNDS   rounds of each variant (default 7)

/**
 * @import { WebhookHandler } from 'channel-webhooks'
 * @import { SpanExporter } from '@opentelemetry/sdk-trace-base'
 */
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createMemoryRateLimiter } from 'channel-webhooks';
import { instrumentHandler } from 'channel-webhooks/otel';
import { makeWebhooks, postLoop } from './core-loop.mjs';
import { SMOKE } from './internal.mjs';
import { roundRobin } from './round-robin.mjs';
import { round, summarize } from './stats.mjs';

const seconds = Number(process.env.BENCH_INSTRUMENTATION_SECONDS ?? (SMOKE ? 0.05 : 1));
const rounds = Number(process.env.BENCH_INSTRUMENTATION_ROUNDS ?? (SMOKE ? 1 : 7));

class CollectingReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

/** @type {SpanExporter} */
const discard = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };

/** @type {Record<'bare' | 'noop' | 'sdk', (handle: WebhookHandler) => WebhookHandler>} */
const variants = {
  bare: (handle) => handle,
  noop: (handle) => instrumentHandler(handle),
  sdk: (handle) =>
    instrumentHandler(handle, {
      meterProvider: new MeterProvider({ readers: [new CollectingReader()] }),
      tracerProvider: new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] }),
    }),
};

/**
 * A limit no round reaches, so that every post is stored and answered 201.
 * @param {Awaited<ReturnType<typeof makeWebhooks>>} webhooks
 * @param {(handle: WebhookHandler) => WebhookHandler} wrap
 */
const run = (webhooks, wrap) =>
  postLoop(webhooks, '{"text":"deploy finished"}', seconds, {
    wrap,
    rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }),
  });

const webhooks = await makeWebhooks();
/** @type {(keyof typeof variants)[]} */
const names = ['bare', 'noop', 'sdk'];
/** @type {Record<keyof typeof variants, { wall: number[]; cpu: number[] }>} */
const samples = { bare: { wall: [], cpu: [] }, noop: { wall: [], cpu: [] }, sdk: { wall: [], cpu: [] } };
for (const name of names) await run(webhooks, variants[name]); // warm-up
for (let r = 0; r < rounds; r++) {
  // Rotate the order each round so no variant always runs right after the same one.
  for (let k = 0; k < names.length; k++) {
    const name = roundRobin(names, r + k);
    const result = await run(webhooks, variants[name]);
    if (result.failures > 0) throw new Error(`${result.failures} posts were not answered 201`);
    samples[name].wall.push(result.postsPerSecond);
    samples[name].cpu.push(result.postsPerCpuSecond);
  }
}

const rows = names.map((name) => {
  const wall = summarize(samples[name].wall);
  const cpu = summarize(samples[name].cpu);
  return { name, wall: wall.median, wallSpread: wall.spreadPct, cpu: cpu.median };
});
const [bare] = rows;
if (bare === undefined) throw new Error('no variant was measured');
const result = {
  rounds,
  seconds,
  variants: rows.map((row) => ({
    ...row,
    wallToBare: round(row.wall / bare.wall, 3),
    cpuToBare: round(row.cpu / bare.cpu, 3),
  })),
};
/** @typedef {typeof result} InstrumentationResult */

if (process.send) {
  process.send({ type: 'result', result });
} else {
  console.log(`instrumentHandler, ${rounds} alternating rounds of ${seconds} s, medians (${process.version})`);
  console.log('variant  posts/s (wall)  spread  posts/CPU-s  wall vs bare  CPU vs bare');
  for (const row of result.variants) {
    console.log(
      [
        row.name.padEnd(7),
        String(round(row.wall)).padStart(14),
        `${round(row.wallSpread, 1)}%`.padStart(7),
        String(round(row.cpu)).padStart(12),
        `${row.wallToBare}`.padStart(13),
        `${row.cpuToBare}`.padStart(12),
      ].join(' '),
    );
  }
}
