import { ChannelWebhookError, isChannelWebhookError, settleWithin } from '../../../src/store-kit/index.js';

/**
 * Settles like `work`, or rejects with a `store_timeout` error after `ms`, on the core's deadline
 * (one timer per call, cleared when the call settles). A failure becomes a `store_failed` error.
 * The client-side timer also covers what a server-side `statement_timeout` cannot: waiting for a
 * pool connection to a database that does not answer.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  const failed = (error: unknown): never => {
    // node-postgres's own `query_timeout` (set to what is left of the same deadline) may fire
    // first: that is this deadline passing too.
    if (error instanceof Error && error.message === PG_QUERY_TIMEOUT) throw storeTimedOut(what, ms);
    throw isChannelWebhookError(error)
      ? error
      : new ChannelWebhookError(
          'store_failed',
          `PostgreSQL store: ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
  };
  return settleWithin(work.then(undefined, failed), ms, () => storeTimedOut(what, ms));
}

/** The message of node-postgres's error when a query's `query_timeout` passes. */
const PG_QUERY_TIMEOUT = 'Query read timeout';

/** The error of a call that missed its deadline of `ms`. */
export function storeTimedOut(what: string, ms: number): ChannelWebhookError {
  return new ChannelWebhookError('store_timeout', `PostgreSQL store: ${what} did not finish within ${ms} ms`);
}
