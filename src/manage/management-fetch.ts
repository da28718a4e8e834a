import { DEFAULT_BODY_TIMEOUT_MS } from '../adapter-kit/create-webhook-adapter.js';
import { readFetchBody } from '../adapter-kit/read-fetch-body.js';
import type { WebhookResponse } from '../http/http-types.js';
import { managementProblem } from './management-problems.js';
import type { ManagementApi } from './management-types.js';

/**
 * The management API as a Fetch handler, over Web standards only: the `Request` is read as the
 * Fetch adapter reads one (capped, within 10 s), and goes to `authenticate` as it is. A path outside
 * the API's `basePath` is a 404 problem.
 */
export function createManagementFetch(serve: ManagementApi<Request>['serve']): (request: Request) => Promise<Response> {
  return async (request) => {
    const answer = serve(
      {
        method: request.method,
        url: request.url,
        headers: headersOf(request.headers),
        body: (maxBytes, declaredLength = null) =>
          readFetchBody(request, { maxBytes, declaredLength, timeoutMs: DEFAULT_BODY_TIMEOUT_MS }),
      },
      request,
    );
    return toResponse(answer === null ? managementProblem('not_found') : await answer);
  };
}

function headersOf(headers: Headers): Record<string, string> {
  const all: Record<string, string> = {};
  headers.forEach((value, name) => {
    all[name] = value;
  });
  return all;
}

function toResponse({ status, headers, body }: WebhookResponse): Response {
  return new Response(JSON.stringify(body), { status, headers });
}
