import { DEFAULT_BODY_TIMEOUT_MS } from '../adapter-kit/create-webhook-adapter.js';
import { managementAdapter } from '../adapter-kit/create-management-adapter.js';
import { fetchBinding, toFetchResponse } from '../adapter-kit/fetch-binding.js';
import { managementProblem } from './management-problems.js';
import type { ManagementApi } from './management-types.js';

/**
 * The management API as a Fetch handler, over Web standards only: the `Request` is read and
 * answered as the Fetch adapter does (capped, within 10 s), and goes to `authenticate` as it is. A
 * path outside the API's `basePath` is a 404 problem.
 */
export function createManagementFetch(serve: ManagementApi<Request>['serve']): (request: Request) => Promise<Response> {
  const adapter = managementAdapter({ serve }, fetchBinding(), DEFAULT_BODY_TIMEOUT_MS);
  return async (request) => adapter(request, undefined) ?? toFetchResponse(managementProblem('not_found'));
}
