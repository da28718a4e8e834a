import { describe, it } from 'vitest';
import { createMemoryRateLimiter, createMemoryStore } from '../../src/index.js';
import { runRateLimiterConformance, runStoreConformance } from '../../src/testing/index.js';

runStoreConformance({ describe, it, name: 'memory store conformance', createStore: createMemoryStore });

runRateLimiterConformance({
  describe,
  it,
  name: 'memory rate limiter conformance',
  createRateLimiter: (options) => createMemoryRateLimiter(options),
});
