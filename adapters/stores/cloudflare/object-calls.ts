import { ChannelWebhookError, isChannelWebhookError } from '../../../src/store-kit/index.js';
import { OPERATIONS, type ObjectState, type Operation } from './object-state.js';
import { keyShard } from './shard.js';
import type { DurableObjectNamespaceLike } from './storage-types.js';

// A call to an object is a POST of `{ operation, args }` to this path, answered `{ value }` or
// `{ error: { code, message } }`. Only the worker's store, limiter and router, and other webhook
// objects, reach an object: a Durable Object has no address of its own on the internet.
export const OPERATION_URL = 'https://channel-webhooks.internal/operation';
const OPERATION_PATH = new URL(OPERATION_URL).pathname;
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

/**
 * Forwards a webhook post, as it is, body streaming, to the object its webhook id names, which
 * runs the handler there: the router's one call.
 */
export function forwardToObject(
  namespace: DurableObjectNamespaceLike,
  webhookId: string,
  request: Request,
): Promise<Response> {
  const shard = keyShard(webhookId);
  const forwarded = new Request(request);
  forwarded.headers.set(SHARD_HEADER, shard);
  return objectOf(namespace, shard).fetch(forwarded);
}

/** The shard an object is called as, or `null` for a request that did not come through this package. */
export function callShard(request: Request): string | null {
  return request.headers.get(SHARD_HEADER);
}

/** Whether a request to an object is an operation (from a store, a limiter or another object), not a post. */
export function isOperationCall(request: Request): boolean {
  return request.method === 'POST' && new URL(request.url).pathname === OPERATION_PATH;
}

/** The object's answer to an operation call: `{ value }`, or the failure as {@link operationFailed} says it. */
export async function answerOperation(state: ObjectState, request: Request): Promise<Response> {
  const { operation, args } = (await request.json()) as { operation: Operation; args: unknown[] };
  if (!OPERATIONS.has(operation))
    return operationFailed(new ChannelWebhookError('misconfigured', `no operation ${JSON.stringify(operation)}`));
  try {
    return Response.json({ value: runOperation(state, operation, args) ?? null });
  } catch (error) {
    return operationFailed(error);
  }
}

/** A failed call's answer, which the caller's {@link createRemoteCall} throws again as the same error. */
export function operationFailed(error: unknown): Response {
  const { code, message } = isChannelWebhookError(error)
    ? error
    : {
        code: 'store_failed',
        message: `Durable Object store: ${error instanceof Error ? error.message : String(error)}`,
      };
  return Response.json({ error: { code, message } }, { status: 500 });
}

/** Runs one operation of this object, turning a failure of the database into the operation's code with the reason. */
export function runOperation(state: ObjectState, operation: Operation, args: readonly unknown[]): unknown {
  try {
    return (state[operation] as (...args: readonly unknown[]) => unknown)(...args);
  } catch (error) {
    throw isChannelWebhookError(error) ? error : objectFailure(failureCode(operation), operation, error);
  }
}

/** The error a failed call is reported as: the limiter's for its `hit`, the store's for the rest. */
function failureCode(operation: Operation): 'store_failed' | 'rate_limiter_failed' {
  return operation === 'hit' ? 'rate_limiter_failed' : 'store_failed';
}

function objectFailure(code: 'store_failed' | 'rate_limiter_failed', operation: string, error: unknown) {
  const who = code === 'store_failed' ? 'Durable Object store' : 'Durable Object rate limiter';
  return new ChannelWebhookError(
    code,
    `${who}: ${operation} failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
