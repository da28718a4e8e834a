import type { HeaderValue, WebhookRequest } from '../http/http-types.js';

const UPPER_CASE = /[A-Z]/;

/**
 * Whether what `handle()` was given is a Fetch `Request` (of any realm or runtime): its headers are
 * a `Headers` object, which the core cannot read as a record, and its body a stream.
 */
export function isFetchRequest(request: unknown): boolean {
  if (typeof request !== 'object' || request === null) return false;
  const { headers, arrayBuffer } = request as { headers?: { get?: unknown }; arrayBuffer?: unknown };
  return typeof arrayBuffer === 'function' && typeof headers?.get === 'function';
}

/**
 * The request with its header names in lower case, as the core reads them: a request written by
 * hand may say `Content-Type`. The request itself when they already are (what every adapter gives);
 * of two names that differ only in case, the lower-case one wins.
 */
export function withLowerCaseHeaders(request: WebhookRequest): WebhookRequest {
  const { headers } = request;
  if (typeof headers !== 'object' || headers === null) return request;
  let mixed = false;
  for (const name in headers) {
    if (UPPER_CASE.test(name)) {
      mixed = true;
      break;
    }
  }
  if (!mixed) return request;
  const lower: Record<string, HeaderValue> = {};
  for (const name in headers) {
    const key = name.toLowerCase();
    if (key === name || !(key in lower)) lower[key] = headers[name];
  }
  return { ...request, headers: lower };
}
