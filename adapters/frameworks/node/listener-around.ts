import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FIXED_PROBLEMS,
  answer,
  createConsoleErrorLog,
  isThenable,
  systemClock,
  type ErrorContext,
} from '../../../src/adapter-kit/index.js';
import { answerWriteFailure } from './answer-write-failure.js';
import type { NodeAdapterOptions } from './node-request-parts.js';
import { writeNodeResponse } from './write-node-response.js';

/**
 * Options of {@link createNodeListener} and `createNodeManagementListener`.
 *
 * @example
 * ```ts
 * const options: NodeListenerOptions = { fallback: (req, res) => app(req, res), bodyTimeoutMs: 5_000 };
 * ```
 */
export interface NodeListenerOptions extends NodeAdapterOptions {
  /** Answers requests the listener does not take, e.g. the rest of the app. Default: a 404 problem. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Called when an answer could not be written (stage `write`; the client then gets a 500 problem,
   * or a cut connection once the head is out). Default: one line on `console.error`, at most one
   * every 10 s.
   */
  onError?: (error: unknown, context: ErrorContext<'write'>) => void;
}

/**
 * A `node:http` request listener, as `http.createServer` and `https.createServer` take it.
 *
 * @example
 * ```ts
 * const listener: NodeListener = createNodeListener(handle);
 * ```
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The node:http listener around one adapter's `serve` (the endpoint's or the management API's): its
 * answer; `fallback` (default: a 404 problem) for a request it does not take (`serve` gives
 * `null`); and an answer that could not be written handled by {@link answerWriteFailure}, told to
 * `onError` (default: one console line named after `factory`).
 */
export function listenerAround<T>(
  serve: (req: IncomingMessage, res: ServerResponse) => T | PromiseLike<T> | null,
  factory: string,
  options: NodeListenerOptions,
): NodeListener {
  const { fallback = answerNotHere, onError = createConsoleErrorLog(systemClock, factory) } = options;
  const failed = answerWriteFailure((error) => onError(error, { stage: 'write' }));
  return (req, res) => {
    let answered: T | PromiseLike<T> | null;
    try {
      answered = serve(req, res);
    } catch (error) {
      return failed(res, error);
    }
    if (answered === null) return fallback(req, res);
    if (isThenable(answered)) answered.then(undefined, (error: unknown) => failed(res, error));
  };
}

function answerNotHere(_req: IncomingMessage, res: ServerResponse): void {
  writeNodeResponse(res, answer(FIXED_PROBLEMS.noWebhookHere));
}
