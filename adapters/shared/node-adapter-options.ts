import { resolveBodyTimeout } from '../../src/internal.js';

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
  return { bodyTimeoutMs: resolveBodyTimeout(options, factory) };
}
