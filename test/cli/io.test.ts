import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { printable, writer } from '../../bin/cli/io.js';

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

describe('the command’s output', () => {
  it('colours only on a terminal, and never with NO_COLOR set', () => {
    const tty = stream(true);
    const out = writer(tty.target, {});
    out.line(out.paint('red', 'refused'));
    expect(tty.written).toEqual(['\u001b[31mrefused\u001b[39m\n']);
    for (const [isTTY, env] of [
      [false, {}],
      [true, { NO_COLOR: '1' }],
    ] as const) {
      const plain = stream(isTTY);
      const w = writer(plain.target, env);
      w.line(w.paint('red', 'refused'));
      expect(plain.written).toEqual(['refused\n']);
    }
    const empty = stream(true);
    const w = writer(empty.target, { NO_COLOR: '' });
    expect(w.paint('green', 'ok')).toBe('\u001b[32mok\u001b[39m');
  });

  it('redacts the secret of every webhook URL it writes', () => {
    const { target, written } = stream(false);
    writer(target, {}).line('posting to https://chat.example.com/hooks/channels/wh_1/s3cret');
    expect(written).toEqual(['posting to https://chat.example.com/hooks/channels/wh_1/[redacted]\n']);
  });

  it('shows a sender’s control characters instead of passing them to the terminal', () => {
    expect(printable('a\u001b[31mb\tc\nd\u009b')).toBe('a\\u001b[31mb\tc\nd\\u009b');
  });
});
