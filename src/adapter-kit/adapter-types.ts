import type { OptionsShape } from '../arguments/check-options.js';
import type { HeaderValue, RawBody, WebhookResponse } from '../http/http-types.js';
import type { MaybePromise } from '../waiting/maybe-promise.js';

/**
 * What a framework adapter gives {@link createWebhookAdapter}: how its framework reads a request and
 * writes an answer. `Req` is the request as the framework hands it, `Res` the answer's side (the same
 * object for one context, nothing for Fetch), `Out` what writing returns.
 *
 * @example
 * ```ts
 * const binding = { ...nodeRequestParts((req) => req), write: writeNodeResponse };
 * ```
 */
export interface WebhookAdapterBinding<Req, Res = undefined, Out = void> {
  /** The adapter's factory, which every argument error starts with. Default `'createWebhookAdapter'`. */
  readonly name?: string;
  /** The adapter's own options besides `bodyTimeoutMs`, with their rules. Default: none. */
  readonly options?: OptionsShape;
  /** The URL as the framework routed it: the kit answers it when its path ends in `/hooks/channels/{id}/{secret}`. */
  url(req: Req): string;
  /** The URL before any mount prefix was stripped, for the handler. Default: `url`. */
  originalUrl?(req: Req): string;
  /** The request's method, in any case. */
  method(req: Req): string | undefined;
  /** The headers by lower-case name: those of `names`, or every header when `names` is `null`. */
  headers(req: Req, names: readonly string[] | null): Readonly<Record<string, HeaderValue>>;
  /** Reads the body within `limits`, keeping the rule of {@link BodyReader}. */
  readBody(req: Req, limits: BodyLimits): RawBody | Promise<RawBody>;
  /** Writes the answer: its status, its headers (JSON where it names no type) and its body as JSON. */
  write(res: Res, response: WebhookResponse, req: Req): Out;
}

/**
 * What a body reader is given: the cap, the trusted length, and the deadline.
 *
 * @example
 * ```ts
 * const limits: BodyLimits = { maxBytes: 65_536, declaredLength: 120, timeoutMs: 10_000 };
 * ```
 */
export interface BodyLimits {
  /** The most the handler takes, in bytes. */
  readonly maxBytes: number;
  /** `Content-Length` when it can be trusted (no `Transfer-Encoding`), at most `maxBytes`; else `null`. */
  readonly declaredLength: number | null;
  /** How long the whole body may take, in ms from the start of reading. */
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
  /** How long the whole body may take, in ms from the start of reading; past it, 400 `body_read_failed`. Default 10,000. */
  bodyTimeoutMs?: number;
}

/**
 * What {@link createWebhookAdapter} gives an adapter: one call per request, returning what `write`
 * returned (a value when nothing had to wait, else a promise that rejects only if `write` fails), or
 * `null` for a URL that is no webhook URL: test for `null`, as `write` may return `undefined`.
 *
 * @example
 * ```ts
 * const answered = serve(req, res);
 * if (answered === null) return next();
 * ```
 */
export type WebhookAdapter<Req, Res = undefined, Out = void> = (req: Req, res: Res) => MaybePromise<Out> | null;
