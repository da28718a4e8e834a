/** @param {number[]} values */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  // Of no values, NaN (as `undefined` in the sums would make it).
  const [below, at] = [sorted[middle - 1] ?? Number.NaN, sorted[middle] ?? Number.NaN];
  return sorted.length % 2 === 1 ? at : (below + at) / 2;
};

/**
 * Median and the spread of a sample: min, max, and the largest distance from the median in %.
 * @param {number[]} values
 */
export function summarize(values) {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, spreadPct: m === 0 ? 0 : (100 * Math.max(m - min, max - m)) / m, samples: values };
}

/** @typedef {ReturnType<typeof summarize>} Summary */

/**
 * @param {number} value
 * @param {number} [digits]
 */
export const round = (value, digits = 0) => Number(value.toFixed(digits));

/**
 * `f` of each round of `a` with the same round of `b`: the rounds of two sides measured in turn.
 * @template A, B
 * @param {readonly A[]} a
 * @param {readonly B[]} b as many as `a`
 * @param {(a: A, b: B) => number} f
 */
export const perRound = (a, b, f) => a.map((x, i) => f(x, /** @type {B} */ (b[i])));
