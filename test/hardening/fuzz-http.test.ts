import fc from 'fast-check';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import { frameworkTargets } from '../support/frameworks.js';
import type { Listening } from '../support/http.js';
import { applyTwist, payloadNode, render, twist, validPayload } from './arbitraries.js';
import { CONTRACT_STATUSES, expectProblemBody, FUZZ_SEED, prototypeSnapshot, watchProcess } from './support.js';
import { setup, type World } from '../support/setup.js';

// Per adapter: the seeded slice in `npm test`, FUZZ_HTTP_RUNS under `npm run fuzz`.
const RUNS = Number(process.env.FUZZ_HTTP_RUNS ?? '') > 0 ? Number(process.env.FUZZ_HTTP_RUNS) : 60;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  /** Send without Content-Length, so the body goes chunked and the adapter must count it. */
  chunked: boolean;
}

// A fresh connection per request: a server may close one after a refusal with an unread body, and a
// reused keep-alive socket would then fail for reasons that are the client's, not the adapter's.
function exchange(origin: string, sent: Sent): Promise<Answer> {
  const headers: Record<string, string | string[] | number> = { ...sent.headers };
  // Node sends a DELETE or OPTIONS body with neither header unless told; chunked must be explicit.
  if (sent.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = sent.body.length;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${sent.path}`, { method: sent.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer in 10 s to ${sent.method} ${sent.path}`)));
    if (sent.method === 'GET' || sent.method === 'HEAD') req.end();
    else req.end(sent.body);
  });
}

const printable = fc.string({ unit: 'grapheme-ascii', maxLength: 24 }).filter((value) => /^[\x20-\x7e]*$/.test(value));
const contentType = fc.oneof(
  { weight: 5, arbitrary: fc.constant<string | string[]>('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | string[]>(
      'APPLICATION/JSON; charset=UTF-8',
      'application/json;charset="utf-8"',
      '',
      'text/plain',
      'application/json; charset=latin1',
      'application/jsonx',
      'multipart/form-data; boundary=x',
      ['application/json', 'application/json'],
      ['application/json', 'text/plain'],
    ),
  },
  { weight: 1, arbitrary: printable },
);
const keyHeader = fc.option(
  fc.oneof(printable, fc.constantFrom<string | string[]>('', ' ', 'k'.repeat(201), ['k', 'k'], ['a', 'b'])),
  { nil: undefined },
);
const body = fc.oneof(
  { weight: 3, arbitrary: validPayload.map((payload) => new TextEncoder().encode(JSON.stringify(payload))) },
  {
    weight: 4,
    arbitrary: fc.tuple(payloadNode, twist).map(([tree, how]) => {
      const twisted = applyTwist(render(tree), how);
      return typeof twisted === 'string' ? new TextEncoder().encode(twisted) : twisted;
    }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
);

describe.each(frameworkTargets)('fuzzing over real HTTP through $name', (target) => {
  let world: World;
  let app: Listening;
  let watcher: ReturnType<typeof watchProcess>;
  let prototypes: string;

  beforeAll(async () => {
    watcher = watchProcess();
    prototypes = prototypeSnapshot();
    world = await setup({ rateLimiter: createMemoryRateLimiter({ limit: 1_000_000 }) });
    app = await target.start(world.handle);
  });

  afterAll(async () => {
    await app.close();
    watcher.stop();
    expect(prototypeSnapshot()).toBe(prototypes);
    expect(watcher.problems).toEqual([]);
  });

  // Rule: through every adapter, whatever arrives — garbage bodies, invalid UTF-8, deep nesting,
  // odd or repeated headers, chunked or sized, wrong methods and secrets — the answer is a contract
  // status with a problem+json body for every refusal, never a 500, and only a 201 stores.
  it(`random requests get contract answers and store only on 201 (${RUNS} cases)`, async () => {
    const wrongSecret = `${world.path.slice(0, -43)}${world.secret.startsWith('A') ? 'B' : 'A'}${world.secret.slice(1)}`;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 8, arbitrary: fc.constant('POST') },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
        ),
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(`/api${world.path}`) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              `/api${wrongSecret}`,
              `/api/hooks/channels/wh_${'A'.repeat(22)}/${world.secret}`,
            ),
          },
        ),
        contentType,
        keyHeader,
        fc.array(
          fc.tuple(fc.constantFrom('x-junk', 'accept', 'content-encoding', 'expect-ct', 'authorization'), printable),
          { maxLength: 3 },
        ),
        body,
        fc.boolean(),
        async (method, path, type, key, junk, bytes, chunked) => {
          const headers: Record<string, string | string[]> = { 'content-type': type };
          if (key !== undefined) headers['idempotency-key'] = key;
          for (const [name, value] of junk) headers[name] = value;
          const before = world.stored.length;
          world.errors.length = 0;
          const answer = await exchange(app.origin, {
            method,
            path,
            headers,
            body: bytes,
            chunked: chunked && method !== 'GET' && method !== 'HEAD',
          });
          const allowed: number[] = CONTRACT_STATUSES.filter((status) => status !== 500);
          expect(allowed, `${answer.status} ${answer.text}`).toContain(answer.status);
          expect(world.stored.length).toBe(before + (answer.status === 201 ? 1 : 0));
          expect(world.errors).toEqual([]);
          if (method !== 'POST') expect(answer.status, answer.text).toBe(405);
          else if (path !== `/api${world.path}`) expect(answer.status, answer.text).toBe(404);
          if (method === 'HEAD') return;
          const parsed = JSON.parse(answer.text) as unknown;
          if (answer.status === 200 || answer.status === 201) {
            expect(answer.headers['content-type']).toMatch(/^application\/json/);
            expect((parsed as { duplicate: boolean }).duplicate).toBe(answer.status === 200);
          } else {
            expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
            expectProblemBody(parsed, answer.status);
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
    // The server still answers a plain post afterwards.
    const after = await exchange(app.origin, {
      method: 'POST',
      path: `/api${world.path}`,
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"text":"still up"}'),
      chunked: false,
    });
    expect(after.status).toBe(201);
  });
});
