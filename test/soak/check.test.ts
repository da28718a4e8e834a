import { describe, expect, it } from 'vitest';
import {
  checkExactlyOnce,
  checkFlat,
  checkNoFailureOutsideFaults,
  type FaultWindow,
  slope,
  trendOf,
  type Sample,
} from '../../scripts/soak/check.js';
import { type AnswerRecord, textOf } from '../../scripts/soak/world.js';
import type { Message } from '../../src/index.js';

const message = (seq: number, id = `m${seq}`): Message => ({
  id,
  channelId: 'general',
  body: textOf(seq),
  blocks: [],
  author: { type: 'webhook', id: 'wh', name: 'soak' },
  createdAt: '2026-01-01T00:00:00.000Z',
});
const answer = (
  seq: number,
  status: number,
  id: string | null,
  sent = 1_000,
  extra: Partial<AnswerRecord> = {},
): AnswerRecord => ({
  seq,
  kind: 'valid',
  of: seq,
  instance: 0,
  sent,
  answered: sent + 10,
  status,
  id,
  error: status === 0 ? 'ECONNRESET' : null,
  ...extra,
});
const window: FaultWindow = { kind: 'kill', start: 5_000, recovered: 7_000, end: 9_000 };

describe('the soak’s exactly-once rule', () => {
  it('passes 201s and 200s that name their own stored message', () => {
    const answers = [
      answer(1, 201, 'm1'),
      answer(2, 201, 'm2'),
      answer(11, 200, 'm1', 1_100, { kind: 'duplicate', of: 1 }),
    ];
    expect(checkExactlyOnce(answers, [message(1), message(2)], []).ok).toBe(true);
  });

  it('fails a 201 whose message is missing, and a 200 naming a message not stored', () => {
    const check = checkExactlyOnce(
      [answer(1, 201, 'm1'), answer(11, 200, 'm9', 1_100, { kind: 'duplicate', of: 1 })],
      [],
      [],
    );
    expect(check.ok).toBe(false);
    expect(check.detail).toBe(
      'request 1 answered 201 with m1, stored 0 times; request 11 answered 200 with m9, which is not stored',
    );
  });

  it('accepts a message whose answer was lost inside a fault window, and fails one lost outside', () => {
    expect(checkExactlyOnce([answer(1, 0, null, 6_000)], [message(1)], [window]).ok).toBe(true);
    expect(checkExactlyOnce([answer(1, 500, null, 8_900)], [message(1)], [window]).ok).toBe(true);
    const outside = checkExactlyOnce([answer(1, 0, null, 20_000)], [message(1)], [window]);
    expect(outside.detail).toBe(
      'message m1 of request 1 was stored, but no 201 or 200 named it and no send of it lost its answer in a fault',
    );
  });

  it('fails a request stored twice even when its answer was lost in a fault', () => {
    const check = checkExactlyOnce([answer(1, 0, null, 6_000)], [message(1, 'a'), message(1, 'b')], [window]);
    expect(check.detail).toBe('request 1 stored 2 times (a, b)');
  });

  it('fails a message no request of the load made, and a 201 naming another request’s message', () => {
    const stray = { ...message(1), body: 'hello' };
    expect(checkExactlyOnce([], [stray], []).detail).toBe('message m1 ("hello") is no request of the load');
    expect(checkExactlyOnce([answer(1, 201, 'm2'), answer(2, 201, 'm2')], [message(2)], []).detail).toBe(
      'request 1 was answered with m2, the message of another request',
    );
  });
});

describe('the soak’s other checks', () => {
  it('counts a 500 or a lost answer only outside every fault window', () => {
    const [fiveHundreds, lost] = checkNoFailureOutsideFaults(
      [answer(1, 500, null, 6_000), answer(2, 0, null, 8_000), answer(3, 500, null, 30_000)],
      [window],
    );
    expect(fiveHundreds!.ok).toBe(false);
    expect(fiveHundreds!.detail).toMatch(/^request 3 \(valid\) sent at .*: 500$/);
    expect(lost!.ok).toBe(true);
  });

  it('fits a least-squares slope, and judges flat only over a long enough run', () => {
    expect(
      slope([
        [0, 1],
        [1, 3],
        [2, 5],
      ]),
    ).toBeCloseTo(2);
    // V8's young generation growing in steps to its cap: RSS rises with it, but it is not judged.
    const young = (i: number) => Math.min(32, 2 ** Math.floor(i / 20));
    const samples = (perHour: number): Sample[] =>
      Array.from({ length: 181 }, (_, i) => ({
        at: i * 10,
        instances: [{ rssMiB: 100 + (perHour * i * 10) / 3_600 + young(i), heapMiB: 10, youngMiB: young(i) }],
        p99Ms: 50,
        answersPerSecond: 100,
        inFault: false,
      }));
    expect(checkFlat(trendOf(samples(4), 1_800), 300).ok).toBe(true);
    const growing = checkFlat(trendOf(samples(40), 1_800), 300);
    expect(growing.ok).toBe(false);
    expect(growing.detail).toMatch(/^RSS outside the young generation 40\.0 MiB\/h/);
    expect(checkFlat(trendOf(samples(40).slice(0, 20), 200), 300).detail).toMatch(/^not judged/);
  });
});
