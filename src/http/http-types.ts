/**
 * A header value as Node and most frameworks give it.
 *
 * @example
 * ```ts
 * const headers: Record<string, HeaderValue> = { 'content-type': 'application/json', 'x-forwarded-for': ['10.0.0.1', '10.0.0.2'] };
 * ```
 */
export type HeaderValue = string | string[] | undefined;

/**
 * The raw request body: bytes, a string, or nothing.
 *
 * @example
 * ```ts
 * const body: RawBody = new TextEncoder().encode('{"text":"hi"}');
 * ```
 */
export type RawBody = Uint8Array | string | null | undefined;

/**
 * Reads the request body. The handler calls it at most once, and only for a request that got past
 * the method, URL, Content-Type and rate-limit checks, so nothing is read for a request refused
 * before them. This is the body-size rule every reader keeps:
 *
 * - Never buffer more than `maxBytes + 1` bytes: past that, stop reading and either return what is
 *   held (the handler answers 413) or reject with a `ChannelWebhookError` of code
 *   `payload_too_large`.
 * - `declaredLength` is the request's `Content-Length` when it can be trusted (the handler has
 *   refused one over `maxBytes` unread), else `null`: then only counting the bytes tells.
 * - A client that disconnects is a rejection with code `body_read_failed`; a body that does not
 *   arrive within the reader's own deadline, with code `body_read_timeout`.
 * - A body already in hand may be returned as it is, and a failure thrown: the handler then goes
 *   on without waiting.
 *
 * @example
 * ```ts
 * // Read a Web request's body, refusing more than the handler asks for:
 * const body: BodyReader = async (maxBytes) => {
 *   const bytes = new Uint8Array(await request.arrayBuffer());
 *   return bytes.byteLength > maxBytes ? bytes.subarray(0, maxBytes + 1) : bytes;
 * };
 * ```
 */
export type BodyReader = (maxBytes: number, declaredLength?: number | null) => RawBody | Promise<RawBody>;

/**
 * A request, normalized by an adapter (or built by hand in a test).
 *
 * @example
 * ```ts
 * const res = await handle({
 *   method: 'POST',
 *   url: '/hooks/channels/wh_123/s3cr3t',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ text: 'Deploy finished' }),
 * });
 * ```
 */
export interface WebhookRequest {
  /** HTTP method, any case. */
  method: string;
  /**
   * Path (with optional query) or absolute URL ending in `/hooks/channels/{webhook_id}/{secret}`;
   * any mount prefix before it is allowed.
   */
  url: string;
  /** Headers by name. Adapters give lower-case names; `handle()` also reads names in any case. */
  headers: Readonly<Record<string, HeaderValue>>;
  /** The body, or a function that reads it on demand (see {@link BodyReader}). */
  body?: RawBody | BodyReader;
}

/**
 * The answer to a {@link WebhookRequest}. `body` is JSON-serializable; headers have lower-case names.
 *
 * @example
 * ```ts
 * const { status, headers, body } = await handle(request);
 * res.writeHead(status, headers).end(JSON.stringify(body));
 * ```
 */
export interface WebhookResponse {
  status: number;
  /** This answer's own headers: an adapter may add to them. */
  headers: Record<string, string>;
  /** May be frozen (shared problem bodies, stored messages): copy it before changing anything. */
  body: unknown;
}
