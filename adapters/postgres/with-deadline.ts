import { ChannelWebhookError, isChannelWebhookError } from '../../src/internal.js';

/**
 * Settles like `work`, or rejects with a `store_timeout` error after `ms`. The client-side timer
 * also covers what a server-side `statement_timeout` cannot: waiting for a pool connection to a
 * database that does not answer.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ChannelWebhookError('store_timeout', `PostgreSQL store: ${what} did not finish within ${ms} ms`));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          isChannelWebhookError(error)
            ? error
            : new ChannelWebhookError('store_failed', `PostgreSQL store: ${what} failed: ${messageOf(error)}`, { cause: error }),
        );
      },
    );
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
