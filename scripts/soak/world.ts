// What every part of the soak agrees on: the channels, the probe webhooks, and how a request of the
// load is named in the message it stores.

/** The channel the load posts into; the checker reads every message stored in it. */
export const CHANNEL_ID = 'general';
/** The recovery probes' channel, apart so that their messages never meet the checker. */
export const PROBE_CHANNEL_ID = 'soak-probes';
/** Probe webhooks, used in turn: a probe every 250 ms per instance stays under 60 a minute each. */
export const PROBE_WEBHOOKS = 40;

/** The text of request `seq`'s message: the checker maps a stored message back to its request by it. */
export const textOf = (seq: number): string => `soak ${seq}`;

/** The request a stored message's text names, or null when it names none. */
export const seqOf = (text: string): number | null => {
  const match = /^soak (\d+)$/.exec(text);
  return match === null ? null : Number(match[1]);
};

/** One answer as the load generator saw it; `status` 0 is an answer lost (reset, refused, timed out). */
export interface AnswerRecord {
  seq: number;
  kind: RequestKind;
  /** The request whose message this one is (itself, or the original a duplicate resends). */
  of: number;
  instance: number;
  /** When it was sent and answered, epoch ms. */
  sent: number;
  answered: number;
  status: number;
  id: string | null;
  error: string | null;
}

export type RequestKind = 'valid' | 'unkeyed' | 'duplicate' | 'over-limit' | 'invalid';

/**
 * Longest answer the deadlines allow: the handler's two store calls at 5 s each and the limiter's
 * 1 s make 11 s, and the servers' request deadline is 15 s; the 4 s between them is queueing on a
 * busy machine, where a post that meets two store time-outs in a row during an outage was seen to
 * answer its 500 after 12.1 s.
 */
export const ANSWER_DEADLINE_MS = 15_000;
