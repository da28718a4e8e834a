import type { BodyReader, HeaderValue, WebhookResponse } from '../http/http-types.js';
import type { WebhookHandler } from '../handler/handler-types.js';
import type { Actor, WebhookManager } from '../lifecycle/create-webhook-manager.js';
import type { ErrorContext } from '../reporting/error-context.js';

/**
 * Options of {@link createManagementApi}. `Req` is the request as the stack the API is mounted on
 * hands it to `authenticate`: a Web `Request` for `fetch`, Express's `req`, Koa's `ctx`, Fastify's
 * `request`, node:http's `IncomingMessage`.
 *
 * @example
 * ```ts
 * const options: ManagementApiOptions = {
 *   manager,
 *   authenticate: async (request) => sessions.actorOf(request.headers.get('cookie')),
 *   basePath: '/api/manage',
 * };
 * ```
 */
export interface ManagementApiOptions<Req = Request> {
  /** The webhook manager every route calls, with the actor `authenticate` gave. */
  manager: WebhookManager;
  /**
   * The app's sign-in: the acting user `{ userId, role }` (`role` their organization role, `'owner'`,
   * `'admin'` or `'member'`) from the app's own session or token, or `null` for a signed-out caller
   * (answered 401). Called once per request that reached a route, before its body is read: it must
   * not read the body itself. A throw or rejection is a 500, reported to `onError`.
   */
  authenticate(request: Req): Actor | null | Promise<Actor | null>;
  /**
   * The path the API is served under, as its requests arrive: `''` (default) when the framework
   * hands it paths relative to its mount (Express `app.use('/api/manage', …)`, Fastify `register(…,
   * { prefix })`, Hono `app.mount`, koa-mount), else the prefix to strip (`'/api/manage'` for
   * `fetch` on Bun, Deno, Workers, or a node:http listener). A request outside it is not the API's:
   * passed on by the middleware, 404 from `fetch`.
   */
  basePath?: string;
  /**
   * Origins, besides the API's own, whose browser requests are answered (`'https://admin.example.com'`).
   * Default none: a cross-site request is refused with 403. A front end on another origin also
   * needs CORS, which the app answers itself, before the API.
   */
  trustedOrigins?: readonly string[];
  /**
   * Called for what the caller only sees as a 500: `authenticate` failing or giving something that
   * is not an actor, the store failing under the manager, a body parser that ran first. Never given
   * a webhook URL or a secret. Default: one line on `console.error` per failure, saying what
   * `authenticate` gave when it gave no actor; identical failures at most one line every 10 s.
   */
  onError?: (error: unknown, context: ManagementErrorContext) => void;
  /**
   * The endpoint's handler (`createWebhookHandler`), for `POST /webhooks/{webhookId}/test`: the
   * settings element never requests the secret URL itself (it would stay in the page's Resource
   * Timing entries, and a URL of another origin answers no CORS preflight), so the API posts its
   * test message in process. Without it that route answers 501 `test_unavailable`.
   */
  handle?: WebhookHandler;
}

/**
 * What the management API's `onError` learns besides the error: the shape every `onError` gets
 * ({@link ErrorContext}), with the stage and, when one matched, the route.
 *
 * @example
 * ```ts
 * onError: (error, { stage, route }) => log.error({ err: error, stage, route }, 'management API failure'),
 * ```
 */
export type ManagementErrorContext = ErrorContext<'authenticate' | 'manager' | 'body' | 'handler'>;

/**
 * A request to the management API as an adapter hands it over (see `createManagementAdapter`).
 *
 * @example
 * ```ts
 * const request: ManagementRequest = { method: 'GET', url: '/channels/general/webhooks', headers: { cookie }, body: () => null };
 * ```
 */
export interface ManagementRequest {
  /** HTTP method, any case. */
  method: string;
  /** Path and query, or an absolute URL, as the request reached the API (see `basePath`). */
  url: string;
  /** Headers by lower-case name. */
  headers: Readonly<Record<string, HeaderValue>>;
  /** Reads the body, keeping the rule of {@link BodyReader}; called only for a write that got that far. */
  body: BodyReader;
}

/**
 * The management API: the routes of the webhook lifecycle, behind the app's sign-in, as a Fetch
 * handler and as the function every framework mount calls.
 *
 * @example
 * ```ts
 * const api: ManagementApi = createManagementApi({ manager, authenticate, basePath: '/api/manage' });
 * Deno.serve((request) => api.fetch(request));
 * ```
 */
export interface ManagementApi<Req = Request> {
  /**
   * Answers a Web `Request` (Bun, Deno, Cloudflare Workers, Hono's `app.mount`); `authenticate` is
   * given the `Request`. A path outside `basePath` gets a 404 problem. Never rejects.
   */
  fetch(request: Request): Promise<Response>;
  /**
   * Answers a request an adapter normalized, `native` being the framework's own request (given to
   * `authenticate`); `null` when its path is outside `basePath`, for the adapter to pass it on.
   * The promise never rejects.
   */
  serve(request: ManagementRequest, native: Req): Promise<WebhookResponse> | null;
}
