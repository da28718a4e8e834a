import type { ServerResponse } from 'node:http';
import { FIXED_PROBLEMS, answer } from '../../../src/adapter-kit/index.js';
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
