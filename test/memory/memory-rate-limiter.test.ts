import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';

const WINDOW = 60_000;

describe('createMemoryRateLimiter reclaims idle keys', () => {
  it('drops every key whose last request left the window, over the hits that follow', async () => {
    const limiter = createMemoryRateLimiter();
    let now = 1_000_000;
    for (let i = 0; i < 1_000; i++) await limiter.hit(`idle-${i}`, now);
    expect(limiter.size).toBe(1_000);

    now += WINDOW;
    // One sweep examines a bounded number of keys per hit; 1,000 keys take a few dozen hits.
    for (let i = 0; i < 40; i++) await limiter.hit('busy', now + i);
    expect(limiter.size).toBe(1);
  });

  it('keeps the state of keys still inside their window while a sweep passes them', async () => {
    const limiter = createMemoryRateLimiter({ limit: 3 });
    let now = 1_000_000;
    for (let i = 0; i < 3; i++) await limiter.hit('active', now);
    for (let i = 0; i < 500; i++) await limiter.hit(`idle-${i}`, now - WINDOW);

    now += 1;
    for (let i = 0; i < 40; i++) await limiter.hit(`other-${i}`, now);
    expect(await limiter.hit('active', now)).toEqual({
      allowed: false,
      limit: 3,
      windowMs: WINDOW,
      remaining: 0,
      resetMs: WINDOW - 1,
    });
  });

  it('does bounded work per hit: one hit after 100,000 keys went idle drops only some of them', async () => {
    const limiter = createMemoryRateLimiter();
    const now = 1_000_000;
    for (let i = 0; i < 100_000; i++) await limiter.hit(`idle-${i}`, now);
    await limiter.hit('late', now + WINDOW);
    expect(limiter.size).toBeGreaterThan(99_000);
  });
});

describe('createMemoryRateLimiter keeps each key to its own requests', () => {
  const limit = 20;
  const windowMs = 1_000;

  // Rule: however keys come, fill their rings (which then move to larger blocks), go idle and are
  // dropped (their blocks then taken by other keys), a key's decision is that of a sliding log of
  // its own accepted requests alone: nothing of a dropped key or a neighbour's block shows through.
  it('decides every key from its own accepted requests while keys grow, go idle and are replaced', () => {
    const request = fc.record({
      key: fc.integer({ min: 0, max: 11 }),
      gap: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 40 }) }, fc.integer({ min: 0, max: 2_500 })),
    });
    fc.assert(
      fc.property(fc.array(request, { minLength: 50, maxLength: 600 }), (requests) => {
        const limiter = createMemoryRateLimiter({ limit, windowMs });
        const accepted = new Map<number, number[]>();
        let now = Date.UTC(2026, 0, 1);
        for (const { key, gap } of requests) {
          now += gap;
          const inWindow = (accepted.get(key) ?? []).filter((time) => time > now - windowMs);
          const allowed = inWindow.length < limit;
          if (allowed) inWindow.push(now);
          accepted.set(key, inWindow);
          expect(limiter.hit(`key-${key}`, now)).toEqual({
            allowed,
            limit,
            windowMs,
            remaining: limit - inWindow.length,
            resetMs: inWindow[0]! + windowMs - now,
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});
