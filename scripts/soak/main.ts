// The soak: two instances of one app on a durable store (or one in memory), a steady mixed load
// from a process of its own, faults on a schedule, and at the end a verdict on what was stored and
// answered, with memory and p99 sampled over the run. Exits non-zero when a check fails.
//
//   npm run soak                                          # SQLite, 30 minutes, 200 requests/s
//   SOAK_TARGET=postgres SOAK_SECONDS=180 npm run soak    # PostgreSQL + Redis, 3 minutes
//   SOAK_TARGET=memory npm run soak
//   SOAK_FAULTS=postgres@60,redis@120,kill@150 SOAK_TARGET=postgres npm run soak
//
// See the "Soak" section of docs/scaling.md for the load, the faults and their windows, and the
// rules each check holds the run to. Samples, answers and the plot go to .tmp/soak/<target>/, or
// SOAK_OUT. Run it from the repository root: the PostgreSQL target runs examples/multi-instance on
// the built package (`npm run soak` builds it).
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Message } from '../../src/index.js';
import {
  type Check,
  checkDeadlines,
  checkExactlyOnce,
  checkFlat,
  checkNoFailureOutsideFaults,
  type FaultWindow,
  type Sample,
  trendOf,
} from './check.js';
import { samplesCsv, samplesSvg } from './plot.js';
import { type FaultKind, startTarget, type Target, type TargetName } from './targets.js';
import type { AnswerRecord } from './world.js';

const env = process.env;
const target = (env.SOAK_TARGET ?? 'sqlite') as TargetName;
if (!['memory', 'sqlite', 'postgres'].includes(target))
  throw new Error(`SOAK_TARGET must be memory, sqlite or postgres, not ${target}`);
const seconds = Number(env.SOAK_SECONDS ?? 1_800);
const rate = Number(env.SOAK_RATE ?? 200);
const webhooks = Number(env.SOAK_WEBHOOKS ?? 500);
const sampleMs = 1_000 * Number(env.SOAK_SAMPLE_SECONDS ?? Math.min(10, Math.max(1, seconds / 60)));
const downMs = 1_000 * Number(env.SOAK_DOWN_SECONDS ?? 2);
const graceMs = 1_000 * Number(env.SOAK_GRACE_SECONDS ?? 10);
const slopeMinSeconds = Number(env.SOAK_SLOPE_MIN_SECONDS ?? 300);
const RECOVERY_LIMIT_MS = 120_000;
const out = `${env.SOAK_OUT ?? `.tmp/soak/${target}`}/`;

/** `SOAK_FAULTS` (`kind@second,…`), or the target's faults in turn, evenly over the run: one round in a short run, one every ~10 minutes in a long one, three at least. */
function schedule(kinds: FaultKind[]): Array<{ kind: FaultKind; at: number }> {
  if (env.SOAK_FAULTS !== undefined) {
    return env.SOAK_FAULTS.split(',')
      .filter((item) => item !== '')
      .map((item) => {
        const [kind, at] = item.split('@');
        if (!kinds.includes(kind as FaultKind))
          throw new Error(`SOAK_FAULTS: ${target} cannot suffer "${kind}" (it can: ${kinds.join(', ') || 'none'})`);
        return { kind: kind as FaultKind, at: Number(at) };
      });
  }
  if (kinds.length === 0) return [];
  const count = seconds < 600 ? kinds.length : Math.max(3, kinds.length * Math.floor(seconds / 600));
  return Array.from({ length: count }, (_, i) => ({
    kind: kinds[i % kinds.length]!,
    at: Math.round((seconds * (i + 1)) / (count + 1)),
  }));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until a post through every instance is stored again (201): the moment the target answers again. */
async function recovered(world: Target, probes: { next: number }): Promise<boolean> {
  const giveUpAt = Date.now() + RECOVERY_LIMIT_MS;
  for (const instance of world.instances) {
    for (;;) {
      const path = world.probePaths[probes.next % world.probePaths.length]!;
      const key = `probe-${probes.next++}`;
      const status = await fetch(`${instance.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: '{"text":"probe"}',
        // Generous: on a busy machine a probe that is answered late is still an answer.
        signal: AbortSignal.timeout(10_000),
      }).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 201) break;
      if (Date.now() > giveUpAt) return false;
      await pause(250);
    }
  }
  return true;
}

function runLoad(world: Target, answersFile: string, webhooksFile: string): Promise<{ sent: number; shed: number }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./load.js', import.meta.url))], {
    env: {
      PATH: env.PATH ?? '',
      SOAK_ORIGINS: world.instances.map((instance) => instance.origin).join(','),
      SOAK_WEBHOOKS_FILE: webhooksFile,
      SOAK_RATE: String(rate),
      SOAK_SECONDS: String(seconds),
      SOAK_ANSWERS_FILE: answersFile,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as { sent: number; shed: number })
        : reject(new Error(`the load generator exited with ${code}`)),
    ),
  );
}

function percentile(sorted: number[], share: number): number | null {
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

async function main(): Promise<boolean> {
  await mkdir(out, { recursive: true });
  console.log(`soak: ${target}, ${seconds} s at ${rate} requests/s over ${webhooks} webhooks; setting up`);
  const world = await startTarget(target, webhooks);
  // Stopped early, the soak still stops what it started.
  const interrupt = () => void world.stop().finally(() => process.exit(130));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const faults = schedule(world.faults);
    console.log(
      `soak: ${world.instances.length} instance(s) at ${world.instances.map((i) => i.origin).join(', ')}; faults: ${faults.map((f) => `${f.kind}@${f.at}s`).join(', ') || 'none'}`,
    );
    const answersFile = `${out}answers.ndjson`;
    const webhooksFile = `${out}webhooks.json`;
    await writeFile(webhooksFile, JSON.stringify({ paths: world.paths }));

    const startedAt = Date.now();
    const raw: Array<{ atMs: number; instances: Sample['instances'] }> = [];
    const sample = async () => {
      const atMs = Date.now();
      const memory = await Promise.all(world.instances.map((instance) => instance.sample()));
      raw.push({
        atMs,
        instances: memory.map((m) =>
          m === null ? null : { heapMiB: m.heapUsed / 2 ** 20, rssMiB: m.rss / 2 ** 20, youngMiB: m.young / 2 ** 20 },
        ),
      });
    };
    await sample();
    const sampler = setInterval(() => void sample(), sampleMs);
    const load = runLoad(world, answersFile, webhooksFile);

    const windows: FaultWindow[] = [];
    const unrecovered: string[] = [];
    const probes = { next: 0 };
    const injecting = (async () => {
      for (const fault of faults) {
        await pause(startedAt + fault.at * 1_000 - Date.now());
        const start = Date.now();
        await world.inject(fault.kind, downMs);
        if (!(await recovered(world, probes))) unrecovered.push(`${fault.kind}@${fault.at}s`);
        const back = Date.now();
        windows.push({ kind: fault.kind, start, recovered: back, end: back + graceMs });
        console.log(
          `soak: ${fault.kind} at ${Math.round((start - startedAt) / 1_000)} s, answering again after ${((back - start) / 1_000).toFixed(1)} s`,
        );
      }
    })();
    const { sent, shed } = await load;
    await injecting;
    clearInterval(sampler);
    await sample();

    let messages: Message[] = await world.readMessages();
    // Plants a message stored twice, so the test can see the checker fail.
    if (env.SOAK_PLANT_DOUBLE_STORE === '1' && messages.length > 0) messages = [...messages, { ...messages[0]! }];
    const errors = world.instances.map((instance) => instance.errors().filter((line) => line.trim() !== '').length);
    const answers = (await readFile(answersFile, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as AnswerRecord);

    const samples: Sample[] = raw.map((each, i) => {
      const from = i === 0 ? startedAt : raw[i - 1]!.atMs;
      const inInterval = answers.filter(
        (answer) => answer.status !== 0 && answer.answered > from && answer.answered <= each.atMs,
      );
      const latencies = inInterval.map((answer) => answer.answered - answer.sent).sort((a, b) => a - b);
      return {
        at: Math.round((each.atMs - startedAt) / 1_000),
        instances: each.instances,
        p99Ms: percentile(latencies, 0.99),
        answersPerSecond: i === 0 ? 0 : Math.round((inInterval.length * 1_000) / Math.max(1, each.atMs - from)),
        inFault: windows.some((w) => w.start <= each.atMs && w.end >= from),
      };
    });
    const trend = trendOf(samples, seconds);
    const checks: Check[] = [
      checkExactlyOnce(answers, messages, windows),
      ...checkNoFailureOutsideFaults(answers, windows),
      checkDeadlines(answers),
      checkFlat(trend, slopeMinSeconds),
      {
        name: `every fault answered again within ${RECOVERY_LIMIT_MS / 1_000} s`,
        ok: unrecovered.length === 0 && windows.length === faults.length,
        detail: unrecovered.length === 0 ? `${windows.length} of ${faults.length}` : `not: ${unrecovered.join(', ')}`,
      },
    ];

    const latencies = answers
      .filter((a) => a.status !== 0)
      .map((a) => a.answered - a.sent)
      .sort((a, b) => a - b);
    const tally = new Map<string, number>();
    for (const answer of answers)
      tally.set(
        `${answer.kind} ${answer.status || 'lost'}`,
        (tally.get(`${answer.kind} ${answer.status || 'lost'}`) ?? 0) + 1,
      );
    const summary = {
      target,
      seconds,
      rate,
      webhooks,
      startedAt: new Date(startedAt).toISOString(),
      sent,
      shed,
      answers: answers.length,
      stored: messages.length,
      statuses: Object.fromEntries([...tally].sort()),
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: latencies[latencies.length - 1] ?? null,
      windows: windows.map((w) => ({
        kind: w.kind,
        at: (w.start - startedAt) / 1_000,
        answeringAfter: (w.recovered - w.start) / 1_000,
        graceSeconds: graceMs / 1_000,
      })),
      onErrorLines: errors,
      trend,
      checks,
    };
    await writeFile(`${out}summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
    await writeFile(`${out}samples.csv`, samplesCsv(samples));
    await writeFile(
      `${out}samples.svg`,
      samplesSvg(`soak: ${target}, ${seconds} s at ${rate} requests/s`, samples, windows, startedAt),
    );

    console.log('');
    console.log(
      `answers:  ${answers.length} of ${sent} sent (${shed} shed), p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, slowest ${summary.maxMs} ms`,
    );
    console.log(
      `statuses: ${[...tally]
        .sort()
        .map(([key, count]) => `${key}: ${count}`)
        .join(', ')}`,
    );
    console.log(`stored:   ${messages.length} messages; onError lines per instance: ${errors.join(', ')}`);
    for (const check of checks) console.log(`${check.ok ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
    console.log(`soak: samples and plot in ${out}`);
    return checks.every((check) => check.ok);
  } finally {
    await world.stop();
  }
}

const passed = await main();
console.log(passed ? 'soak: PASSED' : 'soak: FAILED');
process.exitCode = passed ? 0 : 1;
