/**
 * The two functions of a test framework the conformance suites need. Vitest's, Jest's, Mocha's and
 * `node:test`'s `describe` and `it` all fit.
 *
 * @example
 * ```ts
 * import { describe, it } from 'node:test';
 * runStoreConformance({ describe, it, createStore: () => createMyStore() });
 * ```
 */
export interface TestApi {
  /** Groups tests. */
  describe: (name: string, body: () => void) => unknown;
  /** Declares one test. Give the framework a test timeout of 20 s or more: the race tests do real I/O. */
  it: (name: string, test: () => Promise<void>) => unknown;
}
