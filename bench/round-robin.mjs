/**
 * The `i`-th of `list`, going round it: how every part spreads its posts over a world's webhooks.
 * @template T
 * @param {readonly T[]} list not empty
 * @param {number} i
 */
export const roundRobin = (list, i) => /** @type {T} */ (list[i % list.length]);
