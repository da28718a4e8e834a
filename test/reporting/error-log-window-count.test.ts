import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeClock } from '../../src/clock.js';
import { createConsoleErrorLog } from '../../src/reporting/console-error-log.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const line = (stage: string, more = '') =>
  `channel-webhooks: createWebhookHandler: ${stage} failure on webhook wh_1: Error: connection refused${more}; pass onError to handle every failure yourself`;

// Rule: a printed line stands for the identical failures (its stage, its error) until the next line,
// 10 s later at the earliest; the next line counts only the failures since the previous one, so the
// count restarts with every line. A different failure is never folded into another's line.
describe('the default error log counts per quiet window', () => {
  it('two quiet windows in a row: each line reports only the failures since the line before', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = createFakeClock();
    const report = createConsoleErrorLog(clock, 'createWebhookHandler');
    const fail = (times: number) => {
      for (let i = 0; i < times; i++) report(new Error('connection refused'), { stage: 'store', webhookId: 'wh_1' });
    };

    fail(4);
    clock.advance(10_000);
    fail(3);
    clock.advance(10_000);
    fail(1);
    clock.advance(10_000);
    fail(1);

    expect(log.mock.calls).toEqual([
      [line('store')],
      [line('store', ' (and 3 more since the last line)')],
      [line('store', ' (and 2 more since the last line)')],
      [line('store')],
    ]);
  });

  it('keeps one count per stage: a line of one stage does not restart the other’s', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = createFakeClock();
    const report = createConsoleErrorLog(clock, 'createWebhookHandler');
    const fail = (stage: string) => report(new Error('connection refused'), { stage, webhookId: 'wh_1' });

    fail('store');
    fail('rate_limiter');
    fail('store');
    fail('store');
    fail('rate_limiter');
    clock.advance(10_000);
    fail('store');
    clock.advance(5_000);
    fail('rate_limiter');

    expect(log.mock.calls).toEqual([
      [line('store')],
      [line('rate_limiter')],
      [line('store', ' (and 2 more since the last line)')],
      [line('rate_limiter', ' (and 1 more since the last line)')],
    ]);
  });

  it('folds only identical failures: a different error of the same stage within 10 s gets its own line', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const clock = createFakeClock();
    const report = createConsoleErrorLog(clock, 'createManagementApi');
    report(new TypeError('a'), { stage: 'authenticate' });
    report(new TypeError('a'), { stage: 'authenticate' });
    clock.advance(1_000);
    report(new TypeError('b'), { stage: 'authenticate' });
    report(new RangeError('a'), { stage: 'authenticate' });
    report(new TypeError('b'), { stage: 'authenticate' });
    clock.advance(9_000);
    report(new TypeError('a'), { stage: 'authenticate' });
    report(new TypeError('b'), { stage: 'authenticate' });

    const of = (error: string, more = '') =>
      `channel-webhooks: createManagementApi: authenticate failure: ${error}${more}; pass onError to handle every failure yourself`;
    expect(log.mock.calls).toEqual([
      [of('TypeError: a')],
      [of('TypeError: b')],
      [of('RangeError: a')],
      [of('TypeError: a', ' (and 1 more since the last line)')],
    ]);
  });

  it('after a thousand distinct failures, still folds repeats of the latest ones', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const report = createConsoleErrorLog(createFakeClock(), 'createWebhookHandler');
    for (let i = 0; i < 1_000; i++) report(new Error(`failure ${i}`), { stage: 'store' });
    for (let i = 990; i < 1_000; i++) report(new Error(`failure ${i}`), { stage: 'store' });
    expect(log).toHaveBeenCalledTimes(1_000);
  });
});
