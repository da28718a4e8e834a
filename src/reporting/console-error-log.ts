import type { Clock } from '../ports.js';

/**
 * Where a failure happened and to which webhook: what a line says besides the error.
 *
 * @example
 * ```ts
 * const context: FailureContext = { stage: 'feed' };
 * ```
 */
export interface FailureContext {
  stage: string;
  webhookId?: string;
}

/** How long one line stands for the identical failures after it. */
const QUIET_MS = 10_000;
/** A longer error message is cut: a line, not a dump. */
const MAX_MESSAGE = 300;
/** Distinct failures whose quiet windows are remembered; past it the log forgets the ended ones, then the oldest. */
const MAX_REMEMBERED = 256;

/**
 * The `onError` of a factory given none: one line per failure on `console.error`, so that a failing
 * store or hook is never silent. A line stands for the identical failures (same stage, same error)
 * of the next 10 s (timed by `clock`), the next one saying how many it stood for, so that a dead
 * database cannot flood the log; a different failure always gets its own line. A line names the
 * stage, the webhook id and the error's name, code and message: never a URL, a secret or a stack.
 * An `onError` option replaces it altogether.
 *
 * @param clock - the factory's clock.
 * @param source - the factory, for the line (`createWebhookHandler`).
 *
 * @example
 * ```ts
 * const onError = options.onError ?? createConsoleErrorLog(systemClock, 'createMyStore');
 * listener.on('error', (error) => onError(error, { stage: 'feed' }));
 * ```
 */
export function createConsoleErrorLog(clock: Clock, source: string): (error: unknown, context: FailureContext) => void {
  const quiet = new Map<string, { until: number; suppressed: number }>();
  return (error, { stage, webhookId }) => {
    const now = clock.now();
    const described = describe(error);
    // The webhook is left out of the key: a dead database fails every webhook's posts alike.
    const key = `${stage}\u0000${described}`;
    const last = quiet.get(key);
    if (last !== undefined && now < last.until) {
      last.suppressed++;
      return;
    }
    quiet.delete(key);
    if (quiet.size >= MAX_REMEMBERED) forget(quiet, now);
    quiet.set(key, { until: now + QUIET_MS, suppressed: 0 });
    const on = webhookId === undefined ? '' : ` on webhook ${webhookId}`;
    const more =
      last === undefined || last.suppressed === 0 ? '' : ` (and ${last.suppressed} more since the last line)`;
    console.error(
      `channel-webhooks: ${source}: ${stage} failure${on}: ${described}${more}; pass onError to handle every failure yourself`,
    );
  };
}

// Ended windows first; then, while still full, the oldest (a Map keeps the order of insertion).
function forget(quiet: Map<string, { until: number }>, now: number): void {
  for (const [key, window] of quiet) if (window.until <= now) quiet.delete(key);
  for (const key of quiet.keys()) {
    if (quiet.size < MAX_REMEMBERED) break;
    quiet.delete(key);
  }
}

function describe(error: unknown): string {
  if (typeof error !== 'object' || error === null) return oneLine(String(error));
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  const label = `${typeof name === 'string' ? name : 'Error'}${typeof code === 'string' ? ` (${code})` : ''}`;
  return `${label}: ${oneLine(typeof message === 'string' ? message : String(error))}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat;
}
