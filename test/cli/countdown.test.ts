import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countdownSleep } from '../../bin/cli/countdown.js';
import { writer } from '../../bin/cli/io.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  const target = Object.assign(
    new Writable({
      write(chunk, _, done) {
        written.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { target, written };
}

const CLEAR = '\r\u001b[K';
const waiting = (s: number) => `${CLEAR}waiting ${s} s before the next attempt (Ctrl-C to stop)`;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a long wait of send', () => {
  it('counts down on one line of a terminal, and clears the line when it ends', async () => {
    const { target, written } = stream(true);
    const sleep = countdownSleep(target, writer(target, { NO_COLOR: '1' }));
    let ended = false;
    const wait = sleep(12_000).then(() => {
      ended = true;
    });
    expect(written).toEqual([waiting(12)]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(written).toEqual([waiting(12), waiting(11), waiting(10), waiting(9)]);
    await vi.advanceTimersByTimeAsync(8_999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(written).toEqual([...[12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(waiting), CLEAR]);
  });

  it('stops at once when the signal aborts, clearing the line and writing nothing after', async () => {
    const { target, written } = stream(true);
    const sleep = countdownSleep(target, writer(target, {}));
    const interrupt = new AbortController();
    const wait = sleep(57_000, interrupt.signal);
    await vi.advanceTimersByTimeAsync(2_000);
    interrupt.abort(new Error('Ctrl-C'));
    await expect(wait).rejects.toThrow('Ctrl-C');
    expect(written.at(-1)).toBe(CLEAR);
    const count = written.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(written).toHaveLength(count);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('writes a plain line every ten seconds left when not on a terminal, and nothing for a short wait', async () => {
    const { target, written } = stream(false);
    const sleep = countdownSleep(target, writer(target, {}));
    const wait = sleep(25_000);
    await vi.advanceTimersByTimeAsync(25_000);
    await wait;
    expect(written).toEqual(['waiting: 20 s left\n', 'waiting: 10 s left\n']);

    const short = stream(true);
    const quick = countdownSleep(short.target, writer(short.target, {}))(4_000);
    await vi.advanceTimersByTimeAsync(4_000);
    await quick;
    expect(short.written).toEqual([]);
  });
});
