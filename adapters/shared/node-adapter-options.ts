import { ChannelWebhookError } from '../../src/internal.js';

/**
 * Options of the Express and Koa adapters.
 *
 * @example
 * ```ts
 * const options: NodeAdapterOptions = { bodyTimeoutMs: 5_000 };
 * app.use(createExpressMiddleware(handle, options));
 * ```
 */
export interface NodeAdapterOptions {
  /**
   * How long the whole request body may take to arrive, in ms, counted from when the adapter starts
   * reading it. A body still incomplete then is answered 400 with code `body_read_failed` and the
   * connection is closed. Default 10,000.
   */
  bodyTimeoutMs?: number;
}

/** The body deadline used when none is given. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

// Node fires a longer timer at once (with a warning), which would cut off every body.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Checks the options an adapter factory was given and fills in the defaults, so that a mistake
 * fails when the app is built rather than on the first post.
 *
 * @param options - what the caller passed, possibly nothing.
 * @param factory - the factory's name, for the error message.
 * @example
 * ```ts
 * const { bodyTimeoutMs } = resolveNodeAdapterOptions(options, 'createKoaMiddleware');
 * ```
 */
export function resolveNodeAdapterOptions(options: NodeAdapterOptions | undefined, factory: string): Required<NodeAdapterOptions> {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new ChannelWebhookError('invalid_argument', `${factory}: options must be an object, got ${String(options)}`);
  }
  const bodyTimeoutMs = options?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (typeof bodyTimeoutMs !== 'number' || !(bodyTimeoutMs > 0) || bodyTimeoutMs > MAX_TIMER_MS) {
    throw new ChannelWebhookError(
      'invalid_argument',
      `${factory}: bodyTimeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, got ${String(bodyTimeoutMs)}`,
    );
  }
  return { bodyTimeoutMs };
}
