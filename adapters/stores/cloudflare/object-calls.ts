import { ChannelWebhookError, isChannelWebhookError } from '../../../src/store-kit/index.js';
import type { Operation } from './object-state.js';
import type { DurableObjectNamespaceLike } from './storage-types.js';

// A call to an object is a POST of `{ operation, args }` to this path, answered `{ value }` or
// `{ error: { code, message } }`. Only the worker's store, limiter and router, and other webhook
// objects, reach an object: a Durable Object has no address of its own on the internet.
export const OPERATION_URL = 'https://channel-webhooks.internal/operation';
// Which shard an object is: sent with every call, since an object learns nothing of its name.
export const SHARD_HEADER = 'x-channel-webhooks-shard';

/** Calls one operation of the object of a shard: a value when the object is this one, else a promise. */
export type CallShard = (shard: string, operation: Operation, args: readonly unknown[]) => unknown;

/** The object of a shard. */
export function objectOf(namespace: DurableObjectNamespaceLike, shard: string) {
  return namespace.get(namespace.idFromName(`shard:${shard}`));
}

/** Calls the objects of `namespace`, each call one `fetch` of the object's stub. */
export function createRemoteCall(namespace: DurableObjectNamespaceLike): CallShard {
  return (shard, operation, args) => {
    const code = failureCode(operation);
    const request = new Request(OPERATION_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SHARD_HEADER]: shard },
      body: JSON.stringify({ operation, args }),
    });
    return objectOf(namespace, shard)
      .fetch(request)
      .then((response) => response.json() as Promise<{ value?: unknown; error?: { code: string; message: string } }>)
      .then(
        (answer) => {
          if (answer.error !== undefined)
            throw new ChannelWebhookError(answer.error.code as ChannelWebhookError['code'], answer.error.message);
          return answer.value ?? null;
        },
        (error: unknown) => {
          throw isChannelWebhookError(error) ? error : objectFailure(code, operation, error);
        },
      );
  };
}

/** The error a failed call is reported as: the limiter's for its `hit`, the store's for the rest. */
export function failureCode(operation: Operation): 'store_failed' | 'rate_limiter_failed' {
  return operation === 'hit' ? 'rate_limiter_failed' : 'store_failed';
}

export function objectFailure(
  code: 'store_failed' | 'rate_limiter_failed',
  operation: string,
  error: unknown,
): ChannelWebhookError {
  const who = code === 'store_failed' ? 'Durable Object store' : 'Durable Object rate limiter';
  return new ChannelWebhookError(
    code,
    `${who}: ${operation} failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
