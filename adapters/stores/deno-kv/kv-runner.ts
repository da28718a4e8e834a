import { ChannelWebhookError, isChannelWebhookError, settleWithin } from '../../../src/store-kit/index.js';

/** Which side of the package a failure is reported for, and its deadline. */
export interface KvParty {
  /** `'Deno KV store'` or `'Deno KV rate limiter'`, the start of every message. */
  name: string;
  failed: 'store_failed' | 'rate_limiter_failed';
  timedOut: 'store_timeout' | 'rate_limiter_timeout';
  timeoutMs: number;
}

/** What an attempt returns when its commit lost a race (a check failed): it is run again. */
export const LOST_RACE: unique symbol = Symbol('lost race');

/**
 * Runs one operation: `attempt` reads, decides and commits one atomic operation, and returns
 * {@link LOST_RACE} when the commit's checks failed, which makes it read and decide again (optimistic
 * concurrency: nothing was written). The whole operation has `timeoutMs`; past it, it rejects with
 * the party's time-out code and starts no further attempt. Any other failure rejects with the
 * party's failure code, the KV's error as `cause`.
 */
export type KvRunner = <T>(what: string, attempt: () => Promise<T | typeof LOST_RACE>) => Promise<T>;

export function createKvRunner(party: KvParty): KvRunner {
  return <T>(what: string, attempt: () => Promise<T | typeof LOST_RACE>): Promise<T> => {
    const deadline = Date.now() + party.timeoutMs;
    const timedOut = () =>
      new ChannelWebhookError(party.timedOut, `${party.name}: ${what} did not finish within ${party.timeoutMs} ms`);
    const attempts = async (): Promise<T> => {
      for (let lost = 0; ; lost++) {
        let result: T | typeof LOST_RACE;
        try {
          result = await attempt();
        } catch (error) {
          if (!isFileLocked(error)) throw kvFailure(party, what, error);
          result = LOST_RACE;
        }
        if (result !== LOST_RACE) return result;
        if (Date.now() >= deadline) throw timedOut();
        await backOff(lost);
      }
    };
    return settleWithin(attempts(), party.timeoutMs, timedOut);
  };
}

/** The party's error for a KV failure, with the KV's own message. */
export function kvFailure(party: KvParty, what: string, error: unknown): ChannelWebhookError {
  if (isChannelWebhookError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ChannelWebhookError(party.failed, `${party.name}: ${what} failed: ${detail}`, { cause: error });
}

// Deno's local KV is a SQLite file: another process writing to it makes a commit fail with
// "database is locked" before anything is written, so it is tried again like a lost race. Other
// errors are not: a KV reached over the network may have committed what it failed to confirm.
function isFileLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked/.test(error.message);
}

// The first retry goes at once; later ones wait a random while, up to 50 ms, so that callers that
// keep colliding spread out.
function backOff(lost: number): Promise<void> {
  if (lost === 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** lost)));
}
