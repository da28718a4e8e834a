/**
 * Counts the calls of a client's method (its round trips): `object[method]` calls `count()`
 * first from now on. Answers the method as it was, bound, whose calls are not counted.
 * @template {object} T
 * @template {keyof T} K
 * @param {T} object
 * @param {K} method a method of `object`
 * @param {() => void} count
 * @returns {T[K]}
 */
export function countCalls(object, method, count) {
  const original = /** @type {(...args: unknown[]) => unknown} */ (object[method]).bind(object);
  object[method] = /** @type {T[K]} */ ((/** @type {unknown[]} */ ...args) => (count(), original(...args)));
  return /** @type {T[K]} */ (original);
}
