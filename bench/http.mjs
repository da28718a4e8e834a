// Part 2: HTTP A/B. Each pair puts the library (A) against a hand-written route doing the minimal
// work (B) on the same server stack, each server in its own process, loaded by the same autocannon
// settings from this process.

import autocannon from 'autocannon';
import { SMOKE_LOAD } from './internal.mjs';
import { PAYLOADS } from './payloads.mjs';
import { roundRobin } from './round-robin.mjs';
import { launchServer } from './servers/launch.mjs';
import { perRound, round, summarize } from './stats.mjs';

/**
 * @typedef {{ id: string; label: string; a: string; b: string; payload: keyof typeof PAYLOADS; target: number | null }} Pair
 * @typedef {{ seconds: number; warmup: number; rounds: number; connections: number; webhooks: number; pairs: string[] | undefined }} HttpOptions
 */

/** @type {Pair[]} */
export const PAIRS = [
  {
    id: 'node-small',
    label: 'core on node:http, ~200 B',
    a: 'node-core',
    b: 'node-bare',
    payload: 'small',
    target: 0.9,
  },
  // The contract floor (servers/floor.mjs, no library) against the same hand-written route, and the
  // library against the floor: how much of a stack's gap is the contract's own work. No target.
  {
    id: 'node-floor',
    label: 'contract floor on node:http',
    a: 'node-floor',
    b: 'node-bare',
    payload: 'small',
    target: null,
  },
  {
    id: 'node-vs-floor',
    label: 'node:http: core vs the floor',
    a: 'node-core',
    b: 'node-floor',
    payload: 'small',
    target: null,
  },
  {
    id: 'node-large',
    label: 'core on node:http, 60 KiB',
    a: 'node-core',
    b: 'node-bare',
    payload: 'large',
    target: 0.85,
  },
  {
    id: 'express',
    label: 'Express 5 vs res.json route',
    a: 'express-adapter',
    b: 'express-raw',
    payload: 'small',
    target: 1.1,
  },
  {
    id: 'express-writehead',
    label: 'Express 5 vs writeHead route',
    a: 'express-adapter',
    b: 'express-raw-writehead',
    payload: 'small',
    target: 0.95,
  },
  {
    id: 'express-floor',
    label: 'contract floor on Express',
    a: 'express-floor',
    b: 'express-raw-writehead',
    payload: 'small',
    target: null,
  },
  { id: 'koa', label: 'Koa 3 adapter', a: 'koa-adapter', b: 'koa-raw', payload: 'small', target: 0.9 },
  { id: 'koa-floor', label: 'contract floor on Koa', a: 'koa-floor', b: 'koa-raw', payload: 'small', target: null },
  { id: 'fastify', label: 'Fastify 5 plugin', a: 'fastify-plugin', b: 'fastify-raw', payload: 'small', target: 0.85 },
  {
    id: 'fastify-floor',
    label: 'contract floor on Fastify',
    a: 'fastify-floor',
    b: 'fastify-raw',
    payload: 'small',
    target: null,
  },
  {
    id: 'fastify-vs-floor',
    label: 'Fastify: plugin vs the floor',
    a: 'fastify-plugin',
    b: 'fastify-floor',
    payload: 'small',
    target: null,
  },
  { id: 'fetch', label: 'Fetch adapter on Hono', a: 'hono-fetch', b: 'hono-raw', payload: 'small', target: 0.9 },
  { id: 'hono-floor', label: 'contract floor on Hono', a: 'hono-floor', b: 'hono-raw', payload: 'small', target: null },
  {
    id: 'fetch-vs-floor',
    label: 'Hono: Fetch adapter vs the floor',
    a: 'hono-fetch',
    b: 'hono-floor',
    payload: 'small',
    target: null,
  },
];

// With BENCH_BASELINE (the root of another built package, e.g. the main branch's), each adapter
// also meets itself from that build: the ratio is this build's speed over the baseline's.
export const BASELINE_PAIRS = ['node-core', 'express-adapter', 'koa-adapter', 'fastify-plugin', 'hono-fetch'].map(
  /** @returns {Pair} */
  (variant) => ({
    id: `${variant}-vs-baseline`,
    label: `${variant}: this build vs the baseline`,
    a: variant,
    b: `${variant}@baseline`,
    payload: 'small',
    target: null,
  }),
);

/**
 * A server under test, warmed up, with its load generator: every request goes to the next webhook.
 * @param {string} variant
 * @param {Awaited<ReturnType<typeof launchServer>>} server
 * @param {Pair['payload']} payload
 * @param {HttpOptions} options
 */
async function start(variant, server, payload, options) {
  const body = Buffer.from(PAYLOADS[payload]);
  const { paths } = server;
  let next = 0;
  /** @param {number} seconds */
  const load = (seconds) =>
    autocannon({
      ...SMOKE_LOAD,
      url: `http://127.0.0.1:${server.port}`,
      connections: options.connections,
      pipelining: 1,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          setupRequest: (request) => {
            request.path = roundRobin(paths, next++);
            return request;
          },
        },
      ],
    });
  /** @param {autocannon.Result} result */
  const failed = (result) => result.non2xx + result.errors + result.timeouts;
  const warm = await load(options.warmup);
  let failures = failed(warm);
  let requests = warm['2xx'];
  return {
    variant,
    get failures() {
      return failures;
    },
    get requests() {
      return requests;
    },
    /** @param {number} seconds */
    async measure(seconds) {
      await server.cpu();
      const own = process.cpuUsage();
      const result = await load(seconds);
      const loadCpu = process.cpuUsage(own);
      const cpu = await server.cpu();
      failures += failed(result);
      requests += result['2xx'];
      const answered = result['2xx'] + result.non2xx;
      if (answered === 0) throw new Error(`${variant} answered no request in ${seconds} s`);
      return {
        rps: result['2xx'] / result.duration,
        cpuUsPerRequest: (cpu.user + cpu.system) / answered,
        // The kernel's share (system time) rises when the other side must be woken more often.
        systemUsPerRequest: cpu.system / answered,
        p99Ms: result.latency.p99,
        // Share of one core the load generator used: near 1, it, not the server, sets the pace.
        loadGeneratorCpu: (loadCpu.user + loadCpu.system) / (result.duration * 1e6),
      };
    },
    stop: () => server.stop(),
  };
}

/**
 * For each pair, starts A and B (fresh processes, both warmed up), then loads them in turn, ABBA,
 * for `rounds` rounds of `seconds` each: short alternating runs keep a change in the machine's
 * other load from landing on one side only. The ratio is the median of the per-round A/B ratios.
 * @param {HttpOptions} options
 * @param {(line: string) => void} log
 */
export async function runHttp(options, log) {
  const all = process.env.BENCH_BASELINE ? [...PAIRS, ...BASELINE_PAIRS] : PAIRS;
  const chosen = options.pairs;
  const pairs = chosen === undefined ? all : all.filter((pair) => chosen.includes(pair.id));
  const results = [];
  for (const pair of pairs) {
    // A and B start at once; their warm-ups and rounds take turns.
    const [serverA, serverB] = await Promise.all([
      launchServer(pair.a, options.webhooks),
      launchServer(pair.b, options.webhooks),
    ]);
    const servers = {
      a: await start(pair.a, serverA, pair.payload, options),
      b: await start(pair.b, serverB, pair.payload, options),
    };
    /** @type {{ a: Measurement[]; b: Measurement[] }} */
    const runs = { a: [], b: [] };
    try {
      for (let r = 0; r < options.rounds; r++) {
        // Object literals are evaluated in order: B first in every other round.
        const { a, b } =
          r % 2 === 0
            ? { a: await servers.a.measure(options.seconds), b: await servers.b.measure(options.seconds) }
            : { b: await servers.b.measure(options.seconds), a: await servers.a.measure(options.seconds) };
        runs.a.push(a);
        runs.b.push(b);
        log(
          `  ${pair.id.padEnd(10)} round ${r + 1}/${options.rounds}  A ${String(Math.round(a.rps)).padStart(6)} req/s ${a.cpuUsPerRequest.toFixed(0).padStart(4)} µs CPU (${a.systemUsPerRequest.toFixed(0)} sys)  B ${String(Math.round(b.rps)).padStart(6)} req/s ${b.cpuUsPerRequest.toFixed(0).padStart(4)} µs CPU (${b.systemUsPerRequest.toFixed(0)} sys)  A/B ${(a.rps / b.rps).toFixed(2)}  load generator ${Math.round(100 * a.loadGeneratorCpu)}% / ${Math.round(100 * b.loadGeneratorCpu)}% of a core`,
        );
      }
    } finally {
      await Promise.all([servers.a.stop(), servers.b.stop()]);
    }
    /**
     * @param {Measurement[]} list
     * @param {Side} server
     */
    const side = (list, server) => ({
      variant: server.variant,
      rps: summarize(list.map((m) => round(m.rps))),
      cpuUsPerRequest: summarize(list.map((m) => round(m.cpuUsPerRequest, 1))),
      systemUsPerRequest: summarize(list.map((m) => round(m.systemUsPerRequest, 1))),
      p99Ms: summarize(list.map((m) => m.p99Ms)),
      loadGeneratorCpu: summarize(list.map((m) => round(m.loadGeneratorCpu, 2))),
      failures: server.failures,
      requests: server.requests,
    });
    results.push({
      id: pair.id,
      label: pair.label,
      payload: pair.payload,
      target: pair.target,
      a: side(runs.a, servers.a),
      b: side(runs.b, servers.b),
      ratio: summarize(perRound(runs.a, runs.b, (a, b) => round(a.rps / b.rps, 3))),
      cpuRatio: summarize(perRound(runs.a, runs.b, (a, b) => round(b.cpuUsPerRequest / a.cpuUsPerRequest, 3))),
    });
  }
  return results;
}

/**
 * @typedef {Awaited<ReturnType<typeof start>>} Side
 * @typedef {Awaited<ReturnType<Side['measure']>>} Measurement
 * @typedef {Awaited<ReturnType<typeof runHttp>>[number]} HttpPairResult
 */
