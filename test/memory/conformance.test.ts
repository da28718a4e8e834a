import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createMemoryStore } from '../../src/index.js';
import { runRateLimiterConformance, runStoreConformance } from '../../src/testing/index.js';
import { answering, type AnswerMode } from '../support/answer-modes.js';

// The memory store and limiter answer synchronously; the same suites run against them as they are,
// wrapped to answer only with promises, and wrapped to alternate.
for (const mode of ['sync', 'async', 'mixed'] as const satisfies readonly AnswerMode[]) {
  runStoreConformance({
    describe,
    it,
    name: `memory store conformance (${mode})`,
    createStore: () => answering(createMemoryStore(), mode),
  });

  runRateLimiterConformance({
    describe,
    it,
    name: `memory rate limiter conformance (${mode})`,
    createRateLimiter: (options) => answering(createMemoryRateLimiter(options), mode),
  });
}

describe('answer modes of the wrapped ports', () => {
  it('sync answers values, async promises, mixed alternates', () => {
    const store = createMemoryStore();
    expect(answering(store, 'sync').getChannel('x')).toBeNull();
    expect(answering(store, 'async').getChannel('x')).toBeInstanceOf(Promise);
    const mixed = answering(store, 'mixed');
    expect(
      [mixed.getChannel('x'), mixed.getChannel('x'), mixed.getChannel('x')].map((answer) => answer instanceof Promise),
    ).toEqual([true, false, true]);
  });
});
