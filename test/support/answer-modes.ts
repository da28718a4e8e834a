/**
 * Wraps every method of a port so that it answers as `mode` says: `sync` as is, `async` always
 * with a promise (a rejected one for a throw), `mixed` alternating per call between the two. The
 * conformance suites must give the same verdicts for all three. `watchFeed` is left as it is: its
 * answer is the function that ends the watch, never a promise.
 */
export type AnswerMode = 'sync' | 'async' | 'mixed';

export function answering<T extends object>(port: T, mode: AnswerMode): T {
  if (mode === 'sync') return port;
  let calls = 0;
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(port)) {
    wrapped[name] =
      typeof value !== 'function' || name === 'watchFeed'
        ? value
        : (...args: unknown[]) => {
            calls++;
            if (mode === 'mixed' && calls % 2 === 0) return (value as (...a: unknown[]) => unknown).apply(port, args);
            try {
              return Promise.resolve((value as (...a: unknown[]) => unknown).apply(port, args));
            } catch (error) {
              return Promise.reject(error);
            }
          };
  }
  return wrapped as T;
}
