/**
 * Tools for people who write a storage or limiter adapter, or test an app built on this library:
 * the conformance suites and a controllable clock. Nothing here imports a test framework or
 * `node:*`; the suites take your framework's `describe` and `it`, and each group of a suite runs alone
 * too (`runStoreMessageConformance`, `runRateLimiterRaceConformance`, …).
 *
 * @module
 */
export {
  runStoreChannelConformance,
  runStoreConformance,
  runStoreGuardConformance,
  runStoreMessageConformance,
  runStoreWebhookConformance,
} from './run-store-conformance.js';
export type { StoreConformanceOptions } from './run-store-conformance.js';
export {
  runRateLimiterConformance,
  runRateLimiterModelConformance,
  runRateLimiterRaceConformance,
  runRateLimiterWindowConformance,
} from './run-rate-limiter-conformance.js';
export type { RateLimiterConformanceOptions } from './run-rate-limiter-conformance.js';
export { ConformanceError } from './assert.js';
export type { TestApi } from './test-api.js';
export { createFakeClock } from '../clock.js';
export type { FakeClock } from '../clock.js';
