import type { OptionsShape } from '../arguments/check-options.js';
import type { HeaderValue, RawBody, WebhookResponse } from '../http/http-types.js';
import type { MaybePromise } from '../waiting/maybe-promise.js';

/**
 * What a framework adapter gives {@link createWebhookAdapter}: how to read a request of its
 * framework (its URL, method, headers and body) and how to write an answer. `Req` is what the
 * framework hands a middleware for the request, `Res` what it hands for the answer (the same object
 * for frameworks with one context, nothing for a Fetch handler), and `Out` what writing returns.
 *
 * @example
 * ```ts
 * const binding: WebhookAdapterBinding<Request, undefined, Response> = {
 *   url: (request) => request.url,
 *   method: (request) => request.method,
 *   headers: (request, names) => Object.fromEntries((names ?? [...request.headers.keys()]).map((name) => [name, request.headers.get(name) ?? undefined])),
 *   readBody: async (request) => new Uint8Array(await request.arrayBuffer()),
 *   write: (_, { status, headers, body }) => new Response(JSON.stringify(body), { status, headers }),
 * };
 * ```
 */
export interface WebhookAdapterBinding<Req, Res = undefined, Out = void> {
  /** The adapter's factory, which every argument error starts with. Default `'createWebhookAdapter'`. */
  readonly name?: string;
  /**
   * The adapter's own options besides `bodyTimeoutMs`, with their rules: this package's adapters
   * declare theirs here (`fallback`, `onError`, `redactLogs`). Default: none, and an unknown option
   * is refused.
   */
  readonly options?: OptionsShape;
  /**
   * The request's URL as the framework routed it (a path, with or without its query, or an absolute
   * URL): the kit answers it when its path ends in `/hooks/channels/{webhook_id}/{secret}`.
   */
  url(req: Req): string;
  /**
   * The URL before any mount prefix was stripped, as a handler the app wrote around the library's
   * sees it. Default: `url`.
   */
  originalUrl?(req: Req): string;
  /** The request's method, in any case. */
  method(req: Req): string | undefined;
  /**
   * The request's headers by lower-case name: those of `names` (the only ones the handler reads),
   * or every header when `names` is `null` (a handler the app wrote around the library's may read
   * any). A header sent more than once may come as a list of its values.
   */
  headers(req: Req, names: readonly string[] | null): Readonly<Record<string, HeaderValue>>;
  /**
   * Reads the body, as a {@link BodyReader} does, within `limits`. Called at most once, and only
   * for a post that passed the method, URL, Content-Type and rate-limit checks.
   */
  readBody(req: Req, limits: BodyLimits): RawBody | Promise<RawBody>;
  /** Writes the handler's answer: status, headers (a JSON content type where it names none) and the body as JSON. */
  write(res: Res, response: WebhookResponse, req: Req): Out;
}

/**
 * What a body reader is given: the cap, what the request declared, and the deadline. The rule a
 * reader keeps is {@link BodyReader}'s.
 *
 * @example
 * ```ts
 * const limits: BodyLimits = { maxBytes: 65_536, declaredLength: 120, timeoutMs: 10_000 };
 * ```
 */
export interface BodyLimits {
  /** The most the handler takes, in bytes. */
  readonly maxBytes: number;
  /**
   * The request's `Content-Length` when it can be trusted (well formed, and no `Transfer-Encoding`
   * beside it), else `null`. The handler has refused a larger one than `maxBytes` already.
   */
  readonly declaredLength: number | null;
  /** How long the whole body may take to arrive, in ms from when reading starts. */
  readonly timeoutMs: number;
}

/**
 * The options every framework adapter takes.
 *
 * @example
 * ```ts
 * const options: WebhookAdapterOptions = { bodyTimeoutMs: 5_000 };
 * ```
 */
export interface WebhookAdapterOptions {
  /**
   * How long the whole request body may take to arrive, in ms, counted from when the adapter starts
   * reading it. A body still incomplete then is answered 400 with code `body_read_failed` (and
   * reported to `onError`). Default 10,000.
   */
  bodyTimeoutMs?: number;
}

/**
 * What {@link createWebhookAdapter} gives an adapter: one call per request. It answers a webhook
 * post, returning what the binding's `write` returned, as a value when nothing had to wait and as a
 * promise otherwise; for a request whose URL is no webhook URL it does nothing and returns `null`,
 * so that the adapter passes the request on. A promise rejects only when `write` fails.
 *
 * @example
 * ```ts
 * const answered = serve(req, res);
 * if (answered === null) return next();
 * ```
 */
export type WebhookAdapter<Req, Res = undefined, Out = void> = (req: Req, res: Res) => MaybePromise<Out> | null;
