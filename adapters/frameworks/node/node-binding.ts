import type { IncomingMessage, ServerResponse } from 'node:http';
import { fn } from '../../../src/arguments/index.js';
import type { WebhookAdapterBinding } from '../../../src/adapter-kit/index.js';
import { nodeRequestParts } from './node-request-parts.js';
import { writeNodeResponse } from './write-node-response.js';

/**
 * The binding of a plain node:http listener, for both of them (the endpoint's and the management
 * API's): the request read as it comes, the answer in one `writeHead` and one `end`, and the
 * rules of the options {@link listenerAround} reads.
 *
 * @param name - the listener's factory, for its argument errors.
 */
export function nodeBinding(name: string): WebhookAdapterBinding<IncomingMessage, ServerResponse> {
  return {
    name,
    options: { fallback: fn('a function (req, res) => void'), onError: fn('a function (error, context) => void') },
    ...nodeRequestParts((req: IncomingMessage) => req),
    write: writeNodeResponse,
  };
}
