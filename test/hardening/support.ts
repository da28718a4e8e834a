import { expect } from 'vitest';
import type { WebhookResponse } from '../../src/http/http-types.js';
import { PROBLEMS } from '../../src/http/problem.js';
import type { Message } from '../../src/ports.js';

/** Every status a post may be answered with (docs/design.md, "The order of the checks"). */
export const CONTRACT_STATUSES = [200, 201, 400, 404, 405, 409, 413, 415, 429, 500] as const;

/** The status each stable problem code goes with. */
export const CODE_STATUS: Record<string, number> = Object.fromEntries(
  Object.entries(PROBLEMS).map(([code, { status }]) => [code, status]),
);

/** Runs per property: `FUZZ_RUNS` scaled by `share`, or the seeded slice's `slice` when unset. */
export function fuzzRuns(slice: number, share: number): number {
  const total = Number(process.env.FUZZ_RUNS ?? '');
  return Number.isFinite(total) && total > 0 ? Math.max(1, Math.ceil(total * share)) : slice;
}

/** The seed of every property: fixed, so a failure replays; `FUZZ_SEED` picks another. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);

/**
 * Asserts that an answer is one the contract allows: a known status; for a non-2xx, an RFC 9457
 * problem body whose `status` and `code` agree with it; for a 2xx, the success body.
 */
export function expectContractAnswer(response: WebhookResponse, allowed: readonly number[] = CONTRACT_STATUSES): void {
  expect(allowed, `status ${response.status}: ${JSON.stringify(response.body)}`).toContain(response.status);
  // Errors may answer a GET, whose 404/405 a cache could keep; POST successes are never cached.
  expect(response.headers['cache-control']).toBe(response.status < 300 ? undefined : 'no-store');
  if (response.status === 200 || response.status === 201) {
    expect(response.headers['content-type']).toBe('application/json');
    const body = response.body as { message: Message; duplicate: boolean };
    expect(body.duplicate).toBe(response.status === 200);
    expect(typeof body.message.id).toBe('string');
    return;
  }
  expect(response.headers['content-type']).toBe('application/problem+json');
  expectProblemBody(response.body, response.status);
}

/** Asserts an RFC 9457 body with a stable code matching `status`. */
export function expectProblemBody(body: unknown, status: number): void {
  const problem = body as Record<string, unknown>;
  expect(problem).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code: expect.any(String),
  });
  expect(CODE_STATUS[problem.code as string], `code ${String(problem.code)} with status ${status}`).toBe(status);
  if (status === 400 && problem.code !== 'invalid_json' && problem.code !== 'body_read_failed') {
    expect(Array.isArray(problem.errors) && problem.errors.length > 0).toBe(true);
  }
}

/** Own property names of the built-in prototypes a parser could be tricked into writing to. */
export function prototypeSnapshot(): string {
  return JSON.stringify(
    [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((proto) =>
      Reflect.ownKeys(proto).map(String).sort(),
    ),
  );
}

/** Collects unhandled rejections and uncaught exceptions while installed. */
export function watchProcess(): { problems: unknown[]; stop(): void } {
  const problems: unknown[] = [];
  const onProblem = (error: unknown) => problems.push(error);
  process.on('unhandledRejection', onProblem);
  process.on('uncaughtException', onProblem);
  return {
    problems,
    stop() {
      process.off('unhandledRejection', onProblem);
      process.off('uncaughtException', onProblem);
    },
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
