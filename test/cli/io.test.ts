import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable, writer } from '../../bin/cli/io.js';
import { anyCodePoint } from '../support/code-point.js';

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

  it('shows text from outside instead of letting it drive the terminal: on one line by default, keeping lines when asked', () => {
    const hostile = 'a\u001b]52;c;aGk=\u0007b\tc\nd\re\u007f\u009b2J\u202eexe.pdf\u202c\u2066x\u2069\u200f\u2028é✓';
    expect(printable(hostile)).toBe(
      'a\\u001b]52;c;aGk=\\u0007b\\u0009c\\u000ad\\u000de\\u007f\\u009b2J\\u202eexe.pdf\\u202c\\u2066x\\u2069\\u200f\\u2028é✓',
    );
    expect(printable(hostile, { lines: true })).toBe(
      'a\\u001b]52;c;aGk=\\u0007b\tc\nd\\u000de\\u007f\\u009b2J\\u202eexe.pdf\\u202c\\u2066x\\u2069\\u200f\\u2028é✓',
    );
  });

  // The rule: whatever the text, what printable returns holds no C0 or C1 control, DEL, line or
  // paragraph separator or bidi control (newline and tab only with `lines`), and text without
  // any of them comes back unchanged.
  it('leaves nothing unsafe in any text, and changes nothing in safe text', () => {
    const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    fc.assert(
      fc.property(fc.string({ unit: anyCodePoint }), (text) => {
        expect(printable(text)).not.toMatch(unsafe);
        expect(printable(text, { lines: true }).replace(/[\n\t]/g, '')).not.toMatch(unsafe);
        if (!unsafe.test(text)) expect(printable(text)).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });
});
