import { createFeedWatchers } from '../../../src/store-kit/index.js';
import { createFailureReport } from '../sql/index.js';
import type { PostgresListenClient } from './options.js';

// Reconnection waits this long, doubling up to the ceiling (with jitter), while PostgreSQL or the
// pool cannot give a connection.
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 10_000;
// A connection that silently died (a dropped network, no TCP reset) would never say so: the
// listening connection is asked a `SELECT 1` this often, and one that does not answer within the
// deadline is closed and replaced.
const PING_MS = 30_000;
const PING_DEADLINE_MS = 10_000;

/**
 * The store's one listening connection, shared by every `watchFeed` of the store: checked out of
 * the pool when the first watch starts and given back when the last one ends. After every
 * (re)connection, once `LISTEN` is in place, every listener is called, so followers read what was
 * stored while nothing listened. Timers do not keep the process alive.
 */
export function createFeedListener(
  connect: () => Promise<PostgresListenClient>,
  channel: string,
  onError: ((error: unknown) => void) | undefined,
) {
  const reportFailure = createFailureReport(onError, 'createPostgresStore');
  const report = (error: unknown) => reportFailure(error, 'feed listen');
  let active = false;
  let client: PostgresListenClient | null = null;
  let detach: (() => void) | null = null;
  let connecting = false;
  let attempts = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;

  const watchers = createFeedWatchers(
    () => {
      active = true;
      if (!connecting && client === null) open();
    },
    () => {
      active = false;
      clearTimeout(retry);
      close(null);
    },
  );

  const onNotification = (message: { channel: string; payload?: string }) => {
    if (message.channel === channel)
      watchers.notify(message.payload === undefined || message.payload === '' ? undefined : message.payload);
  };

  function open(): void {
    connecting = true;
    Promise.resolve()
      .then(connect)
      .then(
        (connected) => {
          connecting = false;
          if (!active) {
            connected.release();
            return;
          }
          client = connected;
          const onError = (error: Error) => fail(error, connected);
          const onEnd = () => fail(new Error('the listening connection ended'), connected);
          connected.on('error', onError);
          connected.on('end', onEnd);
          connected.on('notification', onNotification);
          detach = () => {
            connected.removeListener('error', onError);
            connected.removeListener('end', onEnd);
            connected.removeListener('notification', onNotification);
          };
          connected.query({ text: `LISTEN "${channel}"` }).then(
            () => {
              if (client !== connected) return;
              attempts = 0;
              ping = setInterval(() => {
                connected
                  .query({ text: 'SELECT 1', query_timeout: PING_DEADLINE_MS })
                  .catch((error: unknown) => fail(error, connected));
              }, PING_MS);
              unref(ping);
              watchers.notify();
            },
            (error: unknown) => fail(error, connected),
          );
        },
        (error: unknown) => {
          connecting = false;
          fail(error, null);
        },
      );
  }

  /**
   * Drops the failed connection (`null`: none could be had) and, while watched, opens another
   * after a while. A failure of a connection that is no longer the current one changes nothing.
   */
  function fail(error: unknown, which: PostgresListenClient | null): void {
    if (!active || which !== client) return;
    report(error);
    close(error instanceof Error ? error : new Error(String(error)));
    const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempts++) * (0.5 + Math.random() / 2);
    retry = setTimeout(open, wait);
    unref(retry);
  }

  /** Gives the connection back to the pool (closed when it failed), without the store's listeners. */
  function close(error: Error | null): void {
    clearInterval(ping);
    const closing = client;
    const release = detach;
    client = null;
    detach = null;
    if (closing === null) return;
    if (error !== null) {
      release?.();
      closing.release(error);
      return;
    }
    // Its listeners stay until it is given back: an error while it unlistens must not go unheard.
    closing.query({ text: `UNLISTEN "${channel}"` }).then(
      () => {
        release?.();
        closing.release();
      },
      (failure: unknown) => {
        release?.();
        closing.release(failure instanceof Error ? failure : true);
      },
    );
  }

  return { watch: watchers.watch };
}

function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}
