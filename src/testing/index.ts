/**
 * Tools for people who write a storage or limiter adapter, or test an app built on this library:
 * the conformance suites and a controllable clock. Nothing here imports a test framework or
 * `node:*`; the suites take your framework's `describe` and `it`, and `groups` runs a suite's groups
 * alone.
 *
 * @module
 */
export { runStoreConformance } from './run-store-conformance.js';
export type { StoreConformanceGroup, StoreConformanceOptions } from './run-store-conformance.js';
export { runRateLimiterConformance } from './run-rate-limiter-conformance.js';
export type { RateLimiterConformanceGroup, RateLimiterConformanceOptions } from './run-rate-limiter-conformance.js';
export { ConformanceError } from './assert.js';
export type { TestApi } from './test-api.js';
export { createFakeClock } from '../clock.js';
export type { FakeClock } from '../clock.js';
