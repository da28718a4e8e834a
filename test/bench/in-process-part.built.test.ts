import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const CORE = fileURLToPath(new URL('../../bench/core.mjs', import.meta.url));

// `npm run bench` takes minutes and is not part of the tests, so a change to the code it times
// (a renamed export, say) would break it unseen. This runs its in-process part for a moment, with
// every step it times, and checks that each one was measured and every post was answered 201.
it('the in-process part of npm run bench runs against the current code', async () => {
  const { stdout } = await run(process.execPath, [CORE], {
    env: { ...process.env, BENCH_CORE_SECONDS: '0.05', BENCH_ROUNDS: '1', BENCH_WEBHOOKS: '1000' },
    timeout: 60_000,
  });
  const result = JSON.parse(stdout) as {
    posts: Record<string, { failures: number; cpuUsPerPost: number; floor?: { failures: number } }>;
    validation: Record<string, { validateUs: number }>;
    secrets: Record<string, number>;
    limiterUsPerHit: Record<string, number>;
  };
  for (const [payload, posts] of Object.entries(result.posts)) {
    expect([payload, posts.failures, posts.floor?.failures ?? 0]).toEqual([payload, 0, 0]);
    expect(posts.cpuUsPerPost).toBeGreaterThan(0);
  }
  for (const step of Object.values(result.validation)) expect(step.validateUs).toBeGreaterThan(0);
  expect(Object.keys(result.secrets)).toEqual(['coreHashAndCompareUs', 'nodeCryptoHashAndCompareUs']);
  for (const microseconds of [...Object.values(result.secrets), ...Object.values(result.limiterUsPerHit)])
    expect(microseconds).toBeGreaterThan(0);
}, 90_000);
