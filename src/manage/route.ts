import type { TObject, TSchema } from '@sinclair/typebox';
import type { WebhookHandler } from '../handler/handler-types.js';
import type { Actor, WebhookManager } from '../lifecycle/create-webhook-manager.js';
import type { ManagementProblemCode } from './management-problems.js';

/** What a route is given: the signed-in actor, the path's parameters, the query and the checked body. */
export interface RouteContext {
  manager: WebhookManager;
  actor: Actor;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The body, checked against the route's `body` schema; `{}` for a read. */
  body: Record<string, unknown>;
  /** The endpoint's handler, for the test message; absent when the app gave none. */
  handle?: WebhookHandler;
}

/** What a route answers: a status and a JSON body. A refusal is the manager's `ChannelWebhookError`. */
export interface RouteResult {
  status: number;
  body: unknown;
}

/**
 * One route of the management API: what it does, and what it takes and answers, which the API
 * checks and the OpenAPI document publishes.
 */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH';
  /** The path relative to the API, parameters in braces: `/webhooks/{webhookId}/rotate`. */
  path: string;
  operationId: string;
  summary: string;
  /**
   * What a 404 names when the actor may not manage what the path names: the channel's, or the
   * webhook's, as if it did not exist.
   */
  subject: 'channel' | 'webhook';
  /** The body's shape, for a write. */
  body?: TObject;
  /** What to say of a field the body must not hold, by its pointer, instead of "is not an allowed property". */
  refusals?: Readonly<Record<string, string>>;
  /** The query parameters it reads, each with what it means. */
  query?: Readonly<Record<string, string>>;
  /** The status and the shape of a success. */
  status: number;
  answer: TSchema;
  /** The problem codes of this route's own, besides those of every route (the sign-in's, the store's) and of every write (the body's). */
  codes: readonly ManagementProblemCode[];
  run(context: RouteContext): Promise<RouteResult>;
}

/** What a path and method come to: a route and its parameters, the methods the path takes, or nothing. */
export type RouteMatch = { route: Route; params: Record<string, string> } | { allowed: readonly string[] } | null;

/**
 * Finds the route of `method` and `path` (relative to the API, no query). A parameter is one
 * non-empty segment, percent-decoded; a segment that does not decode matches nothing.
 */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const segments = path.split('/');
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path.split('/'), segments);
    if (params === null) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return allowed.length === 0 ? null : { allowed };
}

function matchPath(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    const segment = segments[i]!;
    if (!part.startsWith('{')) {
      if (part !== segment) return null;
      continue;
    }
    if (segment === '') return null;
    try {
      params[part.slice(1, -1)] = decodeURIComponent(segment);
    } catch {
      return null;
    }
  }
  return params;
}
