/**
 * The two functions of a test framework the conformance suites need. Vitest's, Jest's, Mocha's,
 * Bun's and `node:test`'s `describe` and `it` all fit. A test a suite leaves out (an optional
 * method or toggle missing) is registered with `it.skip`, its name saying why, so that it shows as
 * skipped rather than absent.
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
  /**
   * Declares one test, and with `it.skip` one left out. Give the framework a test timeout of 20 s
   * or more: the race tests do real I/O.
   */
  it: ((name: string, test: () => Promise<void>) => unknown) & {
    /** Declares a test that is not run, as the suites register one they leave out. */
    skip?: (name: string, test: () => Promise<void>) => unknown;
  };
}

/**
 * Registers a test the suite leaves out, as skipped, its name saying why: with the framework's
 * `it.skip`, or, for one without it, as a test that passes at once under that name.
 */
export function skipTest(it: TestApi['it'], name: string, reason: string): void {
  const title = `${name} (skipped: ${reason})`;
  if (typeof it.skip === 'function') it.skip(title, async () => undefined);
  else it(title, async () => undefined);
}
