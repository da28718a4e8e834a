import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyReader, HeaderValue, RawBody, WebhookResponse } from '../../src/http/http-types.js';
import type { Message } from '../../src/ports.js';
import {
  applyTwist,
  jsonKind,
  KIND_SAMPLES,
  payloadNode,
  pointers,
  render,
  replaceAt,
  twist,
  validPayload,
  valueAt,
} from './arbitraries.js';
import { expectContractAnswer, FUZZ_SEED, fuzzRuns, prototypeSnapshot, watchProcess } from './support.js';
import { setup, type World } from '../support/setup.js';

// The seeded slice runs in `npm test`; `npm run fuzz` sets FUZZ_RUNS and shares it out by weight.
const RUNS = {
  bytes: fuzzRuns(150, 0.2),
  trees: fuzzRuns(250, 0.3),
  headers: fuzzRuns(100, 0.1),
  routes: fuzzRuns(100, 0.1),
  wrongTypes: fuzzRuns(150, 0.15),
  valid: fuzzRuns(150, 0.15),
};

type Delivery = 'bytes' | 'string' | 'reader';
const delivery = fc.constantFrom<Delivery>('bytes', 'string', 'reader');
const decoder = new TextDecoder();

function deliver(body: Uint8Array | string, how: Delivery): RawBody | BodyReader {
  if (how === 'string') return typeof body === 'string' ? body : decoder.decode(body);
  if (how === 'reader') return async () => body;
  return typeof body === 'string' ? body : body;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

async function post(
  world: World,
  body: RawBody | BodyReader,
  headers: Record<string, HeaderValue> = JSON_HEADERS,
  url = world.url,
  method = 'POST',
) {
  // One second apart: the limiter never refuses, so every answer comes from the input alone.
  world.clock.advance(1_001);
  world.errors.length = 0;
  return world.handle({ method, url, headers, body });
}

/**
 * The invariant of every fuzzed post: a contract status with a problem body, exactly one stored
 * message for a 201 (the one answered), none for anything else, a 200 only with an earlier
 * message, and no error reported (no store or limiter failed, so any report is a handler crash).
 */
function expectSound(world: World, response: WebhookResponse, createdBefore: number, allowed: readonly number[]): void {
  expectContractAnswer(response, allowed);
  if (response.status === 201) {
    expect(world.stored.length).toBe(createdBefore + 1);
    expect(world.stored[world.stored.length - 1]).toEqual((response.body as { message: Message }).message);
  } else {
    expect(world.stored.length).toBe(createdBefore);
  }
  if (response.status === 200) {
    const { id } = (response.body as { message: Message }).message;
    expect(world.stored.some((message) => message.id === id)).toBe(true);
  }
  expect(world.errors).toEqual([]);
}

let watcher: ReturnType<typeof watchProcess>;
let prototypes: string;
beforeAll(() => {
  watcher = watchProcess();
  prototypes = prototypeSnapshot();
});
afterAll(() => {
  watcher.stop();
  // Checked once for the whole file: no input, however hostile, reached a built-in prototype.
  expect(prototypeSnapshot()).toBe(prototypes);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(watcher.problems).toEqual([]);
});

describe('fuzzing the core handler with hostile bodies', () => {
  // Rule: whatever bytes arrive, the answer is 201, 200, 400 or 413 with a problem body for the
  // refusals, and only a 201 stores anything.
  it(`random bytes are answered with a contract status and store nothing unless 201 (${RUNS.bytes} cases)`, async () => {
    const world = await setup();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          fc.tuple(fc.constantFrom(65_535, 65_536, 65_537), fc.uint8Array({ maxLength: 16 })).map(([size, head]) => {
            const bytes = new Uint8Array(size);
            bytes.set(head);
            return bytes;
          }),
        ),
        delivery,
        async (bytes, how) => {
          const before = world.stored.length;
          expectSound(world, await post(world, deliver(bytes, how)), before, [201, 400, 413]);
        },
      ),
      { seed: FUZZ_SEED, numRuns: RUNS.bytes },
    );
  });

  // Rule: JSON-shaped garbage (wrong types, NUL, lone surrogates, BOMs, duplicate and __proto__
  // keys, huge numbers, every limit ±1, 20,000-deep nesting, invalid UTF-8, truncation, padding to
  // the size limit) never yields a 500, a throw, or a stored message for a refusal.
  it(`hostile JSON bodies are answered with a contract status and store nothing unless 201 (${RUNS.trees} cases)`, async () => {
    const world = await setup();
    await fc.assert(
      fc.asyncProperty(payloadNode, twist, delivery, async (tree, how, mode) => {
        const before = world.stored.length;
        expectSound(
          world,
          await post(world, deliver(applyTwist(render(tree), how), mode)),
          before,
          [200, 201, 400, 413],
        );
      }),
      { seed: FUZZ_SEED, numRuns: RUNS.trees },
    );
  });
});

const GOOD_TYPES = [
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'Application/Json;Charset="UTF-8"',
  'application/json;',
  ' application/json ',
  'application/json; foo=bar',
];
const BAD_TYPES: HeaderValue[] = [
  undefined,
  '',
  'text/plain',
  'application/jsonx',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'json',
  'application/*',
  ['application/json', 'application/json'],
  [],
];

describe('fuzzing the core handler with hostile headers', () => {
  // Rule: a JSON content type (any case, any parameters, charset utf-8 if any) gets past 415;
  // anything else, repeated or empty included, is 415 and does not count toward the rate limit; a
  // declared length over 64 KiB is 413 before the body is looked at; odd idempotency keys are 400.
  it(`odd, empty and repeated headers are answered by the settled rules (${RUNS.headers} cases)`, async () => {
    const world = await setup();
    const header = <T>(values: fc.Arbitrary<T>) => fc.option(values, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...GOOD_TYPES).map((value) => ({ good: true, value: value as HeaderValue })),
          fc.constantFrom(...BAD_TYPES).map((value) => ({ good: false, value })),
        ),
        header(
          fc.oneof(
            fc.constantFrom<HeaderValue>('', ' ', 'k', 'a'.repeat(200), 'a'.repeat(201), ['k', 'k'], []),
            fc.string({ maxLength: 20 }),
          ),
        ),
        header(
          fc.constantFrom<HeaderValue>('0', '5', '65536', '65537', '99999999999999999999', 'abc', '-1', ' 70000 ', '', [
            '1',
            '2',
          ]),
        ),
        header(fc.constantFrom<HeaderValue>('chunked', 'gzip', '', ['chunked', 'chunked'])),
        validPayload,
        async (contentType, key, length, transfer, payload) => {
          const headers: Record<string, HeaderValue> = {};
          if (contentType.value !== undefined) headers['content-type'] = contentType.value;
          if (key !== undefined) headers['idempotency-key'] = key;
          if (length !== undefined) headers['content-length'] = length;
          if (transfer !== undefined) headers['transfer-encoding'] = transfer;
          const { eventId: _ignored, ...body } = payload;
          const before = world.stored.length;
          const response = await post(world, JSON.stringify(body), headers);
          expectSound(world, response, before, [200, 201, 400, 413, 415]);
          if (!contentType.good) {
            expect(response.status).toBe(415);
            expect(response.headers.ratelimit).toBeUndefined();
            return;
          }
          expect(response.status).not.toBe(415);
          expect(response.headers.ratelimit).toEqual(expect.any(String));
          const declared = typeof length === 'string' && /^\s*\d+\s*$/.test(length) ? Number(length) : null;
          if (transfer === undefined && declared !== null && declared > 65_536) expect(response.status).toBe(413);
          // A repeated key is a 400, unless the size check (step 5) refused the body first.
          if (Array.isArray(key)) expect([400, 413]).toContain(response.status);
        },
      ),
      { seed: FUZZ_SEED, numRuns: RUNS.headers },
    );
  });
});

describe('fuzzing the core handler with hostile methods and URLs', () => {
  // Rule: a method other than POST is 405 with Allow: POST whatever the URL; a POST to anything but
  // the webhook's exact secret URL is 404; neither counts, stores or reports anything.
  it(`odd methods and URLs are answered 405 or 404 and never counted (${RUNS.routes} cases)`, async () => {
    const world = await setup();
    const { path, webhookId, secret } = world;
    const otherSecret = secret.startsWith('A') ? `B${secret.slice(1)}` : `A${secret.slice(1)}`;
    const wrongUrls = [
      `/hooks/channels/${webhookId}/${otherSecret}`,
      `/hooks/channels/wh_${'A'.repeat(22)}/${secret}`,
      `/hooks/channels/${webhookId}/${secret}/`,
      `/hooks/channels/${webhookId}//${secret}`,
      `/hooks/channels/${webhookId}/${secret.slice(1)}`,
      `/hooks/channels/${webhookId}/${secret}A`,
      `/hooks/channels/${webhookId}/${secret.toUpperCase()}`,
      `/HOOKS/CHANNELS/${webhookId}/${secret}`,
      `/hooks/channels/${encodeURIComponent(webhookId)}%2F${secret}`,
      `/hooks/channels/${webhookId}/${secret.slice(0, 20)}%00${secret.slice(21)}`,
      `/hooks/channels/${webhookId}?secret=${secret}`,
      `/hooks/channels/${webhookId}/${secret}/extra`,
      `/hooks/channels/${webhookId}/${'x'.repeat(100_000)}`,
      `/${'hooks/channels/'.repeat(2_000)}`,
      '',
      '/',
      '*',
    ];
    const route = fc.oneof(
      fc.constantFrom(...wrongUrls).map((url) => ({ url, valid: false })),
      fc.string({ maxLength: 80 }).map((url) => ({ url, valid: false })),
      fc
        .constantFrom(path, `https://chat.example.com${path}`, `/api/v1${path}`, `${path}?x=1`, `${path}#frag`)
        .map((url) => ({ url, valid: true })),
    );
    const method = fc.oneof(
      fc.constantFrom(
        'POST',
        'post',
        'Post',
        'GET',
        'PUT',
        'PATCH',
        'DELETE',
        'HEAD',
        'OPTIONS',
        'TRACE',
        'CONNECT',
        '',
        ' POST',
        'POST\0',
      ),
      fc.string({ maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(method, route, async (verb, { url, valid }) => {
        const before = world.stored.length;
        const response = await post(world, '{"text":"hi"}', JSON_HEADERS, url, verb);
        expectSound(world, response, before, [201, 404, 405]);
        if (verb.toUpperCase() !== 'POST') {
          expect(response.status).toBe(405);
          expect(response.headers.allow).toBe('POST');
        } else {
          expect(response.status).toBe(valid ? 201 : 404);
        }
        if (response.status !== 201) expect(response.headers.ratelimit).toBeUndefined();
      }),
      { seed: FUZZ_SEED, numRuns: RUNS.routes },
    );
  });
});

describe('fuzzing the core handler field by field', () => {
  // Rule: in a body every rule accepts, swapping any one value for a value of another JSON kind
  // (string, number, boolean, null, array, object) makes it a 400 whose errors point at that
  // value or at a field enclosing it, and nothing is stored.
  it(`every field with a wrong type is a 400 pointing at it (${RUNS.wrongTypes} cases)`, async () => {
    const world = await setup();
    const mutation = validPayload.chain((payload) =>
      fc.record({
        payload: fc.constant(payload),
        pointer: fc.constantFrom(...pointers(payload)),
        replacement: fc.constantFrom(...KIND_SAMPLES),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        mutation.filter(
          ({ payload, pointer, replacement }) => jsonKind(valueAt(payload, pointer)) !== jsonKind(replacement),
        ),
        async ({ payload, pointer, replacement }) => {
          const before = world.stored.length;
          const response = await post(world, JSON.stringify(replaceAt(payload, pointer, replacement)));
          expectSound(world, response, before, [400]);
          const body = response.body as { code: string; errors: { pointer?: string }[] };
          expect(body.code).toBe('invalid_payload');
          const related = body.errors.some(
            ({ pointer: at }) =>
              at !== undefined &&
              (at === pointer || pointer.startsWith(`${at}/`) || at.startsWith(`${pointer}/`) || at === ''),
          );
          expect(related, `${JSON.stringify(body.errors)} for ${pointer}`).toBe(true);
        },
      ),
      { seed: FUZZ_SEED, numRuns: RUNS.wrongTypes },
    );
  });

  // Rule: a body every rule accepts is stored exactly as sent (201); a repeated key answers 200
  // with the first message, unchanged.
  it(`valid bodies are stored as sent, and a repeated key returns the first message (${RUNS.valid} cases)`, async () => {
    const world = await setup();
    const byKey = new Map<string, Message>();
    await fc.assert(
      fc.asyncProperty(validPayload, async (payload) => {
        const before = world.stored.length;
        const response = await post(world, JSON.stringify(payload));
        const earlier = payload.eventId === undefined ? undefined : byKey.get(payload.eventId);
        expectSound(world, response, before, [earlier === undefined ? 201 : 200]);
        const { message } = response.body as { message: Message };
        if (earlier !== undefined) {
          expect(message).toEqual(earlier);
          return;
        }
        expect(message).toMatchObject({
          body: payload.text ?? '',
          blocks: payload.blocks ?? [],
          author: { type: 'webhook', id: world.webhookId, name: 'CI' },
        });
        if (payload.eventId !== undefined) byKey.set(payload.eventId, message);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS.valid },
    );
  });
});

const encode = (text: string) => new TextEncoder().encode(text);
const bytesOf = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...encode(part)] : part)));
const padTo = (json: string, size: number) => `${json}${' '.repeat(size - encode(json).length)}`;
const deep = (depth: number, inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const dividers = (count: number) => JSON.stringify(Array.from({ length: count }, () => ({ type: 'divider' })));
const plain = (count: number) =>
  JSON.stringify(Array.from({ length: count }, () => ({ type: 'plain_text', text: 'ctx' })));

interface Case {
  name: string;
  body: RawBody;
  headers?: Record<string, HeaderValue>;
  status: number;
  /** The problem code, or for a 201 the stored `body`. */
  code?: string;
  stored?: string;
  /** A pointer (or `header:<name>`) some error must name. */
  at?: string;
}

/** Named hostile inputs from the issue, each with the exact answer docs/design.md settles. */
const CASES: Case[] = [
  { name: 'text of 10,000 code points', body: JSON.stringify({ text: '😀'.repeat(10_000) }), status: 201 },
  {
    name: 'text of 10,001 code points',
    body: JSON.stringify({ text: '😀'.repeat(10_001) }),
    status: 400,
    code: 'invalid_payload',
    at: '/text',
  },
  {
    name: 'text of 10,000 after trimming, stored untrimmed',
    body: JSON.stringify({ text: ` ${'a'.repeat(10_000)}\n` }),
    status: 201,
    stored: ` ${'a'.repeat(10_000)}\n`,
  },
  {
    name: 'text of whitespace only',
    body: JSON.stringify({ text: ' \t\n\u00a0' }),
    status: 400,
    code: 'invalid_payload',
    at: '/text',
  },
  { name: '50 blocks', body: `{"text":"t","blocks":${dividers(50)}}`, status: 201 },
  {
    name: '51 blocks',
    body: `{"text":"t","blocks":${dividers(51)}}`,
    status: 400,
    code: 'invalid_payload',
    at: '/blocks',
  },
  {
    name: 'markdown blocks of 12,000 characters together',
    body: JSON.stringify({
      blocks: [
        { type: 'markdown', text: 'a'.repeat(6_000) },
        { type: 'markdown', text: '😀'.repeat(6_000) },
      ],
    }),
    status: 201,
  },
  {
    name: 'markdown blocks of 12,001 characters together',
    body: JSON.stringify({
      blocks: [
        { type: 'markdown', text: 'a'.repeat(6_001) },
        { type: 'markdown', text: '😀'.repeat(6_000) },
      ],
    }),
    status: 400,
    code: 'invalid_payload',
    at: '/blocks',
  },
  { name: 'eventId of 200 characters', body: JSON.stringify({ text: 't', eventId: 'e'.repeat(200) }), status: 201 },
  {
    name: 'eventId of 201 characters',
    body: JSON.stringify({ text: 't', eventId: 'e'.repeat(201) }),
    status: 400,
    code: 'invalid_payload',
    at: '/eventId',
  },
  {
    name: 'Idempotency-Key of 200 characters',
    body: '{"text":"t"}',
    headers: { 'idempotency-key': 'k'.repeat(200) },
    status: 201,
  },
  {
    name: 'Idempotency-Key of 201 characters',
    body: '{"text":"t"}',
    headers: { 'idempotency-key': 'k'.repeat(201) },
    status: 400,
    code: 'invalid_payload',
    at: 'header:idempotency-key',
  },
  {
    name: 'Idempotency-Key sent twice',
    body: '{"text":"t"}',
    headers: { 'idempotency-key': ['k', 'k'] },
    status: 400,
    code: 'invalid_payload',
    at: 'header:idempotency-key',
  },
  {
    name: 'empty Idempotency-Key',
    body: '{"text":"t"}',
    headers: { 'idempotency-key': '' },
    status: 400,
    code: 'invalid_payload',
    at: 'header:idempotency-key',
  },
  {
    name: 'block_id of 255 characters',
    body: JSON.stringify({ text: 't', blocks: [{ type: 'divider', block_id: 'b'.repeat(255) }] }),
    status: 201,
  },
  {
    name: 'block_id of 256 characters',
    body: JSON.stringify({ text: 't', blocks: [{ type: 'divider', block_id: 'b'.repeat(256) }] }),
    status: 400,
    code: 'invalid_payload',
    at: '/blocks/0/block_id',
  },
  { name: 'context with 10 elements', body: `{"blocks":[{"type":"context","elements":${plain(10)}}]}`, status: 201 },
  {
    name: 'context with 11 elements',
    body: `{"blocks":[{"type":"context","elements":${plain(11)}}]}`,
    status: 400,
    code: 'invalid_payload',
    at: '/blocks/0/elements',
  },
  { name: 'a body of exactly 65,536 bytes', body: padTo('{"text":"t"}', 65_536), status: 201 },
  { name: 'a body of 65,537 bytes', body: padTo('{"text":"t"}', 65_537), status: 413, code: 'payload_too_large' },
  {
    name: 'a body of 65,536 bytes declared as such',
    body: padTo('{"text":"t"}', 65_536),
    headers: { 'content-length': '65536' },
    status: 201,
  },
  {
    name: 'a Content-Length of 65,537',
    body: '{"text":"t"}',
    headers: { 'content-length': '65537' },
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'arrays nested 20,000 deep in an unknown field',
    body: `{"text":"t","deep":${deep(20_000, '1')}}`,
    status: 400,
    code: 'invalid_payload',
    at: '/deep',
  },
  {
    name: 'arrays nested 20,000 deep in an unknown field, as bytes',
    body: encode(`{"text":"t","deep":${deep(20_000, '1')}}`),
    status: 400,
    code: 'invalid_payload',
    at: '/deep',
  },
  {
    name: 'arrays nested 20,000 deep around an escaped string, as bytes',
    body: encode(`{"text":"t","deep":${deep(20_000, '"\\u0041"')}}`),
    status: 400,
    code: 'invalid_payload',
    at: '/deep',
  },
  {
    name: 'arrays nested 20,000 deep around an escaped string',
    body: `{"text":"t","deep":${deep(20_000, '"\\u0041"')}}`,
    status: 400,
    code: 'invalid_payload',
    at: '/deep',
  },
  {
    name: 'arrays nested 5,000 deep as a block_id, with an escape',
    body: `{"text":"\\u0041","blocks":[{"type":"divider","block_id":${deep(5_000, '1')}}]}`,
    status: 400,
    code: 'invalid_payload',
    at: '/blocks/0/block_id',
  },
  {
    name: 'blocks nested 20,000 deep',
    body: `{"blocks":${deep(20_000, '{"type":"divider"}')}}`,
    status: 400,
    code: 'invalid_payload',
    at: '/blocks/0',
  },
  {
    name: 'a __proto__ key',
    body: '{"__proto__":{"polluted":true},"text":"t"}',
    status: 400,
    code: 'invalid_payload',
    at: '/__proto__',
  },
  {
    name: 'a constructor.prototype key',
    body: '{"constructor":{"prototype":{"polluted":true}},"text":"t"}',
    status: 400,
    code: 'invalid_payload',
    at: '/constructor',
  },
  {
    name: 'a __proto__ key inside a block',
    body: '{"blocks":[{"type":"markdown","text":"t","__proto__":{"polluted":true}}]}',
    status: 400,
    code: 'invalid_payload',
    at: '/blocks/0/__proto__',
  },
  {
    name: 'a number too large for a double as text',
    body: '{"text":1e400}',
    status: 400,
    code: 'invalid_payload',
    at: '/text',
  },
  {
    name: 'a 30-digit integer as eventId',
    body: '{"text":"t","eventId":123456789012345678901234567890}',
    status: 400,
    code: 'invalid_payload',
    at: '/eventId',
  },
  {
    name: 'a UTF-8 BOM before the JSON (bytes)',
    body: bytesOf([0xef, 0xbb, 0xbf], '{"text":"bom"}'),
    status: 201,
    stored: 'bom',
  },
  { name: 'a BOM before the JSON (string)', body: '\ufeff{"text":"bom"}', status: 201, stored: 'bom' },
  {
    name: 'two BOMs before the JSON',
    body: bytesOf([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '{"text":"bom"}'),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'a stray 0xFF byte in a string',
    body: bytesOf('{"text":"a', [0xff], '"}'),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'an overlong NUL (C0 80)',
    body: bytesOf('{"text":"a', [0xc0, 0x80], '"}'),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'a UTF-8-encoded surrogate (ED A0 80)',
    body: bytesOf('{"text":"a', [0xed, 0xa0, 0x80], '"}'),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'a code point above U+10FFFF (F4 90 80 80)',
    body: bytesOf('{"text":"a', [0xf4, 0x90, 0x80, 0x80], '"}'),
    status: 400,
    code: 'invalid_json',
  },
  { name: 'a raw NUL byte in a string', body: bytesOf('{"text":"a', [0x00], '"}'), status: 400, code: 'invalid_json' },
  { name: 'an escaped NUL in text', body: '{"text":"a\\u0000"}', status: 400, code: 'invalid_payload', at: '/text' },
  {
    name: 'an escaped lone surrogate in eventId',
    body: '{"text":"t","eventId":"\\ud800"}',
    status: 400,
    code: 'invalid_payload',
    at: '/eventId',
  },
  {
    name: 'a literal lone surrogate in a string body',
    body: '{"text":"a\ud800"}',
    status: 400,
    code: 'invalid_payload',
    at: '/text',
  },
  { name: 'an empty body', body: '', status: 400, code: 'invalid_json' },
  { name: 'no body at all', body: undefined, status: 400, code: 'invalid_json' },
  { name: 'JSON null', body: 'null', status: 400, code: 'invalid_payload', at: '' },
  { name: 'a JSON array', body: '[{"text":"t"}]', status: 400, code: 'invalid_payload', at: '' },
  { name: 'a JSON string', body: '"text"', status: 400, code: 'invalid_payload', at: '' },
];

describe('named hostile inputs and every limit ±1', () => {
  it.each(CASES)('$name is answered $status', async ({ body, headers, status, code, stored, at }) => {
    const world = await setup();
    const response = await post(world, body, { ...JSON_HEADERS, ...headers });
    expectSound(world, response, 0, [status]);
    if (status === 201) {
      const sent =
        typeof body === 'string' ? body.replace(/^\ufeff/, '') : new TextDecoder().decode(body as Uint8Array);
      expect((response.body as { message: Message }).message.body).toBe(
        stored ?? (JSON.parse(sent) as { text?: string }).text ?? '',
      );
      return;
    }
    const problem = response.body as { code: string; errors?: { pointer?: string; header?: string }[] };
    expect(problem.code).toBe(code);
    if (at !== undefined) {
      const named = (problem.errors ?? []).map((error) =>
        error.header !== undefined ? `header:${error.header}` : error.pointer,
      );
      expect(named).toContain(at);
    }
  });

  // JSON.parse keeps the last of duplicate keys; the answer must still be a contract one.
  it('duplicate keys are answered like the object JSON.parse builds, the last value winning', async () => {
    const world = await setup();
    const response = await post(world, '{"text":"first","text":"second","eventId":"a","eventId":"b"}');
    expectSound(world, response, 0, [201]);
    expect((response.body as { message: Message }).message.body).toBe('second');
    const again = await post(world, '{"text":"third","eventId":"b"}');
    expect(again.status).toBe(200);
  });
});
