/** One call waiting in a {@link createGroupCommit} queue, with the time its caller stops waiting. */
export interface Pending<In, Out> {
  input: In;
  deadline: number;
  resolve: (output: Out | PromiseLike<Out>) => void;
  reject: (error: unknown) => void;
}

/**
 * What a group commit sends: the calls of one batch, oldest first, and the time the last of their
 * callers stops waiting (the statement's own deadline). It answers with one outcome per call, in
 * the batch's order (a promise for a call that must still wait on its own), or rejects, which fails
 * every call of that batch and no other.
 */
export type SendBatch<In, Out> = (inputs: In[], deadline: number) => Promise<Array<Out | Promise<Out>>>;

/** How a group commit sends: batch size, and how many batches may be out. */
export interface GroupCommitLimits {
  /** The most calls in one batch. */
  maxSize: number;
  /** Batches out at once while they answer promptly. */
  inFlight: number;
  /** A batch out longer than this (ms) no longer counts against `inFlight`: it is waiting on something (a row lock). */
  stalledAfterMs: number;
  /** Batches out at once, stalled ones included. */
  most: number;
}

/**
 * Group commit, as databases do it and as DataLoader and a Kafka producer batch: a call goes at once
 * while fewer than `inFlight` batches are out; the calls that come while they are gather, and go
 * together when one returns, at most `maxSize` at a time. Nothing ever waits for a batch to fill, so
 * one call alone costs what it did before batching. A batch that waits on a lock (a webhook row a
 * revocation holds) would hold up every call behind it, so after `stalledAfterMs` it stops counting
 * and the next batch goes, up to `most` out. A call whose caller stopped waiting before its batch
 * left is dropped from it with `expired` (its caller was already answered with a timeout), so
 * nothing is written for it.
 */
export function createGroupCommit<In, Out>(
  { maxSize, inFlight, stalledAfterMs, most }: GroupCommitLimits,
  send: SendBatch<In, Out>,
  expired: () => unknown,
): (input: In, deadline: number) => Promise<Out> {
  const queue: Array<Pending<In, Out>> = [];
  // Batches out and answering promptly, and all batches out.
  let prompt = 0;
  let out = 0;

  const flush = (): void => {
    while (prompt < inFlight && out < most && queue.length > 0) {
      const now = Date.now();
      const batch = queue.splice(0, maxSize).filter((call) => {
        if (call.deadline > now) return true;
        call.reject(expired());
        return false;
      });
      if (batch.length === 0) continue;
      prompt++;
      out++;
      let counted = true;
      const stalled = setTimeout(() => {
        counted = false;
        prompt--;
        flush();
      }, stalledAfterMs);
      const deadline = Math.max(...batch.map((call) => call.deadline));
      send(
        batch.map((call) => call.input),
        deadline,
      )
        .then(
          (outputs) => {
            for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outputs[i]!);
          },
          (error: unknown) => {
            for (const call of batch) call.reject(error);
          },
        )
        .finally(() => {
          clearTimeout(stalled);
          if (counted) prompt--;
          out--;
          flush();
        });
    }
  };

  return (input, deadline) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ input, deadline, resolve, reject });
      flush();
    });
}
