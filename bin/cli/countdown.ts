import type { Io, Out } from './io.js';

/** A wait at least this long is shown while it runs; a shorter one only by the line announcing it. */
export const SHOWN_WAIT_MS = 5_000;

/** How often a wait that is not on a terminal says how long is left. */
const PLAIN_EVERY_S = 10;

/**
 * A `sleep` for the sender that shows a long wait on `stream` while it runs: on a terminal, a
 * countdown rewritten in place on one line and cleared at the end; elsewhere (a CI log) a plain line
 * every ten seconds left. Like the client's own, it rejects at once when `signal` aborts.
 */
export function countdownSleep(
  stream: Io['stderr'],
  err: Out,
  now: () => number = () => Date.now(),
): (ms: number, signal?: AbortSignal) => Promise<void> {
  const terminal = stream.isTTY === true;
  return (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const end = now() + ms;
      const left = () => Math.max(0, Math.ceil((end - now()) / 1_000));
      let nextMark = Math.floor((left() - 1) / PLAIN_EVERY_S) * PLAIN_EVERY_S;
      const show = () => {
        if (terminal) {
          stream.write(`\r\u001b[K${err.paint('dim', `waiting ${left()} s before the next attempt (Ctrl-C to stop)`)}`);
        } else if (left() <= nextMark && nextMark > 0) {
          err.line(err.paint('dim', `waiting: ${left()} s left`));
          nextMark -= PLAIN_EVERY_S;
        }
      };
      const shown = ms >= SHOWN_WAIT_MS;
      const settle = () => {
        clearTimeout(timer);
        clearInterval(ticker);
        signal?.removeEventListener('abort', stop);
        if (shown && terminal) stream.write('\r\u001b[K');
      };
      const stop = () => {
        settle();
        reject(signal?.reason);
      };
      // The end's timer first: at the last second it fires before the ticker would show "0 s".
      const timer = setTimeout(() => {
        settle();
        resolve();
      }, ms);
      const ticker = shown ? setInterval(show, 1_000) : undefined;
      if (shown && terminal) show();
      signal?.addEventListener('abort', stop, { once: true });
    });
}
