import { MAX_BODY_BYTES } from '../../src/limits.js';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import type { Message } from '../../src/ports.js';
import { setup } from '../support/setup.js';

/** A payload as the render property tests build it: Slack's `text` and `blocks`. */
export interface Payload {
  text?: string;
  blocks?: unknown[];
}

/**
 * Posts payloads through the real handler (no rate limit in the way) and gives back the stored
 * message, or `undefined` when the handler refuses it: the render bounds are promised for what the
 * handler accepts.
 */
export async function createAcceptor(): Promise<(payload: Payload) => Promise<Message | undefined>> {
  const world = await setup({ rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
  return async (payload) => {
    const before = world.delivered.length;
    const response = await world.post(payload);
    return response.status === 201 ? world.delivered[before] : undefined;
  };
}

/** Bytes of the payload as posted. */
export const bodyBytes = (payload: Payload): number => new TextEncoder().encode(JSON.stringify(payload)).length;

export { MAX_BODY_BYTES };
