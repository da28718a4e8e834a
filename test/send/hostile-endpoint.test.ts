import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender, type SendAttempt } from '../../src/send/index.js';
import { listen, type Listening } from '../support/http.js';

// A webhook URL answered by something that is not the endpoint as it should be: it redirects, it
// answers without end, it quotes the secret back. Each is a real server on loopback.
const SECRET = 'sEcReT-0123456789abcdefghijklmnopqrstuvwxyz';
const PATH = `/hooks/channels/wh_hostile/${SECRET}`;

interface Received {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

/** A server that records every request it gets, then answers it with `answer`. */
async function recording(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Listening & { received: Received[] }> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push({
      method: req.method!,
      url: req.url!,
      key: req.headers['idempotency-key'] as string | undefined,
      body,
    });
    answer(req, res);
  });
  return Object.assign(await listen(server), { received });
}

const forged = JSON.stringify({
  message: { id: 'forged', body: 'x', blocks: [], author: { type: 'webhook', id: 'wh', name: 'x' } },
  duplicate: false,
});
let elsewhere: Awaited<ReturnType<typeof recording>>;
let redirecting: Awaited<ReturnType<typeof recording>>;
let redirect: { status: number; location: string };
beforeAll(async () => {
  elsewhere = await recording((_, res) => res.writeHead(201, { 'content-type': 'application/json' }).end(forged));
  redirecting = await recording((_, res) => res.writeHead(redirect.status, { location: redirect.location }).end());
});
afterAll(async () => {
  await elsewhere.close();
  await redirecting.close();
});

const fast = (url: string) => createWebhookSender({ url, random: () => 0, sleep: async () => {} });

describe('a redirect', () => {
  it.each([301, 302, 303, 307, 308])(
    '%i is a refusal that names the status, and nothing reaches its Location',
    async (status) => {
      redirect = { status, location: `${elsewhere.origin}${PATH}` };
      const before = { here: redirecting.received.length, there: elsewhere.received.length };
      const attempts: SendAttempt[] = [];
      const result = await fast(`${redirecting.origin}${PATH}`).send(
        { text: 'deploy' },
        { idempotencyKey: 'k-1', onAttempt: (attempt) => attempts.push(attempt) },
      );
      expect(result).toEqual({
        ok: false,
        code: 'refused',
        message: `the endpoint answered ${status}, a redirect: a webhook URL is never redirected, and the post was not sent on`,
        idempotencyKey: 'k-1',
        attempts: 1,
        status,
        problem: null,
        retryAfterMs: null,
        possiblyStored: false,
      });
      expect(attempts.map(({ outcome, status }) => [outcome, status])).toEqual([['refused', status]]);
      expect(redirecting.received.slice(before.here)).toEqual([
        { method: 'POST', url: PATH, key: 'k-1', body: '{"text":"deploy"}' },
      ]);
      expect(elsewhere.received.slice(before.there)).toEqual([]);
    },
  );

  it('from https to http is never followed either: nothing goes out in clear', async () => {
    redirect = { status: 308, location: `${elsewhere.origin}${PATH}` };
    const before = elsewhere.received.length;
    // The client sees only the 308; that it came over TLS changes nothing, so a plain server stands for it.
    const result = await fast(`${redirecting.origin}${PATH}`).send({ text: 'deploy' });
    expect(result).toMatchObject({ ok: false, code: 'refused', status: 308 });
    expect(elsewhere.received.length).toBe(before);
  });

  it('hidden by a browser (an opaque redirect, status 0) is a refusal without a status', async () => {
    const opaque = {
      type: 'opaqueredirect',
      status: 0,
      redirected: false,
      headers: new Headers(),
      body: null,
    } as unknown as Response;
    const inits: RequestInit[] = [];
    const sender = createWebhookSender({
      url: `https://chat.example.com${PATH}`,
      fetch: async (_, init) => {
        inits.push(init);
        return opaque;
      },
    });
    const result = await sender.send({ text: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'refused', status: null, attempts: 1, possiblyStored: false });
    expect(result.ok || result.message).toBe(
      'the endpoint answered with a redirect: a webhook URL is never redirected, and the post was not sent on',
    );
    expect(inits.map((init) => init.redirect)).toEqual(['manual']);
  });
});

describe('an answer without end', () => {
  const MiB = 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, 'x');

  // Streams up to `total` bytes, a chunk whenever the socket takes one, and records how many the
  // client let it write before it hung up.
  async function endless(total: number, headers: Record<string, string> = {}) {
    let written = 0;
    let closed: () => void = () => {};
    const hungUp = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const server = await recording((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.on('close', closed);
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += CHUNK.byteLength;
          if (!res.write(CHUNK)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    return { server, written: () => written, hungUp };
  }

  it('of 700 MiB is cut after 1 MiB: a failure of its own, not retried, with the rest never sent', async () => {
    const { server, written, hungUp } = await endless(700 * MiB);
    try {
      const rss = process.memoryUsage().rss;
      const result = await fast(`${server.origin}${PATH}`).send({ text: 'x' }, { idempotencyKey: 'k-big' });
      expect(result).toEqual({
        ok: false,
        code: 'answer_too_large',
        message: 'the endpoint answered 200 with over 1 MiB, which the endpoint never sends; the rest was not read',
        idempotencyKey: 'k-big',
        attempts: 1,
        status: 200,
        problem: null,
        retryAfterMs: null,
        possiblyStored: true,
      });
      await hungUp;
      expect(server.received).toHaveLength(1);
      // 1 MiB read, plus what the two sockets' buffers held when the client hung up.
      expect(written()).toBeLessThan(32 * MiB);
      expect(process.memoryUsage().rss - rss).toBeLessThan(200 * MiB);
    } finally {
      await server.close();
    }
  });

  it('declared over 1 MiB by Content-Length is not read at all', async () => {
    const { server, written, hungUp } = await endless(700 * MiB, { 'content-length': String(700 * MiB) });
    try {
      const result = await fast(`${server.origin}${PATH}`).send({ text: 'x' });
      expect(result).toMatchObject({ ok: false, code: 'answer_too_large', status: 200, attempts: 1 });
      await hungUp;
      expect(written()).toBeLessThan(32 * MiB);
    } finally {
      await server.close();
    }
  });

  it('of exactly 1 MiB is read whole: a stored message padded to the cap is a success', async () => {
    const padded = `${forged.slice(0, -1)}${' '.repeat(MiB - Buffer.byteLength(forged))}}`;
    expect(Buffer.byteLength(padded)).toBe(MiB);
    const server = await recording((_, res) => res.writeHead(201, { 'content-type': 'application/json' }).end(padded));
    try {
      const result = await fast(`${server.origin}${PATH}`).send({ text: 'x' });
      expect(result).toMatchObject({ ok: true, status: 201, message: { id: 'forged' } });
    } finally {
      await server.close();
    }
  });
});

describe('the secret', () => {
  it('is in no part of a failure when fetch’s errors quote the URL (a Location fetch cannot parse)', async () => {
    redirect = { status: 302, location: 'http://[::1' };
    const url = `${redirecting.origin}${PATH}`;
    const result = await fast(url).send({ text: 'x' });
    expect(inspect(result, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(SECRET);
    expect(result).toMatchObject({ ok: false, code: 'refused', status: 302 });
  });

  it('is kept out of the cause: name, code and a redacted message a few levels deep, nothing else of the error', async () => {
    const url = `https://chat.example.com${PATH}`;
    const thrown = new TypeError(`fetch failed for ${url}`, {
      cause: Object.assign(new TypeError(`Invalid URL ${url}`), {
        code: 'ERR_INVALID_URL',
        base: url,
        cause: Object.assign(new Error(`secret ${SECRET} once more`), {
          code: 'E_DEEP',
          cause: new Error('deeper', { cause: new Error('deepest') }),
        }),
      }),
    });
    const sender = createWebhookSender({
      url,
      maxAttempts: 1,
      fetch: async () => {
        throw thrown;
      },
    });
    const result = await sender.send({ text: 'x' });
    expect(result).toMatchObject({ ok: false, code: 'retries_exhausted', possiblyStored: true });
    if (result.ok) return;
    expect(result.cause).toEqual({
      name: 'TypeError',
      message: 'fetch failed for https://chat.example.com/hooks/channels/wh_hostile/[redacted]',
      cause: {
        name: 'TypeError',
        code: 'ERR_INVALID_URL',
        message: 'Invalid URL https://chat.example.com/hooks/channels/wh_hostile/[redacted]',
        cause: {
          name: 'Error',
          code: 'E_DEEP',
          message: 'secret [redacted] once more',
          cause: { name: 'Error', message: 'deeper' },
        },
      },
    });
    expect(result.message).toBe('the one attempt met a network error (deeper)');
    expect(inspect(result, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('is taken out of what the endpoint answers, a URL of another shape included', async () => {
    const url = `${elsewhere.origin}/relay/${SECRET}?token=${SECRET}`;
    const quoting = await recording((_, res) =>
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end(
        JSON.stringify({
          type: 'about:blank',
          title: 'x',
          status: 400,
          code: 'bad',
          detail: `you posted to ${url}`,
          errors: [{ pointer: `/${SECRET}`, message: 'no' }],
        }),
      ),
    );
    try {
      const result = await fast(`${quoting.origin}/relay/${SECRET}?token=${SECRET}`).send({ text: 'x' });
      expect(result).toMatchObject({ ok: false, code: 'refused', status: 400 });
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(result.ok || result.problem?.errors).toEqual([{ pointer: '/[redacted]', message: 'no' }]);
    } finally {
      await quoting.close();
    }
  });

  it('in a URL with user info: refused at once with invalid_argument, the URL not quoted', () => {
    for (const url of [`http://ci:hunter2-password@127.0.0.1${PATH}`, `https://token@chat.example.com${PATH}`]) {
      let error: unknown;
      try {
        createWebhookSender({ url });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toMatchObject({
        code: 'invalid_argument',
        message:
          'createWebhookSender: options.url must be an absolute http(s) URL: it has a user name or password before the host (user:password@), which a webhook URL never has.',
      });
      expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).not.toMatch(/hunter2|token@|sEcReT/);
    }
  });
});
