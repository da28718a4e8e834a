import type { WebhookResponse } from '../../../src/adapter-kit/index.js';

/** A fixed answer of the handler as a Fetch `Response`. */
export function problemResponse(response: WebhookResponse): Response {
  return new Response(JSON.stringify(response.body), { status: response.status, headers: response.headers });
}
