/** How a {@link createRoundTripBatcher} sends: batch size and batches out at once. */
export interface BatchLimits {
  /** The most calls in one round trip. */
  maxSize: number;
  /** Round trips out at once; the calls that come while this many are out gather for the next. */
  inFlight: number;
}

/** One call gathering for the next round trip. */
interface Waiting<In, Out> {
  input: In;
  resolve: (output: Out | Promise<Out>) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for one stream of round trips, as the PostgreSQL store gathers its statements and as
 * DataLoader and a Kafka producer batch: a call goes at once while fewer than `inFlight` round
 * trips are out; the calls that come while they are gather, and go together when one returns, at
 * most `maxSize` at a time, oldest first. Nothing waits for a batch to fill, so a call alone costs
 * what it did before batching. `send` answers one outcome per call in the batch's order (a
 * promise for a call that goes on its own after all), or rejects, which fails every call of that batch and no other. `idle` runs each time nothing is out
 * or waiting, so an owner of many batchers can forget the idle ones.
 */
export function createRoundTripBatcher<In, Out>(
  { maxSize, inFlight }: BatchLimits,
  send: (inputs: In[]) => Promise<Array<Out | Promise<Out>>>,
  idle: () => void = () => {},
): (input: In) => Promise<Out> {
  const queue: Array<Waiting<In, Out>> = [];
  let out = 0;

  const flush = (): void => {
    while (out < inFlight && queue.length > 0) {
      const batch = queue.splice(0, maxSize);
      out++;
      send(batch.map((call) => call.input))
        .then(
          (outputs) => {
            for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outputs[i]!);
          },
          (error: unknown) => {
            for (const call of batch) call.reject(error);
          },
        )
        .finally(() => {
          out--;
          flush();
          if (out === 0 && queue.length === 0) idle();
        });
    }
  };

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      flush();
    });
}
