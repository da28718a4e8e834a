import { Agent, IncomingMessage, request as httpRequest } from 'node:http';
import { connect, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readNodeBody } from '../../../adapters/frameworks/node/read-node-body.js';
import { nodeFrameworkTargets } from '../../support/frameworks.js';
import { paddedBody, send, type Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';

const RATE_HEADERS = {
  'ratelimit-policy': '"default";q=60;w=60',
  ratelimit: expect.stringMatching(/^"default";r=\d+;t=\d+$/),
};
const LISTENED = ['data', 'end', 'error', 'close'] as const;
/**
 * The listeners on a request's events other than Node's own `clearIncoming`, which its server puts
 * on 'end' of a request answered before its body ended.
 */
const adapterListeners = (req: IncomingMessage) =>
  LISTENED.flatMap((event) => req.listeners(event)).filter((listener) => listener.name !== 'clearIncoming');
// Far beyond any deadline under test, so a missing one fails fast instead of at the test timeout.
const GIVE_UP_MS = 5_000;

/** What a raw-socket client saw: the answer as sent, and who ended the connection. */
interface Trickled {
  status: number;
  headers: Record<string, string>;
  json: unknown;
  /** The answer's body is as long as its `content-length` says. */
  whole: boolean;
  /** Body bytes sent before the answer came. */
  sent: number;
  /** From the first byte of the request to the first byte of the answer. */
  answeredAfterMs: number;
  closedBy: 'server' | 'client';
}

/**
 * POSTs over a raw socket: the head with `content-length: body.length` at once, then one byte of
 * `body` every `everyMs`, until an answer starts. Reads until the server ends the connection, or
 * gives up after {@link GIVE_UP_MS}.
 */
function trickle(origin: string, path: string, body: string, everyMs: number): Promise<Trickled> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let raw = '';
    let sent = 0;
    let answeredAt = Number.NaN;
    let closedBy: Trickled['closedBy'] = 'server';
    const started = performance.now();
    socket.write(
      `POST /api${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
    );
    const ticker = setInterval(() => {
      if (raw === '' && sent < body.length) socket.write(body[sent++]!);
    }, everyMs);
    const guard = setTimeout(() => {
      closedBy = 'client';
      socket.destroy();
    }, GIVE_UP_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (raw === '') answeredAt = performance.now();
      raw += chunk;
    });
    // A byte already on its way when the server closed may come back as a reset: still the server's doing.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(ticker);
      clearTimeout(guard);
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const text = rest.join('\r\n\r\n');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        json,
        whole: Buffer.byteLength(text) === Number(headers['content-length']),
        sent,
        answeredAfterMs: answeredAt - started,
        closedBy,
      });
    });
  });
}

/** POSTs `pieces` over a keep-alive connection, `everyMs` apart, and reads the whole answer. */
function sendInPieces(
  url: string,
  pieces: string[],
  everyMs: number,
): Promise<{ status: number; headers: Record<string, unknown>; json: unknown }> {
  const agent = new Agent({ keepAlive: true });
  const length = pieces.reduce((total, piece) => total + Buffer.byteLength(piece), 0);
  return new Promise<{ status: number; headers: Record<string, unknown>; json: unknown }>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': length } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    const next = (index: number) => {
      if (index === pieces.length) return req.end();
      req.write(pieces[index]);
      setTimeout(() => next(index + 1), everyMs);
    };
    next(0);
  }).finally(() => agent.destroy());
}

describe.each(nodeFrameworkTargets)('the body deadline through $name', (target) => {
  let fixture: World;
  let app: Listening | undefined;
  let requests: IncomingMessage[];
  const start = async (bodyTimeoutMs: number) => {
    app = await target.start(fixture.handle, { bodyTimeoutMs });
    app.server.on('request', (req: IncomingMessage) => requests.push(req));
    return app;
  };

  beforeEach(async () => {
    fixture = await setup();
    requests = [];
    return async () => {
      await app?.close();
      app = undefined;
    };
  });

  it('a body trickled past bodyTimeoutMs is answered 400 body_read_failed, the connection closes, nothing is stored', async () => {
    const { origin } = await start(300);
    // Valid JSON: without the deadline it would end in a 201 after 10 s.
    const trickled = await trickle(origin, fixture.path, paddedBody('too slow', 200), 50);

    expect(trickled).toEqual({
      status: 400,
      headers: expect.objectContaining({
        'content-type': 'application/problem+json',
        'cache-control': 'no-store',
        connection: 'close',
        ...RATE_HEADERS,
      }),
      json: {
        type: 'tag:channel-webhooks,2026:problem:body_read_failed',
        title: expect.any(String),
        status: 400,
        detail: 'The request body did not arrive in time. Send the whole body promptly.',
        code: 'body_read_failed',
        errors: [{ pointer: '', message: 'did not arrive in time' }],
      },
      whole: true,
      sent: expect.any(Number),
      answeredAfterMs: expect.any(Number),
      closedBy: 'server',
    });
    expect(trickled.sent).toBeLessThan(200);
    // Not before the deadline; the upper bound only has to tell the library's deadline from Node's 300 s.
    expect(trickled.answeredAfterMs).toBeGreaterThanOrEqual(250);
    expect(trickled.answeredAfterMs).toBeLessThan(3_000);
    expect(await fixture.messages()).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(adapterListeners(requests[0]!)).toEqual([]);

    const after = await send(`${origin}/api${fixture.path}`, { body: { text: 'next one' } });
    expect(after.status).toBe(201);
    expect((await fixture.messages()).map((message) => message.body)).toEqual(['next one']);
  });

  it('a body that arrives in pieces within bodyTimeoutMs is stored, and the connection stays open', async () => {
    const { origin } = await start(1_000);
    const body = JSON.stringify({ text: 'in time, in pieces' });
    const pieces = [body.slice(0, 5), body.slice(5, 12), body.slice(12, 20), body.slice(20)];
    const answer = await sendInPieces(`${origin}/api${fixture.path}`, pieces, 20);

    const [stored] = await fixture.messages();
    expect(answer).toEqual({
      status: 201,
      headers: expect.objectContaining({
        'content-type': 'application/json',
        connection: 'keep-alive',
        ...RATE_HEADERS,
      }),
      json: { message: stored, duplicate: false },
    });
    expect(stored).toMatchObject({
      body: 'in time, in pieces',
      blocks: [],
      author: { type: 'webhook', id: fixture.webhookId, name: 'CI' },
    });
    expect(adapterListeners(requests[0]!)).toEqual([]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000'])(
    'bodyTimeoutMs %s is refused with invalid_argument when the middleware is created',
    async (bodyTimeoutMs) => {
      await expect(async () =>
        target.start(fixture.handle, { bodyTimeoutMs: bodyTimeoutMs as number }),
      ).rejects.toMatchObject({
        name: 'ChannelWebhookError',
        code: 'invalid_argument',
        message: expect.stringContaining('bodyTimeoutMs'),
      });
    },
  );
});

describe('readNodeBody clears its deadline and listeners on every path', () => {
  const MAX_BYTES = 16;
  let req: IncomingMessage;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    req = new IncomingMessage(new Socket());
    req.headers = { 'content-type': 'application/json' };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const startReading = () => {
    const reading = readNodeBody(req, {}, { maxBytes: MAX_BYTES, declaredLength: null, timeoutMs: 300 });
    // Settle it at once, so a rejection is never unhandled while the test drives the stream.
    const outcome = Promise.resolve(reading).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return outcome;
  };
  const expectNothingLeft = () => {
    expect(vi.getTimerCount()).toBe(0);
    expect(LISTENED.map((event) => req.listenerCount(event))).toEqual([0, 0, 0, 0]);
  };

  it('end: resolves with the body', async () => {
    const outcome = startReading();
    req.push(Buffer.from('{"text":"hi"}'));
    req.push(null);
    expect(await outcome).toEqual({ value: Buffer.from('{"text":"hi"}') });
    expectNothingLeft();
  });

  it('error and close: rejects with body_read_failed', async () => {
    const outcome = startReading();
    req.destroy(new Error('socket hang up'));
    expect(await outcome).toMatchObject({
      error: { code: 'body_read_failed', message: 'the client closed the connection before the body ended' },
    });
    expectNothingLeft();
  });

  it('close without an error: rejects with body_read_failed', async () => {
    const outcome = startReading();
    req.destroy();
    expect(await outcome).toMatchObject({ error: { code: 'body_read_failed' } });
    expectNothingLeft();
  });

  it('over the limit: resolves with maxBytes + 1 bytes for the 413', async () => {
    const outcome = startReading();
    req.push(Buffer.alloc(MAX_BYTES + 10, 0x20));
    expect(await outcome).toEqual({ value: Buffer.alloc(MAX_BYTES + 1, 0x20) });
    expectNothingLeft();
  });

  it('deadline: rejects with body_read_timeout naming it, and leaves the rest of the body to be discarded', async () => {
    const outcome = startReading();
    let settled = false;
    void outcome.then(() => (settled = true));
    req.push(Buffer.from('{"te'));
    vi.advanceTimersByTime(299);
    req.push(Buffer.from('xt":'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await outcome).toMatchObject({
      error: {
        name: 'ChannelWebhookError',
        code: 'body_read_timeout',
        message: 'the request body did not arrive within 300 ms',
      },
    });
    expectNothingLeft();
    expect(req.readableFlowing).toBe(true);
    expect(req.destroyed).toBe(false);
  });
});

describe('the deadline of readNodeBody', () => {
  // On the real setTimeout, not a faked one: Vitest restores every spy again after the file, and a
  // spy made over a fake would then put the fake back for the files that follow in this worker.
  it('is one unreferenced timer, so a pending body never keeps the process alive', async () => {
    const req = new IncomingMessage(new Socket());
    req.headers = { 'content-type': 'application/json' };
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const reading = readNodeBody(req, {}, { maxBytes: 16, declaredLength: null, timeoutMs: 300 });
    expect(spy).toHaveBeenCalledTimes(1);
    expect((spy.mock.results[0]!.value as NodeJS.Timeout).hasRef()).toBe(false);
    spy.mockRestore();
    req.push(null);
    expect(await reading).toEqual(Buffer.alloc(0));
  });
});
