import { describe, expect, it } from 'vitest';
import { backoffDelay, requestedWait } from '../../src/send/retry-timing.js';

describe('requestedWait', () => {
  const now = Date.UTC(2026, 0, 1);
  it('reads Retry-After in seconds, or as an HTTP date', () => {
    expect(requestedWait(new Headers({ 'retry-after': '12' }), now)).toBe(12_000);
    expect(requestedWait(new Headers({ 'retry-after': new Date(now + 5_000).toUTCString() }), now)).toBe(5_000);
    expect(requestedWait(new Headers({ 'retry-after': new Date(now - 5_000).toUTCString() }), now)).toBe(0);
  });
  it('falls back on the RateLimit header’s reset time, and says nothing when neither is there', () => {
    expect(requestedWait(new Headers({ ratelimit: '"default";r=0;t=7' }), now)).toBe(7_000);
    expect(requestedWait(new Headers({ 'retry-after': 'soon', ratelimit: '"default";r=0;t=3' }), now)).toBe(3_000);
    expect(requestedWait(new Headers(), now)).toBeNull();
  });
});

describe('backoffDelay', () => {
  it('draws below a ceiling that doubles from baseDelayMs up to maxDelayMs (full jitter)', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, 500, 10_000, top))).toEqual([
      499, 999, 1_999, 3_999, 7_999, 9_999,
    ]);
    expect(backoffDelay(3, 500, 10_000, () => 0)).toBe(0);
  });
});
