// A closed loop in this process: `concurrency` callers each send the next post as soon as the last
// one answered, for `seconds`. Latency of every post is kept (a few MB at most), so p50/p99 are exact.

/**
 * Runs `post(i)` (resolving to a status) in `concurrency` loops for `seconds`, or `until` posts were sent.
 * @param {(i: number) => Promise<number>} post
 * @param {{ seconds: number; concurrency: number; until?: number }} options
 */
export async function drive(post, { seconds, concurrency, until = Number.POSITIVE_INFINITY }) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<string, number>} */
  const statuses = {};
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline && next < until) {
      const began = performance.now();
      /** @type {number | 'error'} */
      let status;
      try {
        status = await post(next++);
      } catch {
        status = 'error';
      }
      latencies.push(performance.now() - began);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    ...summary(latencies, elapsed),
    statuses,
    cpuUsPerPost: round((cpu.user + cpu.system) / latencies.length, 1),
  };
}

/** @typedef {Awaited<ReturnType<typeof drive>>} DriveResult */

/**
 * Posts per second and the latency percentiles of a run.
 * @param {number[]} latencies
 * @param {number} elapsed
 */
export function summary(latencies, elapsed) {
  const sorted = Float64Array.from(latencies).sort();
  /** @param {number} q */
  const at = (q) =>
    sorted.length === 0
      ? null
      : round(/** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]), 3);
  return { posts: sorted.length, perSecond: Math.round(sorted.length / elapsed), p50Ms: at(0.5), p99Ms: at(0.99) };
}

/**
 * `x` to `digits` decimals; null and undefined as they are.
 * @template {number | null | undefined} X
 * @param {X} x
 * @returns {X extends number ? number : X}
 */
export const round = (x, digits = 2) =>
  /** @type {X extends number ? number : X} */ (x === null || x === undefined ? x : Number(x.toFixed(digits)));
