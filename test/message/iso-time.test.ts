import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/message/iso-time.js';

// Rule: a message's `createdAt` is exactly what `Date#toISOString` gives for the clock's time,
// whatever the order of the times asked for, within one second or across seconds, and out of the
// four-digit years.
describe('isoTime', () => {
  it('is toISOString for any time, asked in any order', () => {
    const time = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.integer({ min: 1_764_000_000_000, max: 1_764_000_003_000 }),
      fc.double({ min: 0, max: 2e12, noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it('writes the milliseconds of a second with three digits', () => {
    expect([0, 7, 42, 999].map((ms) => isoTime(1_764_000_000_000 + ms))).toEqual([
      '2025-11-24T16:00:00.000Z',
      '2025-11-24T16:00:00.007Z',
      '2025-11-24T16:00:00.042Z',
      '2025-11-24T16:00:00.999Z',
    ]);
  });
});
