import { createFetchHandler } from '../fetch/index.js';
import { answer, createConsoleErrorLog, FIXED_PROBLEMS, systemClock } from '../../../src/adapter-kit/index.js';
import { ChannelWebhookError, createWebhookHandler, type ErrorContext, type Message } from '../../../src/index.js';
import {
  answerOperation,
  callShard,
  createObjectPorts,
  createObjectState,
  isOperationCall,
  operationFailed,
  SHARD_HEADER,
  type DurableObjectNamespaceLike,
  type DurableObjectStorageLike,
  type ObjectState,
} from '../../stores/cloudflare/index.js';
import { problemResponse } from './problem-response.js';

/**
 * What the runtime passes a Durable Object's constructor as `ctx`, as the webhook object uses it.
 *
 * @example
 * ```ts
 * const ctx: DurableObjectStateLike = state; // the first argument of the constructor
 * ```
 */
export interface DurableObjectStateLike {
  storage: DurableObjectStorageLike;
}

/**
 * The Durable Object that keeps webhooks, their messages, idempotency keys and rate windows: one
 * object per channel (a shard of channels, in practice one channel each), in the object's own
 * SQLite database. Export it from your worker and bind it in `wrangler.toml` as a SQLite-backed
 * class (`new_sqlite_classes`), under the binding `CHANNEL_WEBHOOKS` (another name: set the static
 * `binding` of a subclass). The store, the rate limiter and the router of `channel-webhooks/cloudflare`
 * reach it through that binding.
 *
 * A webhook post forwarded to it by `createDurableObjectFetchHandler` runs the whole handler here,
 * every store and limiter call a synchronous statement of this object: the credentials, the exact
 * sliding window and the guarded insert (channel not archived, webhook not revoked or rotated, key
 * unused) are each one step of an object that runs one thing at a time. A management call from
 * `createDurableObjectStore` is one such step too, so a revocation is seen by the very next step of
 * a post in flight. The schema of the object's database is migrated when the object starts, and
 * made by the first write of the object's own data: a post to a made-up URL whose id names an
 * object that holds nothing is answered 404 and leaves no database behind.
 *
 * Override `onMessage` in a subclass to hear of every new message stored here (to fan it out), and
 * `onError` to hear of failures; both default to nothing and to one line on `console.error`.
 *
 * @example
 * ```ts
 * // worker.js
 * import { ChannelWebhooksObject, createDurableObjectFetchHandler } from 'channel-webhooks/cloudflare';
 * export { ChannelWebhooksObject };
 * export default { fetch: (request, env) => createDurableObjectFetchHandler({ namespace: env.CHANNEL_WEBHOOKS })(request) };
 * ```
 *
 * @example
 * ```ts
 * // Fan new messages out, and bind the class under another name:
 * export class Webhooks extends ChannelWebhooksObject {
 *   static binding = 'WEBHOOKS';
 *   onMessage(message) {
 *     this.env.CHAT.get(this.env.CHAT.idFromName(message.channelId)).fetch('https://chat/new', { method: 'POST', body: JSON.stringify(message) });
 *   }
 * }
 * ```
 */
export class ChannelWebhooksObject {
  /** The name of the binding of this class in `wrangler.toml`, through which an object reaches the others. */
  static binding = 'CHANNEL_WEBHOOKS';

  /** The runtime's `ctx`, for a subclass. */
  protected readonly ctx: DurableObjectStateLike;
  /** The worker's bindings, for a subclass. */
  protected readonly env: Record<string, unknown>;
  #state: ObjectState | null = null;
  #webhooks: ((request: Request) => Promise<Response>) | null = null;

  constructor(ctx: DurableObjectStateLike, env: Record<string, unknown>) {
    this.ctx = ctx;
    this.env = env;
  }

  /** Answers a webhook post forwarded by the router, or an operation called by the store or the limiter. */
  fetch(request: Request): Promise<Response> {
    const shard = callShard(request);
    if (shard === null) {
      return Promise.resolve(
        operationFailed(
          new ChannelWebhookError(
            'misconfigured',
            `a webhook object is called through channel-webhooks/cloudflare only (no ${SHARD_HEADER} header)`,
          ),
        ),
      );
    }
    const isOperation = isOperationCall(request);
    let state: ObjectState;
    try {
      state = this.#ready();
    } catch (error) {
      this.onError(error, { stage: 'store' });
      return Promise.resolve(
        isOperation ? operationFailed(error) : problemResponse(answer(FIXED_PROBLEMS.storeFailed)),
      );
    }
    if (isOperation) return answerOperation(state, request);
    this.#webhooks ??= this.#createWebhooks(state, shard);
    return this.#webhooks(request);
  }

  /** Called once for every new message this object stored (not for duplicates), after it was stored. Default: nothing. */
  onMessage(_message: Message): void | Promise<void> {}

  /** Called for failures a sender only sees as a status (500). Default: one line on `console.error`, at most one per stage every 10 s. */
  onError(error: unknown, context: ErrorContext): void {
    this.#log(error, context);
  }

  readonly #log = createConsoleErrorLog(systemClock, 'ChannelWebhooksObject');

  #ready(): ObjectState {
    this.#state ??= createObjectState(this.ctx.storage);
    return this.#state;
  }

  // The handler of posts forwarded here, over this object's own operations (see createObjectPorts).
  #createWebhooks(state: ObjectState, shard: string): (request: Request) => Promise<Response> {
    const handle = createWebhookHandler({
      ...createObjectPorts(state, shard, () => this.#namespace()),
      onMessage: (message) => this.onMessage(message),
      onError: (error, context) => this.onError(error, context),
    });
    return createFetchHandler(handle);
  }

  #namespace(): DurableObjectNamespaceLike {
    const { binding } = this.constructor as typeof ChannelWebhooksObject;
    const namespace = this.env[binding] as DurableObjectNamespaceLike | undefined;
    if (typeof namespace?.idFromName !== 'function') {
      throw new ChannelWebhookError(
        'misconfigured',
        `ChannelWebhooksObject: no Durable Object binding named ${binding} in env; set the static binding of your subclass to the name wrangler.toml gives it`,
      );
    }
    return namespace;
  }
}
