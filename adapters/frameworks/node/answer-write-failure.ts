import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FIXED_PROBLEMS,
  answer,
  createConsoleErrorLog,
  isThenable,
  systemClock,
} from '../../../src/adapter-kit/index.js';
import type { NodeListener, NodeListenerOptions } from './create-node-listener.js';
import { writeNodeResponse } from './write-node-response.js';

/**
 * What a node:http listener does when an answer could not be written: tells `onError`, then gives
 * the client a 500 problem while the head is still unsent, else cuts the connection, so that the
 * client never takes a half answer for a whole one.
 */
export function answerWriteFailure(onError: (error: unknown) => void): (res: ServerResponse, error: unknown) => void {
  return (res, error) => {
    try {
      onError(error);
    } catch {
      // A failing error hook must not keep the client waiting.
    }
    if (res.headersSent) res.destroy();
    else writeNodeResponse(res, answer(FIXED_PROBLEMS.internalError));
  };
}

/**
 * The node:http listener around one adapter's `serve` (the endpoint's or the management API's): its
 * answer; `fallback` (default `notHere`) for a request it does not take (`serve` gives `null`); and
 * an answer that could not be written handled by {@link answerWriteFailure}, told to `onError`
 * (default: one console line named after `factory`).
 */
export function listenerAround<T>(
  serve: (req: IncomingMessage, res: ServerResponse) => T | PromiseLike<T> | null,
  factory: string,
  options: NodeListenerOptions,
  notHere: NonNullable<NodeListenerOptions['fallback']>,
): NodeListener {
  const { fallback = notHere } = options;
  const log = createConsoleErrorLog(systemClock, factory);
  const failed = answerWriteFailure(options.onError ?? ((error: unknown) => log(error, { stage: 'write' })));
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
