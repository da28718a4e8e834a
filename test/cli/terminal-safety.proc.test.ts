import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../support/http.js';
import { useCommand } from './run-command.js';

// Text from outside reaches the terminal through `serve`, `send` and `validate`: a sender's property
// names (in a refusal's pointers) and text, an endpoint's code, detail, pointers and message id, a
// file's JSON error and its name. None of it may drive the terminal: no raw C0 control but newline
// (ESC, BEL, CR), no DEL, no C1 control (U+009B is CSI), no line separator, no bidi control.
const command = useCommand();
const { run, serve, file } = command;

const HOSTILE = {
  osc52: '\u001b]52;c;aGVsbG8=\u0007',
  title: '\u001b]0;pwned\u0007',
  clear: '\u001b[2J',
  csi: '\u009b31m',
  cr: 'over\rwrite',
  bidi: '\u202etxt.exe\u202c\u2066x\u2069',
  newline: 'two\nlines',
};
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Fails unless `output` is free of every unsafe character, naming the first one found. */
function expectSafe(output: string): void {
  const found = UNSAFE.exec(output);
  expect(
    found && `U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${found.index} of ${JSON.stringify(output)}`,
  ).toBeNull();
}

describe('serve', () => {
  it('prints a sender’s property names and text escaped, each pointer on one line', async () => {
    const { url, child, done } = await serve([]);
    const post = (body: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const refused = await post(
      JSON.stringify({
        text: 'x',
        [HOSTILE.osc52]: 1,
        [HOSTILE.newline]: 2,
        [HOSTILE.bidi]: 3,
        [HOSTILE.csi + HOSTILE.cr]: 4,
      }),
    );
    expect(refused.status).toBe(400);
    const stored = await post(
      JSON.stringify({ text: `${HOSTILE.clear}a${HOSTILE.cr}${HOSTILE.title}b\n${HOSTILE.bidi}` }),
    );
    expect(stored.status).toBe(201);
    child.kill('SIGINT');
    const served = await done;
    expect(served.code).toBe(130);
    expectSafe(served.stdout);
    expectSafe(served.stderr);
    expect(served.stderr).toContain('  /\\u001b]52;c;aGVsbG8=\\u0007 is not an allowed property\n');
    expect(served.stderr).toContain('  /two\\u000alines is not an allowed property\n');
    expect(served.stderr).toContain('  /\\u202etxt.exe\\u202c\\u2066x\\u2069 is not an allowed property\n');
    expect(served.stderr).toContain('  /\\u009b31mover\\u000dwrite is not an allowed property\n');
    // A message's own lines stay lines; everything else in it is shown, not obeyed (its plain text
    // already drops the bidi controls).
    expect(served.stdout).toContain('\n\\u001b[2Jaover\\u000dwrite\\u001b]0;pwned\\u0007b\ntxt.exex\n');
  }, 30_000);
});

describe('send', () => {
  let endpoint: Listening;
  const problem = {
    type: 'about:blank',
    title: HOSTILE.title,
    status: 400,
    code: `${HOSTILE.clear}invalid`,
    detail: `${HOSTILE.csi}red ${HOSTILE.cr} ${HOSTILE.bidi} ${HOSTILE.osc52}`,
    errors: [
      { pointer: `/${HOSTILE.title}`, message: `bad${HOSTILE.newline}` },
      { header: `idempotency-key${HOSTILE.clear}`, message: HOSTILE.bidi },
    ],
  };
  const message = {
    id: `${HOSTILE.osc52}id${HOSTILE.cr}${HOSTILE.bidi}`,
    body: 'x',
    blocks: [],
    author: { type: 'webhook', id: 'wh', name: 'x' },
  };
  beforeAll(async () => {
    endpoint = await listen(
      createServer((req, res) => {
        req.resume();
        if (req.url!.includes('/refuse/'))
          res.writeHead(400, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
        else if (req.url!.includes('/fail/'))
          res
            .writeHead(500, { 'content-type': 'application/problem+json' })
            .end(JSON.stringify({ ...problem, status: 500 }));
        else
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ message, duplicate: false }));
      }),
    );
  });
  afterAll(() => endpoint.close());
  const url = (kind: string) => `${endpoint.origin}/${kind}/hooks/channels/wh_1/${'s'.repeat(43)}`;

  it('prints an endpoint’s code, detail and pointers escaped', async () => {
    const sent = await run(['send', url('refuse'), '--text', 'x']);
    expect(sent.code).toBe(1);
    expectSafe(sent.stderr);
    expect(sent.stderr).toBe(
      [
        'refused: the endpoint answered 400 \\u001b[2Jinvalid: \\u009b31mred over\\u000dwrite \\u202etxt.exe\\u202c\\u2066x\\u2069 \\u001b]52;c;aGVsbG8=\\u0007',
        '  /\\u001b]0;pwned\\u0007 badtwo\\u000alines',
        '  header idempotency-key\\u001b[2J \\u202etxt.exe\\u202c\\u2066x\\u2069',
        '',
      ].join('\n'),
    );
  });

  it('prints a stored message’s id, and a key from the payload, escaped', async () => {
    const sent = await run(['send', url('store'), '-'], {
      stdin: JSON.stringify({ text: 'x', eventId: `k${HOSTILE.clear}${HOSTILE.bidi}` }),
    });
    expect(sent.code).toBe(0);
    expectSafe(sent.stdout);
    expectSafe(sent.stderr);
    expect(sent.stdout).toBe('\\u001b]52;c;aGVsbG8=\\u0007idover\\u000dwrite\\u202etxt.exe\\u202c\\u2066x\\u2069\n');
    expect(sent.stderr).toBe("stored (201) under key 'k\\u001b[2J\\u202etxt.exe\\u202c\\u2066x\\u2069'\n");
  });

  it('prints the code of an endpoint’s 5xx escaped when it gives up', async () => {
    const sent = await run(['send', url('fail'), '--text', 'x', '--attempts', '1']);
    expect(sent.code).toBe(3);
    expectSafe(sent.stderr);
    expect(sent.stderr).toContain('gave up: the one attempt answered 500 \\u001b[2Jinvalid\n');
  });

  it('prints JSON.parse’s words about its input escaped', async () => {
    const sent = await run(['send', url('store'), '-'], { stdin: `{"text": ${HOSTILE.osc52}}` });
    expect(sent.code).toBe(1);
    expectSafe(sent.stderr);
    expect(sent.stderr).toMatch(/^not sent: stdin is not valid JSON \(.*\\u001b.*\)\n$/);
  });
});

describe('validate', () => {
  it('prints a payload’s pointers, JSON.parse’s words and a file’s name escaped', async () => {
    const pointers = file('pointers.json', { text: 'x', [HOSTILE.osc52]: 1, [HOSTILE.newline]: 2 });
    const broken = file(`broken${HOSTILE.clear}.json`, `{"text": ${HOSTILE.title}}`);
    const checked = await run(['validate', pointers, broken]);
    expect(checked.code).toBe(1);
    expectSafe(checked.stdout);
    expect(checked.stdout).toContain('  /\\u001b]52;c;aGVsbG8=\\u0007 is not an allowed property\n');
    expect(checked.stdout).toContain('  /two\\u000alines is not an allowed property\n');
    expect(checked.stdout).toContain(
      `refused  ${command.dir}/broken\\u001b[2J.json: invalid_json\n  (the body) must be valid JSON (`,
    );
    expect(checked.stdout).toMatch(/must be valid JSON \(.*\\u001b.*\)\n/);
  });
});
