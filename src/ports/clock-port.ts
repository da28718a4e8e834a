/**
 * A source of time. The core never reads the wall clock; it asks the clock.
 *
 * @example
 * ```ts
 * const clock: Clock = { now: () => Date.now() };
 * ```
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The methods every factory that takes a clock checks it for. */
export const CLOCK_METHODS = ['now'] as const satisfies readonly (keyof Clock)[];
