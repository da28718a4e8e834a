import { createConsoleErrorLog, systemClock } from '../../../src/store-kit/index.js';

/**
 * How a store reports a failure of its own background work (a feed check, a listening connection,
 * a notifier): to the app's `onError` when it gave one, else as a line of
 * {@link createConsoleErrorLog} that names the stage, repeats folded.
 *
 * @param onError - the store's `onError` option.
 * @param source - the factory the line names, e.g. `'createMysqlStore'`.
 */
export function createFailureReport(
  onError: ((error: unknown) => void) | undefined,
  source: string,
): (error: unknown, stage: string) => void {
  if (onError !== undefined) return (error) => onError(error);
  const log = createConsoleErrorLog(systemClock, source);
  return (error, stage) => log(error, { stage });
}
