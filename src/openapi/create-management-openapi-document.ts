import { rule } from '../arguments/argument-rules.js';
import { checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { MANAGEMENT_ROUTES } from '../manage/create-management-api.js';
import { MAX_MANAGEMENT_BODY_BYTES } from '../manage/read-json-body.js';
import { MANAGEMENT_PROBLEMS, type ManagementProblemCode } from '../manage/management-problems.js';
import {
  createWebhookBody,
  emptyBody,
  postListSchema,
  postRecordSchema,
  testMessageAnswerSchema,
  testMessageBody,
  updateWebhookBody,
  webhookAnswerSchema,
  webhookListSchema,
  webhookSchema,
  webhookWithUrlSchema,
} from '../manage/management-schemas.js';
import type { Route } from '../manage/route.js';
import type { OpenApiDocument } from './create-openapi-document.js';
import { ref, toJsonSchema, type JsonSchema } from './json-schema.js';

/**
 * Options of {@link createManagementOpenApiDocument}.
 *
 * @example
 * ```ts
 * const options: ManagementOpenApiOptions = { serverUrl: 'https://chat.example.com', basePath: '/api/manage' };
 * ```
 */
export interface ManagementOpenApiOptions {
  /** The server the API is served from, absolute http(s). Default `'https://chat.example.com'`. */
  serverUrl?: string;
  /** Where the app mounts the API, `''` or starting with `/`. Default `'/api/manage'`. */
  basePath?: string;
  /** The document's `info.title`. Default `'Webhook management'`. */
  title?: string;
}

// The problem codes of every route (the sign-in, the cross-site rule, the store) and of every write.
const EVERY_ROUTE: readonly ManagementProblemCode[] = [
  'cross_site_request',
  'unauthenticated',
  'store_failed',
  'store_timeout',
  'misconfigured',
  'internal_error',
];
const EVERY_WRITE: readonly ManagementProblemCode[] = [
  'unsupported_media_type',
  'payload_too_large',
  'invalid_json',
  'invalid_argument',
  'body_read_failed',
];

// Component names of the schemas the routes take and give.
const NAMES = new Map<unknown, string>([
  [createWebhookBody, 'CreateWebhook'],
  [updateWebhookBody, 'UpdateWebhook'],
  [emptyBody, 'Empty'],
  [webhookSchema, 'Webhook'],
  [webhookWithUrlSchema, 'WebhookWithUrl'],
  [webhookAnswerSchema, 'WebhookAnswer'],
  [webhookListSchema, 'WebhookList'],
  [postRecordSchema, 'PostRecord'],
  [postListSchema, 'PostList'],
  [testMessageBody, 'TestMessage'],
  [testMessageAnswerSchema, 'TestMessageAnswer'],
]);

const OPTIONS: OptionsShape = {
  serverUrl: rule(
    'an absolute http(s) URL without a trailing slash',
    (value) => typeof value === 'string' && /^https?:\/\/[^\s/]+(\/\S*)?$/i.test(value) && !value.endsWith('/'),
  ),
  basePath: rule(
    "'' or a path starting with '/', without a trailing slash, spaces, braces, '?' or '#'",
    (value) => typeof value === 'string' && /^(\/[^\s/{}?#]+)*$/.test(value),
  ),
  title: rule('a non-blank string', (value) => typeof value === 'string' && value.trim().length > 0),
};

/**
 * The OpenAPI 3.1 document of the management API (`channel-webhooks/manage`), built from the very
 * route table and TypeBox schemas the API runs on: every route with its parameters, the body it
 * takes (the shape the API checks; each field's rule in `description`), its success, and every
 * problem status it can answer with the codes under it. Each answer is `Cache-Control: no-store`.
 *
 * @param options - `serverUrl` (default `'https://chat.example.com'`), `basePath` (default
 *   `'/api/manage'`), `title` (default `'Webhook management'`). A bad option throws a
 *   `ChannelWebhookError` with code `invalid_argument`.
 * @example
 * ```ts
 * import { createManagementOpenApiDocument } from 'channel-webhooks/openapi';
 *
 * app.get('/api/manage/openapi.json', (req, res) => res.json(createManagementOpenApiDocument({ basePath: '/api/manage' })));
 * ```
 */
export function createManagementOpenApiDocument(options: ManagementOpenApiOptions = {}): OpenApiDocument {
  checkOptions('createManagementOpenApiDocument', options, OPTIONS);
  const { serverUrl = 'https://chat.example.com', basePath = '/api/manage', title = 'Webhook management' } = options;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of MANAGEMENT_ROUTES) {
    const path = `${basePath}${route.path}`;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title,
      version: '1',
      description:
        "The webhook lifecycle behind the app's own sign-in (a session cookie or a token: the app's `authenticate` decides), for the app's front end. Organization owners and admins, and a channel's owner, manage its webhooks; to anyone else a channel or webhook they may not manage is answered as one that does not exist. Cross-site browser requests are refused. Only the answers of create and rotate hold a webhook's secret URL.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(
          [...NAMES].map(([schema, name]) => [name, component(toJsonSchema(schema as never), name)]),
        ),
        ManagementProblem: problemSchema(),
      },
    },
  };
}

function operationOf(route: Route): Record<string, unknown> {
  const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'channelId' ? "The channel's id, as the app names it." : 'The webhook id.',
    schema: { type: 'string', minLength: 1 },
  }));
  for (const [name, description] of Object.entries(route.query ?? {})) {
    parameters.push({ name, in: 'query', required: false, description, schema: { type: 'string', minLength: 1 } });
  }
  const codes = [...EVERY_ROUTE, ...(route.body === undefined ? [] : EVERY_WRITE), ...route.codes];
  const responses: Record<string, unknown> = {
    [String(route.status)]: {
      description: route.summary,
      headers: { 'Cache-Control': CACHE_CONTROL },
      content: { 'application/json': { schema: { $ref: ref(NAMES.get(route.answer)!) } } },
    },
  };
  for (const [status, under] of byStatus(codes)) responses[String(status)] = problemResponse(status, under);
  return {
    operationId: route.operationId,
    summary: route.summary,
    parameters,
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: false,
            description: `JSON, \`Content-Type: application/json\`, at most ${MAX_MANAGEMENT_BODY_BYTES.toLocaleString('en-US')} bytes.`,
            content: { 'application/json': { schema: { $ref: ref(NAMES.get(route.body)!) } } },
          },
        }),
    responses,
  };
}

const CACHE_CONTROL = {
  description: 'Never stored: an answer may hold a secret URL, and each depends on who asks.',
  required: true,
  schema: { const: 'no-store' },
};

function byStatus(codes: readonly ManagementProblemCode[]): Map<number, ManagementProblemCode[]> {
  const statuses = new Map<number, ManagementProblemCode[]>();
  for (const code of new Set(codes)) {
    const { status } = MANAGEMENT_PROBLEMS[code];
    statuses.set(status, [...(statuses.get(status) ?? []), code]);
  }
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

function problemResponse(status: number, codes: readonly ManagementProblemCode[]): unknown {
  return {
    description: codes.map((code) => `\`${code}\`: ${MANAGEMENT_PROBLEMS[code].title}.`).join(' '),
    headers: { 'Cache-Control': CACHE_CONTROL },
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            { $ref: ref('ManagementProblem') },
            { properties: { status: { const: status }, code: { enum: codes } } },
          ],
        },
      },
    },
  };
}

function problemSchema(): JsonSchema {
  return {
    type: 'object',
    description: 'An RFC 9457 problem body with a stable `code`.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    additionalProperties: false,
    properties: {
      type: { type: 'string', format: 'uri', description: 'A tag URI per code, stable and never dereferenced.' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', enum: Object.keys(MANAGEMENT_PROBLEMS) },
      errors: {
        type: 'array',
        description: 'For a 400 of a field: one entry per offending field.',
        items: {
          type: 'object',
          required: ['pointer', 'message'],
          additionalProperties: false,
          properties: {
            pointer: { type: 'string', description: 'A JSON Pointer into the request body.' },
            message: { type: 'string' },
          },
        },
      },
    },
  };
}

// A component made of others refers to them by name rather than repeating them.
function component(schema: JsonSchema, self: string): JsonSchema {
  const others = [...NAMES]
    .filter(([, name]) => name !== self)
    .map(([other, name]) => [JSON.stringify(toJsonSchema(other as never)), name] as const);
  const walk = (value: unknown, root: boolean): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, false));
    const text = JSON.stringify(value);
    const named = root ? undefined : others.find(([other]) => other === text);
    if (named !== undefined) return { $ref: ref(named[1]) };
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner, false)]));
  };
  return walk(schema, true) as JsonSchema;
}
