import { rule } from '../arguments/argument-rules.js';
import { checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { PROBLEMS, problemResponse, rateLimitedResponse, type ProblemCode } from '../http/problem.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_MS, MAX_BODY_BYTES } from '../limits.js';
import { MAX_KEY } from '../validation/block-schemas.js';
import { MAX_ERRORS, validatePayload } from '../validation/validate-payload.js';
import { MAX_POINTER_TOKEN, TRUNCATION_MARK } from '../validation/text.js';
import { ref, type JsonSchema } from './json-schema.js';
import { requestSchemas } from './request-schemas.js';

/**
 * Options of {@link createOpenApiDocument}.
 *
 * @example
 * ```ts
 * const options: OpenApiOptions = { serverUrl: 'https://chat.example.com', pathPrefix: '/api', title: 'Acme webhooks' };
 * ```
 */
export interface OpenApiOptions {
  /** The server the webhook URLs start with, absolute http(s). Default `'https://chat.example.com'`. */
  serverUrl?: string;
  /** The mount prefix before `/hooks/channels/…`, `''` or starting with `/`. Default `''`. */
  pathPrefix?: string;
  /** The document's `info.title`. Default `'Incoming channel webhooks'`. */
  title?: string;
}

/**
 * An OpenAPI 3.1 document, as a JSON-serializable object.
 *
 * @example
 * ```ts
 * const document: OpenApiDocument = createOpenApiDocument();
 * await writeFile('openapi.json', JSON.stringify(document, null, 2));
 * ```
 */
export type OpenApiDocument = { openapi: '3.1.0' } & { [field: string]: unknown };

const POST_PATH = '/hooks/channels/{webhook_id}/{secret}';
const RATE_HEADERS = ['RateLimit', 'RateLimit-Policy'] as const;
/** Statuses answered after the request counted toward the rate limit, so always with its headers. */
const COUNTED = new Set([200, 201, 400, 409, 413, 429]);

// Inlined in each response rather than referenced: a Reference Object cannot carry `required`.
const HEADERS: Record<string, { description: string; schema: JsonSchema; example?: unknown }> = {
  RateLimit: {
    description: 'The webhook\'s rate-limit state: `"default";r=<requests left>;t=<seconds to reset>`.',
    schema: { type: 'string' },
    example: '"default";r=59;t=60',
  },
  'RateLimit-Policy': {
    description: 'The rate-limit policy: `"default";q=<limit>;w=<window in seconds>`.',
    schema: { type: 'string' },
    example: '"default";q=60;w=60',
  },
  'Retry-After': {
    description: 'Whole seconds until a retry can succeed.',
    schema: { type: 'integer', minimum: 1 },
    example: 12,
  },
  Allow: { description: 'The one method accepted.', schema: { const: 'POST' } },
  'Cache-Control': { description: 'Problem answers are never cached.', schema: { const: 'no-store' } },
};
const header = (name: string, required: boolean) => ({ ...HEADERS[name], required });

const REQUEST_EXAMPLES: Record<string, { summary: string; value: Record<string, unknown> }> = {
  text: { summary: 'Text only', value: { text: 'Deploy 42 finished.' } },
  blocks: {
    summary: 'Blocks with a text fallback and an idempotency key',
    value: {
      text: 'Deploy 42 finished.',
      eventId: 'deploy-42',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Deploy 42' } },
        { type: 'section', text: { type: 'mrkdwn', text: '*api* is live on production.' } },
        { type: 'divider' },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'by CI' }] },
      ],
    },
  },
  richText: {
    summary: 'Rich text and markdown, no text',
    value: {
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Released ', style: { bold: true } },
                { type: 'link', url: 'https://example.com/v2', text: 'v2' },
              ],
            },
            {
              type: 'rich_text_list',
              style: 'bullet',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'faster uploads' }] }],
            },
          ],
        },
        { type: 'markdown', text: '**Thanks** to everyone who tested it.' },
      ],
    },
  },
  invalidPayload: {
    summary: 'Refused (400): a section without text, and a property outside the contract',
    value: { blocks: [{ type: 'section' }], channel: '#general' },
  },
};

/**
 * The OpenAPI 3.1 document of the post endpoint, built from the same schemas the validator compiles:
 * the path and its parameters, the request body (every block type; limits JSON Schema cannot state,
 * such as lengths after trimming, in `description`), the `Idempotency-Key` header, and every status
 * with its RFC 9457 problem body, `code` values and headers. Each request example is paired, by
 * name, with the response example it is answered with.
 *
 * @param options - `serverUrl` (default `'https://chat.example.com'`), `pathPrefix` (default `''`),
 *   `title` (default `'Incoming channel webhooks'`). A bad option throws a `ChannelWebhookError`
 *   with code `invalid_argument`.
 * @example
 * ```ts
 * import { createOpenApiDocument } from 'channel-webhooks/openapi';
 *
 * const document = createOpenApiDocument({ serverUrl: 'https://chat.example.com', pathPrefix: '/api' });
 * app.get('/openapi.json', (req, res) => res.json(document));
 * ```
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  checkOptions('createOpenApiDocument', options, OPTIONS);
  const { serverUrl = 'https://chat.example.com', pathPrefix = '', title = 'Incoming channel webhooks' } = options;
  const responses: Record<string, unknown> = {
    '201': success(201, 'A new message was stored.', false),
    '200': success(200, 'The idempotency key was used before on this webhook: the original message, unchanged.', true),
  };
  for (const [status, codes] of statusesOf()) responses[String(status)] = problem(status, codes);
  return {
    openapi: '3.1.0',
    info: {
      title,
      version: '1',
      description:
        'Posts a message into a chat channel through an incoming webhook. The secret URL is the only credential: no Authorization header.',
    },
    servers: [{ url: serverUrl }],
    paths: {
      [`${pathPrefix}${POST_PATH}`]: {
        post: {
          operationId: 'postMessage',
          summary: 'Post a message',
          description: `Checks run in this order, the first that fails answers: method, URL, Content-Type, rate limit (${DEFAULT_RATE_LIMIT} requests per ${DEFAULT_RATE_WINDOW_MS / 1000} s by default; every request past the Content-Type check counts), body size (${MAX_BODY_BYTES.toLocaleString('en-US')} bytes), fields, archived channel, idempotency key.`,
          parameters: [
            {
              name: 'webhook_id',
              in: 'path',
              required: true,
              description: 'The webhook identifier, as in the URL shown at creation.',
              schema: { type: 'string', minLength: 1 },
            },
            {
              name: 'secret',
              in: 'path',
              required: true,
              description: 'The secret shown once, at creation or rotation. Never logged.',
              schema: { type: 'string', minLength: 1 },
            },
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: `1–${MAX_KEY} code points after trimming, sent at most once. May replace \`eventId\`, or come with it when exactly equal.`,
              schema: { type: 'string', minLength: 1 },
            },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: ref('Payload') }, examples: REQUEST_EXAMPLES } },
          },
          responses,
        },
      },
    },
    components: {
      schemas: { ...requestSchemas(), ...responseSchemas() },
    },
  };
}

const OPTIONS: OptionsShape = {
  serverUrl: rule(
    'an absolute http(s) URL without a trailing slash',
    (value) => typeof value === 'string' && /^https?:\/\/[^\s/]+(\/\S*)?$/i.test(value) && !value.endsWith('/'),
  ),
  pathPrefix: rule(
    "'' or a path starting with '/', without a trailing slash, spaces, braces, '?' or '#'",
    (value) => typeof value === 'string' && /^(\/[^\s/{}?#]+)*$/.test(value),
  ),
  title: rule('a non-blank string', (value) => typeof value === 'string' && value.trim().length > 0),
};

function statusesOf(): Map<number, ProblemCode[]> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const [code, { status }] of Object.entries(PROBLEMS) as [ProblemCode, { status: number }][]) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function rateHeaders(status: number): Record<string, unknown> {
  return Object.fromEntries(RATE_HEADERS.map((name) => [name, header(name, COUNTED.has(status))]));
}

function success(status: 200 | 201, description: string, duplicate: boolean): unknown {
  const examples = Object.fromEntries(
    Object.entries(REQUEST_EXAMPLES)
      .filter(([name]) => name !== 'invalidPayload' && (!duplicate || name === 'blocks'))
      .map(([name, { summary, value }]) => [name, { summary, value: { message: exampleMessage(value), duplicate } }]),
  );
  return {
    description,
    headers: rateHeaders(status),
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: ref('Success') }, { properties: { duplicate: { const: duplicate } } }] },
        examples,
      },
    },
  };
}

function exampleMessage(sent: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'm_8f3a1c',
    channelId: 'deploys',
    body: sent.text ?? '',
    blocks: sent.blocks ?? [],
    author: { type: 'webhook', id: 'wh_2b7d9e', name: 'CI' },
    createdAt: '2026-01-01T12:00:00.000Z',
  };
}

function problem(status: number, codes: ProblemCode[]): unknown {
  const headers: Record<string, unknown> = { 'Cache-Control': header('Cache-Control', true), ...rateHeaders(status) };
  if (status === 405) headers.Allow = header('Allow', true);
  if (status === 429) headers['Retry-After'] = header('Retry-After', true);
  const examples: Record<string, unknown> = {};
  for (const code of codes) {
    examples[code] = { summary: PROBLEMS[code].title, value: exampleProblem(code) };
  }
  if (status === 400)
    examples.invalidPayload = {
      summary: REQUEST_EXAMPLES.invalidPayload!.summary,
      value: refusal(REQUEST_EXAMPLES.invalidPayload!.value, undefined),
    };
  return {
    description: codes.map((code) => `\`${code}\`: ${PROBLEMS[code].title}.`).join(' '),
    headers,
    content: {
      'application/problem+json': {
        schema: {
          allOf: [{ $ref: ref('Problem') }, { properties: { status: { const: status }, code: { enum: codes } } }],
        },
        examples,
      },
    },
  };
}

/** An example body of `code`; the validator's own answer where the validator gives it. */
function exampleProblem(code: ProblemCode): unknown {
  switch (code) {
    case 'invalid_payload':
      return refusal({ eventId: 'deploy-42' }, undefined);
    case 'key_mismatch':
      return refusal({ text: 'Deploy 42 finished.', eventId: 'deploy-42' }, 'deploy-43');
    case 'invalid_json':
      return problemResponse(code, 'The body is not valid JSON.', {
        errors: [{ pointer: '', message: 'must be valid JSON' }],
      }).body;
    case 'body_read_failed':
      return problemResponse(code, 'The request body ended before it was complete.', {
        errors: [{ pointer: '', message: 'ended before it was complete' }],
      }).body;
    case 'rate_limited':
      return rateLimitedResponse(
        { allowed: false, limit: DEFAULT_RATE_LIMIT, windowMs: DEFAULT_RATE_WINDOW_MS, remaining: 0, resetMs: 12_000 },
        false,
      ).body;
    default:
      return problemResponse(code).body;
  }
}

function refusal(payload: unknown, keyHeader: string | undefined): unknown {
  const refused = validatePayload(payload, keyHeader, false);
  if (refused.ok) throw new Error('a refusal example must be refused');
  return problemResponse(refused.code, refused.detail, { errors: refused.errors }).body;
}

function responseSchemas(): Record<string, JsonSchema> {
  return {
    Success: {
      type: 'object',
      required: ['message', 'duplicate'],
      properties: {
        message: {
          type: 'object',
          required: ['id', 'channelId', 'body', 'blocks', 'author', 'createdAt'],
          properties: {
            id: { type: 'string', description: 'Message identifier.' },
            channelId: { type: 'string' },
            body: { type: 'string', description: 'The request\'s `text`, as sent; `""` when absent.' },
            blocks: { type: 'array', description: "The request's `blocks`, as sent; `[]` when absent." },
            author: {
              type: 'object',
              required: ['type', 'id', 'name'],
              properties: {
                type: { const: 'webhook' },
                id: { type: 'string', description: 'The webhook identifier.' },
                name: { type: 'string', description: 'The name given at creation.' },
              },
            },
            createdAt: { type: 'string', format: 'date-time' },
          },
        },
        duplicate: {
          type: 'boolean',
          description:
            '`false` for a new message, `true` when the key was used before and the original message is returned.',
        },
      },
    },
    Problem: {
      type: 'object',
      description: 'An RFC 9457 problem body with a stable `code`.',
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: {
        type: { type: 'string', format: 'uri', description: 'A tag URI per code, stable and never dereferenced.' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', enum: Object.keys(PROBLEMS) },
        errors: {
          type: 'array',
          maxItems: MAX_ERRORS,
          description: `400 only: one entry per offending field (at most ${MAX_ERRORS}). A pointer segment longer than ${MAX_POINTER_TOKEN} UTF-16 units is cut there and ends with \`${TRUNCATION_MARK}\`.`,
          items: {
            type: 'object',
            required: ['message'],
            properties: {
              pointer: { type: 'string', description: 'A JSON Pointer into the body (`""` is the whole body).' },
              header: { type: 'string', description: 'The offending header, lower-case.' },
              message: { type: 'string' },
              hint: {
                type: 'string',
                description:
                  'Present when the refused field is a Slack construct this endpoint does not take (section `fields`, an `accessory`, an `image` or `actions` block, `attachments`, `username`, `channel`, …): what to send instead, ending with a link to the section of the differences guide that shows it. The one error of its cause: a section whose `fields` stand for its text is not also told that `text` is required.',
              },
            },
          },
        },
      },
    },
  };
}
