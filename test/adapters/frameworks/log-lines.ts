import { Writable } from 'node:stream';
import { format } from 'node:util';

/**
 * Collects what a logger writes, line by line: a stream to give it, a `console` whose `log` writes
 * to the same lines, the lines parsed as JSON records, and a wait for a number of lines.
 */
export function captureLogLines<Record = unknown>() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const console = { log: (...args: unknown[]) => lines.push(format(...args)) };
  // Loggers write once the answer is out, which the client may see first.
  const settled = async (count: number) => {
    for (let waited = 0; lines.length < count && waited < 2_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return lines.join('\n');
  };
  return { lines, stream, console, settled, records: () => lines.map((line) => JSON.parse(line) as Record) };
}
