import { fn, port, required, rule } from '../arguments/argument-rules.js';
import { checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { systemClock } from '../clock.js';
import { ChannelWebhookError, isChannelWebhookError } from '../errors.js';
import { isJsonContentType } from '../http/content-type.js';
import type { HeaderValue } from '../http/http-types.js';
import type { WebhookResponse } from '../http/http-types.js';
import type { Actor } from '../lifecycle/create-webhook-manager.js';
import { createConsoleErrorLog } from '../reporting/console-error-log.js';
import { channelRoutes } from './channel-routes.js';
import { isCrossSite } from './cross-site.js';
import { createManagementFetch } from './management-fetch.js';
import { managementAnswer, managementProblem, type ManagementProblemCode } from './management-problems.js';
import type {
  ManagementApi,
  ManagementApiOptions,
  ManagementErrorContext,
  ManagementRequest,
} from './management-types.js';
import { emptyBody } from './management-schemas.js';
import { postRoutes } from './post-routes.js';
import { readJsonBody } from './read-json-body.js';
import { matchRoute, type Route } from './route.js';
import { testMessageRoute } from './test-message-route.js';
import { webhookRoutes } from './webhook-routes.js';
import { compile, type Checker } from '../validation/compile.js';

/** Every route of the API, as the OpenAPI document lists them. */
export const MANAGEMENT_ROUTES: readonly Route[] = [
  ...channelRoutes,
  ...webhookRoutes,
  ...postRoutes,
  testMessageRoute,
];
const BODY_CHECKERS = new Map<Route, Checker>(
  MANAGEMENT_ROUTES.filter((route) => route.body !== undefined).map((route) => [route, compile(route.body!)]),
);
const ROLES = new Set(['owner', 'admin', 'member']);

const OPTIONS: OptionsShape = {
  manager: required(
    port(
      'a WebhookManager',
      ['create', 'update', 'rotate', 'revoke', 'get', 'list', 'history'],
      'Pass createWebhookManager({ store, baseUrl }).',
    ),
  ),
  authenticate: required(
    fn(
      'a function (request) => { userId, role } | null',
      "Return the signed-in user from your app's session, or null.",
    ),
  ),
  basePath: rule(
    "'' or a path starting with '/', without a trailing slash, '?' or '#'",
    (value) => typeof value === 'string' && /^(\/[^/?#\s]+)*$/.test(value),
  ),
  trustedOrigins: rule(
    "an array of origins ('https://admin.example.com')",
    (value) => Array.isArray(value) && value.every((origin) => typeof origin === 'string' && isOrigin(origin)),
  ),
  onError: fn('a function (error, context) => void'),
  handle: fn('a WebhookHandler, from createWebhookHandler({ store })'),
};

/**
 * Creates the management API: the webhook lifecycle of the manager behind the app's own sign-in,
 * for the app's front end. Routes, relative to where the app mounts it (see `basePath`), JSON in
 * and out:
 *
 * - `GET /channels/{channelId}/webhooks` → 200 `{ webhooks }` (never a secret or a URL);
 * - `POST /channels/{channelId}/webhooks` `{ name, description?, avatarUrl? }` → 201 `{ webhook, url }`;
 * - `GET /webhooks/{webhookId}` → 200 `{ webhook }`;
 * - `PATCH /webhooks/{webhookId}` `{ description?, avatarUrl? }` → 200 `{ webhook }` (no rename, no move);
 * - `POST /webhooks/{webhookId}/rotate` → 200 `{ webhook, url }`; `POST /webhooks/{webhookId}/revoke` → 200 `{ webhook }`;
 * - `GET /webhooks/{webhookId}/posts?limit=` → 200 `{ posts }`, the history (501 `history_unavailable` without one);
 * - `POST /webhooks/{webhookId}/test` `{ url, text }` → 200 `{ status, body }`, what the endpoint answered a
 *   test message posted with that URL (501 `test_unavailable` without {@link ManagementApiOptions.handle}).
 *
 * Checks, in order: the route (404 `not_found`, 405 with `Allow`), a cross-site browser request
 * (403 `cross_site_request`, see {@link ManagementApiOptions.trustedOrigins}), for a write the
 * media type (415; rotate and revoke also take a bare POST, no body and no type), the sign-in
 * (`authenticate` returned `null`: 401 `unauthenticated`), the body (413, 400), then the manager:
 * its error codes are the problem codes, and a channel or webhook the actor may not manage is a
 * 404, exactly as one that does not exist. Every answer is
 * `Cache-Control: no-store`; only create and rotate hold the URL, and no error and no `onError`
 * call ever does. Bad options throw `invalid_argument`.
 *
 * @param options - see {@link ManagementApiOptions}.
 * @example
 * ```ts
 * import { createMemoryStore, createWebhookManager } from 'channel-webhooks';
 * import { createManagementApi } from 'channel-webhooks/manage';
 *
 * const store = createMemoryStore();
 * const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
 * const api = createManagementApi({
 *   manager,
 *   authenticate: (request) => (request.headers.get('authorization') === 'Bearer demo' ? { userId: 'u1', role: 'admin' } : null),
 *   basePath: '/api/manage',
 * });
 * export default { fetch: api.fetch }; // Bun, Deno, Cloudflare Workers
 * ```
 */
export function createManagementApi<Req = Request>(options: ManagementApiOptions<Req>): ManagementApi<Req> {
  checkOptions('createManagementApi', options, OPTIONS);
  const { manager, authenticate, handle } = options;
  const basePath = options.basePath ?? '';
  const trusted = new Set(options.trustedOrigins ?? []);
  const onError = options.onError ?? createConsoleErrorLog(systemClock, 'createManagementApi');

  const report = (error: unknown, context: ManagementErrorContext): void => {
    try {
      onError(error, context);
    } catch {
      // A failing error hook must not turn an answer into a crash.
    }
  };

  async function answer(
    request: ManagementRequest,
    native: Req,
    path: string,
    query: URLSearchParams,
  ): Promise<WebhookResponse> {
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
    const matched = matchRoute(MANAGEMENT_ROUTES, method, path);
    if (matched === null) return managementProblem('not_found');
    if ('allowed' in matched)
      return managementProblem('method_not_allowed', undefined, { headers: { allow: matched.allowed.join(', ') } });
    const { route, params } = matched;
    const where = `${route.method} ${route.path}`;
    if (isCrossSite(request.headers, request.url, trusted)) return managementProblem('cross_site_request');
    const checker = BODY_CHECKERS.get(route);
    // Rotate and revoke take nothing: a bare POST (curl -X POST, fetch without a body) sends no type.
    const untyped = route.body === emptyBody && isBareRequest(request.headers);
    if (checker !== undefined && !untyped && !isJsonContentType(request.headers['content-type']))
      return managementProblem('unsupported_media_type');

    let actor: Actor | null;
    try {
      actor = await authenticate(native);
    } catch (error) {
      report(error, { stage: 'authenticate', route: where });
      return managementProblem('internal_error');
    }
    if (actor === null) return managementProblem('unauthenticated');
    if (!isActor(actor)) {
      report(
        new ChannelWebhookError(
          'misconfigured',
          `authenticate returned ${shapeOf(actor)}, ${whatIsWrong(actor)}; return null or { userId: string, role: 'owner' | 'admin' | 'member' }`,
        ),
        { stage: 'authenticate', route: where },
      );
      return managementProblem('misconfigured');
    }

    let body: Record<string, unknown> = {};
    if (checker !== undefined) {
      const read = await readJsonBody(request, checker, route.refusals, untyped);
      if (!read.ok) {
        if (read.failure !== undefined) report(read.failure, { stage: 'body', route: where });
        return read.response;
      }
      body = read.value;
    }

    try {
      const result = await route.run({ manager, actor, params, query, body, handle });
      return managementAnswer(result.status, result.body);
    } catch (error) {
      return refusal(error, route, where, actor);
    }
  }

  /** The answer to an error from the manager: its code, or, for one the actor may not learn of, a 404. */
  function refusal(error: unknown, route: Route, where: string, actor: Actor): WebhookResponse {
    const code = isChannelWebhookError(error) ? error.code : undefined;
    // An organization owner or admin may manage every channel, so a channel missing for one is the
    // app's set-up (its channels not in the store), which its 404 alone would hide.
    if (code === 'channel_not_found' && actor.role !== 'member')
      report(
        new ChannelWebhookError(
          'channel_not_found',
          `${(error as ChannelWebhookError).message}: the store has no such channel, so even an organization ${actor.role} is answered 404; give the store the app's channels (the channels option of the SQL stores) or putChannel() it`,
          { cause: error },
        ),
        { stage: 'manager', route: where },
      );
    const notFound: ManagementProblemCode = route.subject === 'channel' ? 'channel_not_found' : 'webhook_not_found';
    switch (code) {
      case 'forbidden':
      case 'channel_not_found':
      case 'webhook_not_found':
        return managementProblem(code === 'webhook_not_found' ? 'webhook_not_found' : notFound);
      case 'channel_archived':
      case 'webhook_revoked':
      case 'history_unavailable':
      case 'test_unavailable':
        return managementProblem(code);
      case 'invalid_name':
      case 'invalid_description':
      case 'invalid_avatar_url': {
        const { message } = error as ChannelWebhookError;
        return managementProblem(code, message, { errors: [{ pointer: FIELD_OF[code], message }] });
      }
      case 'invalid_argument':
        return managementProblem('invalid_argument', (error as ChannelWebhookError).message);
      case 'store_failed':
      case 'store_timeout':
        report(error, { stage: 'manager', route: where });
        return managementProblem(code);
      default:
        report(error, { stage: 'manager', route: where });
        return managementProblem('internal_error');
    }
  }

  const serve: ManagementApi<Req>['serve'] = (request, native) => {
    const target = relativeTarget(request.url, basePath);
    if (target === null) return null;
    return answer(request, native, target.path, target.query).catch((error: unknown) => {
      report(error, { stage: 'handler' });
      return managementProblem('internal_error');
    });
  };
  return { serve, fetch: createManagementFetch(serve as ManagementApi<Request>['serve']) };
}

const FIELD_OF = {
  invalid_name: '/name',
  invalid_description: '/description',
  invalid_avatar_url: '/avatarUrl',
} as const;

/** The path relative to `basePath` and the query of `url` (a path or an absolute URL), or `null` when it is outside. */
function relativeTarget(url: string, basePath: string): { path: string; query: URLSearchParams } | null {
  let path = url;
  let query = '';
  if (!url.startsWith('/')) {
    try {
      const parsed = new URL(url);
      path = parsed.pathname;
      query = parsed.search;
    } catch {
      return null;
    }
  } else {
    const mark = url.search(/[?#]/);
    if (mark !== -1) {
      query = url[mark] === '?' ? url.slice(mark).split('#')[0]! : '';
      path = url.slice(0, mark);
    }
  }
  if (basePath !== '') {
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return null;
    path = path.slice(basePath.length);
  }
  return { path, query: new URLSearchParams(query) };
}

function isActor(value: unknown): value is Actor {
  const actor = value as Partial<Actor> | null;
  return (
    typeof actor === 'object' &&
    actor !== null &&
    typeof actor.userId === 'string' &&
    actor.userId !== '' &&
    ROLES.has(actor.role as string)
  );
}

/** A request with no `Content-Type` whose headers announce no body: no `Transfer-Encoding`, no `Content-Length` but 0. */
function isBareRequest(headers: Readonly<Record<string, HeaderValue>>): boolean {
  const length = headers['content-length'];
  return (
    headers['content-type'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    (length === undefined || (typeof length === 'string' && length.trim() === '0'))
  );
}

/**
 * What `authenticate` gave, for the log: its type, or an object's keys and their types (at most
 * eight), never a value, which may be a token or a person's data.
 */
function shapeOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object' || value === null) return `a ${typeof value}`;
  const keys = Object.keys(value);
  const fields = keys
    .slice(0, 8)
    .map(
      (key) => `${key.length > 40 ? `${key.slice(0, 40)}…` : key}: ${typeOf((value as Record<string, unknown>)[key])}`,
    );
  return `{ ${[...fields, ...(keys.length > 8 ? ['…'] : [])].join(', ')} }`;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Which of an actor's two fields is wrong. A role is shown only when it is a role in another case
 * (`'Admin'`): any other string may be something the app never meant to log.
 */
function whatIsWrong(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const { userId, role } = value as Record<string, unknown>;
  const wrong: string[] = [];
  if (userId === undefined) wrong.push('userId is missing');
  else if (typeof userId !== 'string' || userId === '') wrong.push('userId is not a non-empty string');
  const roleIsRight = ROLES.has(role as string);
  if (role === undefined) wrong.push('role is missing');
  else if (!roleIsRight && typeof role === 'string' && ROLES.has(role.toLowerCase()))
    wrong.push(`role '${role}' is not lower case`);
  else if (!roleIsRight) wrong.push('role is not one of the three');
  return wrong.join(' and ');
}

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}
