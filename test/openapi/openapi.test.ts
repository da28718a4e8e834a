import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ChannelWebhookError,
  createFakeClock,
  createMemoryRateLimiter,
  createMemoryStore,
  createWebhookHandler,
  createWebhookManager,
  type WebhookRequest,
} from '../../src/index.js';
import { createOpenApiDocument } from '../../src/openapi/index.js';
import { validatePayload } from '../../src/validation/validate-payload.js';
import { KIND_SAMPLES, pointers, replaceAt, validPayload } from '../hardening/arbitraries.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'blockkit');
const PATH = '/hooks/channels/{webhook_id}/{secret}';

// biome-ignore lint/suspicious/noExplicitAny: the tests walk a JSON document of any shape.
type Json = Record<string, any>;
const document = createOpenApiDocument() as Json;
const operation = document.paths[PATH].post as Json;
const requestExamples = operation.requestBody.content['application/json'].examples as Record<string, { value: Json }>;

interface WorldOptions {
  limit?: number;
  failingInserts?: boolean;
  failingLimiter?: boolean;
}

/** A webhook on the public entry point, its handler, and a way to post to it. */
async function webhookWorld({ limit = 1_000_000, failingInserts = false, failingLimiter = false }: WorldOptions = {}) {
  const clock = createFakeClock(Date.UTC(2026, 0, 1));
  const store = createMemoryStore();
  await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
  const manager = createWebhookManager({
    store,
    baseUrl: 'https://chat.example.com',
    clock,
  });
  const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'general', name: 'CI' });
  const handlerStore = failingInserts
    ? { ...store, insertMessage: () => Promise.reject(new Error('disk full')) }
    : store;
  const rateLimiter = failingLimiter
    ? { hit: () => Promise.reject(new Error('connection refused')) }
    : createMemoryRateLimiter({ limit });
  const handle = createWebhookHandler({
    store: handlerStore,
    clock,
    rateLimiter,
    onRateLimiterError: 'reject',
    onError: () => {},
  });
  const send = (request: Partial<WebhookRequest>) =>
    handle({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
      ...request,
    });
  return { store, url, send };
}

/** Posts `body` as JSON to a fresh webhook whose limiter never gets in the way. */
async function world() {
  const { send } = await webhookWorld();
  return (body: unknown) => send({ body: JSON.stringify(body) });
}

/** `schema` (which may `$ref` the document's components) compiled by an independent JSON Schema 2020-12 validator. */
function compileAgainstDocument(schema: Json) {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addVocabulary(['discriminator']);
  ajv.addSchema({ $id: 'doc', components: document.components });
  return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
}

describe('the OpenAPI document', () => {
  it('validates strictly as OpenAPI 3.1 under swagger-parser', async () => {
    await expect(
      SwaggerParser.validate(structuredClone(document) as never, {
        validate: { schema: true, spec: true },
      }),
    ).resolves.toBeDefined();
    const custom = createOpenApiDocument({
      serverUrl: 'https://hooks.example.org/v2',
      pathPrefix: '/api/chat',
      title: 'Acme hooks',
    }) as Json;
    await expect(SwaggerParser.validate(structuredClone(custom) as never)).resolves.toBeDefined();
    expect(custom.servers).toEqual([{ url: 'https://hooks.example.org/v2' }]);
    expect(Object.keys(custom.paths)).toEqual([`/api/chat${PATH}`]);
    expect(custom.info.title).toBe('Acme hooks');
  });

  it('the committed openapi.json is what createOpenApiDocument() builds', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'))).toEqual(document);
  });

  it('ships as openapi.json in the package', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(manifest.files).toContain('openapi.json');
    expect(Object.keys(manifest.exports)).toContain('./openapi');
  });

  it('names every status the handler answers, with every problem code under its status', () => {
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '201',
      '400',
      '404',
      '405',
      '409',
      '413',
      '415',
      '429',
      '500',
    ]);
    const codes = (status: string) =>
      operation.responses[status].content['application/problem+json'].schema.allOf[1].properties.code.enum;
    expect(codes('400')).toEqual(['invalid_json', 'invalid_payload', 'key_mismatch', 'body_read_failed']);
    expect(codes('500')).toEqual(['store_failed', 'rate_limiter_failed', 'misconfigured', 'internal_error']);
    expect(operation.responses['429'].headers['Retry-After']).toMatchObject({
      required: true,
      schema: { type: 'integer', minimum: 1 },
    });
    expect(operation.responses['405'].headers.Allow).toMatchObject({ required: true, schema: { const: 'POST' } });
    expect(operation.responses['201'].headers.RateLimit).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(operation.responses['404'].headers.RateLimit).toMatchObject({ required: false });
    expect(operation.parameters.map((parameter: Json) => `${parameter.in}:${parameter.name}`)).toEqual([
      'path:webhook_id',
      'path:secret',
      'header:Idempotency-Key',
    ]);
  });

  it('publishes code-point limits as maxLength and the rest as prose', () => {
    const schemas = document.components.schemas;
    expect(schemas.DividerBlock.properties.block_id).toMatchObject({
      minLength: 1,
      maxLength: 255,
    });
    expect(JSON.stringify(schemas.DividerBlock)).not.toContain('maxCodePoints');
    expect(schemas.Payload.properties.text.description).toContain('10,000 code points after trimming');
    expect(schemas.Payload.properties.blocks).toMatchObject({
      minItems: 1,
      maxItems: 50,
    });
    expect(schemas.Payload.properties.blocks.description).toContain('visible text');
    expect(schemas.MarkdownBlock.properties.text.description).toContain('12,000 code points');
  });

  it('refuses bad options with invalid_argument', () => {
    for (const options of [
      { serverUrl: 'ftp://x' },
      { serverUrl: 'https://x/' },
      { pathPrefix: 'api' },
      { pathPrefix: '/api/' },
      { title: ' ' },
    ]) {
      expect(() => createOpenApiDocument(options)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    }
  });
});

describe('every example', () => {
  // A request example is answered with the response that shows an example of the same name: the
  // first post with the 201 or 400 one, a repeat (same idempotency key) with the 200 one.
  it.each(Object.keys(requestExamples))(
    'request example %s gets the status of the response that shows it',
    async (name) => {
      const promised = Object.entries(operation.responses as Record<string, Json>)
        .filter(([, response]) =>
          Object.values(response.content as Record<string, Json>).some((media) => name in (media.examples ?? {})),
        )
        .map(([status]) => Number(status));
      const first = promised.filter((status) => status !== 200);
      expect(first).toHaveLength(1);
      const post = await world();
      const expectAnswer = async (status: number) => {
        const response = await post(requestExamples[name]!.value);
        expect(response.status).toBe(status);
        const example = (Object.values(operation.responses[String(status)].content)[0] as Json).examples[name].value;
        if (status >= 400) expect(response.body).toEqual(example);
        else
          expect(response.body).toEqual({
            ...example,
            message: {
              ...example.message,
              id: expect.any(String),
              channelId: 'general',
              author: { ...example.message.author, id: expect.any(String) },
              createdAt: expect.any(String),
            },
          });
      };
      await expectAnswer(first[0]!);
      if (promised.includes(200)) await expectAnswer(200);
    },
  );

  // Each problem example is the answer to a request that provokes its code: same status, type, title
  // and code (the detail is prose), and the headers its response requires.
  const provoke: Record<string, () => Promise<Json>> = {
    not_found: async () =>
      (await webhookWorld()).send({
        url: 'https://chat.example.com/hooks/channels/wh_unknown/nope',
      }),
    method_not_allowed: async () => (await webhookWorld()).send({ method: 'GET' }),
    unsupported_media_type: async () =>
      (await webhookWorld()).send({
        headers: { 'content-type': 'text/plain' },
      }),
    rate_limited: async () => {
      const { send } = await webhookWorld({ limit: 1 });
      await send({});
      return send({});
    },
    payload_too_large: async () =>
      (await webhookWorld()).send({
        body: JSON.stringify({ text: 'x'.repeat(70_000) }),
      }),
    invalid_json: async () => (await webhookWorld()).send({ body: '{"text":' }),
    invalid_payload: async () => (await webhookWorld()).send({ body: '{"eventId":"deploy-42"}' }),
    key_mismatch: async () =>
      (await webhookWorld()).send({
        headers: {
          'content-type': 'application/json',
          'idempotency-key': 'deploy-43',
        },
        body: '{"text":"Deploy 42 finished.","eventId":"deploy-42"}',
      }),
    body_read_failed: async () =>
      (await webhookWorld()).send({
        body: () => Promise.reject(new Error('aborted')),
      }),
    channel_archived: async () => {
      const { store, send } = await webhookWorld();
      await store.putChannel({ id: 'general', ownerId: 'u1', archived: true });
      return send({});
    },
    store_failed: async () => (await webhookWorld({ failingInserts: true })).send({}),
    rate_limiter_failed: async () => (await webhookWorld({ failingLimiter: true })).send({}),
    misconfigured: async () =>
      (await webhookWorld()).send({
        body: () => Promise.reject(new ChannelWebhookError('misconfigured', 'A body parser ran first.')),
      }),
    internal_error: async () => {
      const { send } = await webhookWorld();
      const hostile = Object.defineProperty({}, 'content-type', {
        enumerable: true,
        get: () => {
          throw new Error('header getter');
        },
      });
      return send({ headers: hostile as Record<string, string> });
    },
  };

  it('provokes every problem code the document names', () => {
    const named = Object.values(operation.responses as Record<string, Json>).flatMap((response) =>
      Object.keys(response.content['application/problem+json']?.examples ?? {}),
    );
    expect(Object.keys(provoke).sort()).toEqual(named.filter((name) => name !== 'invalidPayload').sort());
  });

  it.each(Object.keys(provoke))('the %s example is what the handler answers', async (code) => {
    const [status, response] = Object.entries(operation.responses as Record<string, Json>).find(
      ([, candidate]) => code in (candidate.content['application/problem+json']?.examples ?? {}),
    )!;
    const example = response.content['application/problem+json'].examples[code].value;
    const answer = await provoke[code]!();
    expect(answer.status).toBe(Number(status));
    expect(answer.body).toMatchObject({
      type: example.type,
      title: example.title,
      status: example.status,
      code: example.code,
    });
    expect('errors' in answer.body).toBe('errors' in example);
    // The validator's answers are shown whole: detail and errors included.
    if (code === 'invalid_payload' || code === 'key_mismatch') expect(answer.body).toEqual(example);
    for (const [name, header] of Object.entries(response.headers as Record<string, Json>)) {
      if (header.required) expect(answer.headers, name).toHaveProperty(name.toLowerCase());
    }
  });

  it('every response example matches its response schema', () => {
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      for (const [mediaType, media] of Object.entries(response.content as Record<string, Json>)) {
        const check = compileAgainstDocument(media.schema);
        for (const [name, example] of Object.entries(media.examples as Record<string, Json>)) {
          expect(check(example.value), `${status} ${mediaType} ${name}: ${JSON.stringify(check.errors)}`).toBe(true);
          if (mediaType === 'application/problem+json') expect(example.value.status).toBe(Number(status));
        }
      }
    }
  });
});

// Refusals for rules JSON Schema cannot state: lengths after trimming, code points, visible text,
// the markdown total, URL schemes, unstorable strings.
const PROSE_ONLY = /after trimming|visible text|markdown blocks together|http\(s\)|U\+0000|characters$/;

describe('the document and the handler agree', () => {
  const schemaCheck = compileAgainstDocument({
    $ref: '#/components/schemas/Payload',
  });
  let post: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    post = await world();
  });

  const corpus = readdirSync(CORPUS)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(CORPUS, file), 'utf8')));
  const base = fc.oneof(validPayload, fc.constantFrom(...corpus));
  const strings = ['', '   ', 'x'.repeat(256), '😀'.repeat(200), '😀'.repeat(256), 'https://example.com/a'];
  const nearValid = fc.oneof(
    base,
    fc.tuple(base, fc.nat(), fc.constantFrom(...KIND_SAMPLES, ...strings, 'extra')).map(([payload, at, sample]) => {
      const all = pointers(payload).filter((pointer) => pointer !== '');
      const pointer = all[at % all.length]!;
      return sample === 'extra'
        ? replaceAt(payload, `${pointer.replace(/\/[^/]*$/, '')}/extra_field`, 1)
        : replaceAt(payload, pointer, sample);
    }),
    fc.tuple(validPayload, fc.constantFrom(...strings)).map(([payload, blockId]) => ({
      ...payload,
      blocks: [{ type: 'divider', block_id: blockId }, ...(payload.blocks ?? [{ type: 'markdown', text: 'shown' }])],
    })),
  );

  // Rule: a payload the validator's compiled schemas accept is stored by the handler (201), and one
  // they refuse is answered 400 by it: the handler adds no rule of its own and drops none.
  // Rule: the document's schema never refuses a payload the handler accepts, and refuses every payload
  // the handler refuses for a reason JSON Schema can state.
  it('on valid payloads, the corpus, and payloads with one field replaced or added', async () => {
    await fc.assert(
      fc.asyncProperty(nearValid, async (payload) => {
        const verdict = validatePayload(payload, undefined, true);
        const response = await post(payload);
        expect(response.status).toBe(verdict.ok ? 201 : 400);
        if (verdict.ok) {
          expect(schemaCheck(payload), JSON.stringify(schemaCheck.errors)).toBe(true);
        } else if (verdict.errors.some((error) => !PROSE_ONLY.test(error.message))) {
          expect(schemaCheck(payload)).toBe(false);
        }
      }),
      { numRuns: 400, seed: 20_261_123 },
    );
  });
});
