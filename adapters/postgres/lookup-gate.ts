import { ChannelWebhookError } from '../../src/internal.js';

/**
 * Bounds the webhook lookups one store runs at once. Each post to an unknown (but well-formed) id
 * costs a lookup, so a flood of random ids would otherwise take every pool connection and make
 * legitimate posts wait behind it. At most `concurrent` lookups run, at most `queued` more wait,
 * and past that a lookup fails at once with `store_failed` (the poster gets a 500 and retries)
 * instead of queuing without bound. Known and unknown ids go through the same gate and cost the
 * same, so its answers say nothing about which ids exist.
 *
 * Lookups of one id are deliberately not shared: a lookup that joined one sent before a revocation
 * completed would read the webhook as it was before it.
 */
export function createLookupGate(concurrent: number, queued: number): <T>(run: () => Promise<T>) => Promise<T> {
  const waiting: Array<() => void> = [];
  let running = 0;

  return async (run) => {
    if (running < concurrent) running++;
    else if (waiting.length < queued) await new Promise<void>((resolve) => waiting.push(resolve));
    else throw new ChannelWebhookError('store_failed', 'PostgreSQL store: too many webhook lookups at once; retry later');
    try {
      return await run();
    } finally {
      // Hand the slot straight to the next waiter, so a lookup arriving meanwhile cannot jump the queue.
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
