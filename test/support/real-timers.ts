import { afterAll, beforeAll, expect } from 'vitest';

/**
 * The unit loop runs its files one after another in each worker without a fresh global scope
 * (`isolate: false`): a file that leaves a timer function faked or spied on stops every timer of the
 * files after it, which then hang until their time-outs. This set-up file fails the next file at once
 * instead, names the one that ran before it, and puts Node's own functions back.
 */
const GLOBALS = [
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'queueMicrotask',
  'Date',
] as const;
const ORIGINALS = Symbol.for('channel-webhooks.test.original-globals');
const LAST_FILE = Symbol.for('channel-webhooks.test.last-file');
type Worker = typeof globalThis & {
  [ORIGINALS]?: Pick<typeof globalThis, (typeof GLOBALS)[number]>;
  [LAST_FILE]?: string;
};
const worker = globalThis as Worker;
// Taken once per worker, by the first file, before any test could change them.
worker[ORIGINALS] ??= Object.fromEntries(GLOBALS.map((name) => [name, globalThis[name]])) as never;
const originals = worker[ORIGINALS]!;

beforeAll(() => {
  const changed = GLOBALS.filter((name) => globalThis[name] !== originals[name]);
  if (changed.length > 0) {
    const culprit = worker[LAST_FILE] ?? 'an earlier file';
    // Put Node's own back, so that only this file fails and the ones after it run as they should.
    for (const name of changed) Object.assign(globalThis, { [name]: originals[name] });
    throw new Error(
      `${changed.join(', ')}: not Node's own; ${culprit}, run before in this worker, left a fake or a spy`,
    );
  }
});

afterAll(() => {
  worker[LAST_FILE] = expect.getState().testPath;
});
