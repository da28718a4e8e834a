// The element's calls to the management API (channel-webhooks/manage), and its answers turned into
// values or one kind of failure the element can put into words.
import type { FieldError, SettingsPost, SettingsWebhook } from './element-types.js';

/**
 * Why a call failed, in the terms the element explains to its reader: `signed_out` (401),
 * `not_allowed` (the channel does not exist or the reader may not manage it: the API does not say
 * which), `webhook_gone` (the webhook does not exist, may not be managed, or was revoked meanwhile),
 * `refused` (403: the API answers its own site only), `archived` (the channel is archived),
 * `invalid` (a field of the form, with the problem's errors), `unavailable` (the server keeps no
 * history), `test_unavailable` (the server cannot post a test message: its API was not given the
 * endpoint), `network` (no answer) and `server` (any other answer).
 */
export type FailureKind =
  | 'signed_out'
  | 'not_allowed'
  | 'webhook_gone'
  | 'refused'
  | 'archived'
  | 'invalid'
  | 'unavailable'
  | 'test_unavailable'
  | 'network'
  | 'server';

/** A failed call: its kind, and what the problem answer said. */
export class ManagementFailure extends Error {
  readonly kind: FailureKind;
  readonly status: number;
  readonly code: string | null;
  readonly errors: FieldError[];

  constructor(kind: FailureKind, status: number, code: string | null, detail: string, errors: FieldError[] = []) {
    super(detail);
    this.name = 'ManagementFailure';
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.errors = errors;
  }
}

/** A webhook with its URL, as create and rotate answer: the one time the URL is seen. */
export interface WebhookAndUrl {
  webhook: SettingsWebhook;
  url: string;
}

/** What the form of a new webhook sends. */
export interface NewWebhook {
  name: string;
  description?: string;
  avatarUrl?: string;
}

/** The answer to a test message: the endpoint's status and problem, as a sender would see them. */
export interface TestAnswer {
  status: number;
  code: string | null;
  detail: string;
}

export interface ManagementClient {
  list(channelId: string): Promise<SettingsWebhook[]>;
  create(channelId: string, input: NewWebhook): Promise<WebhookAndUrl>;
  rotate(webhookId: string): Promise<WebhookAndUrl>;
  revoke(webhookId: string): Promise<SettingsWebhook>;
  posts(webhookId: string): Promise<SettingsPost[]>;
  /** Has the management API post a test message through the endpoint with `url`. */
  test(webhookId: string, url: string, text: string): Promise<TestAnswer>;
}

/**
 * The client of the API at `base` (absolute, or relative to `baseUri`, the page's), through
 * `fetchFn`. Every call sends the page's cookies for the API's own origin and asks for a fresh answer.
 */
export function createManagementClient(base: string, fetchFn: typeof fetch, baseUri: string): ManagementClient {
  const root = base.replace(/\/+$/, '');
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const init: RequestInit = {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    };
    if (method === 'POST') {
      init.headers = { accept: 'application/json', 'content-type': 'application/json' };
      init.body = JSON.stringify(body ?? {});
    }
    let response: Response;
    try {
      response = await fetchFn(new URL(`${root}${path}`, baseUri), init);
    } catch {
      throw new ManagementFailure('network', 0, null, 'no answer');
    }
    const json = await response.json().catch(() => null);
    if (response.ok && isObject(json)) return json;
    throw failureOf(response.status, json);
  };
  const id = encodeURIComponent;

  return {
    async list(channelId) {
      return (await call('GET', `/channels/${id(channelId)}/webhooks`)).webhooks as SettingsWebhook[];
    },
    async create(channelId, input) {
      return (await call('POST', `/channels/${id(channelId)}/webhooks`, input)) as unknown as WebhookAndUrl;
    },
    async rotate(webhookId) {
      return (await call('POST', `/webhooks/${id(webhookId)}/rotate`)) as unknown as WebhookAndUrl;
    },
    async revoke(webhookId) {
      return (await call('POST', `/webhooks/${id(webhookId)}/revoke`)).webhook as SettingsWebhook;
    },
    async posts(webhookId) {
      return (await call('GET', `/webhooks/${id(webhookId)}/posts`)).posts as SettingsPost[];
    },
    async test(webhookId, url, text) {
      const answer = await call('POST', `/webhooks/${id(webhookId)}/test`, { url, text });
      const problem = isObject(answer.body) ? answer.body : {};
      return {
        status: Number(answer.status),
        code: typeof problem.code === 'string' ? problem.code : null,
        detail: typeof problem.detail === 'string' ? problem.detail : '',
      };
    },
  };
}

// The management API's problem codes, as the element explains them.
const KIND_OF_CODE: Record<string, FailureKind> = {
  unauthenticated: 'signed_out',
  channel_not_found: 'not_allowed',
  webhook_not_found: 'webhook_gone',
  webhook_revoked: 'webhook_gone',
  cross_site_request: 'refused',
  channel_archived: 'archived',
  invalid_name: 'invalid',
  invalid_description: 'invalid',
  invalid_avatar_url: 'invalid',
  history_unavailable: 'unavailable',
  test_unavailable: 'test_unavailable',
};

/** The failure an error answer stands for, from its problem code, else its status. */
function failureOf(status: number, json: unknown): ManagementFailure {
  const problem = isObject(json) ? json : {};
  const code = typeof problem.code === 'string' ? problem.code : null;
  const detail = typeof problem.detail === 'string' ? problem.detail : '';
  const errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
  const kind: FailureKind =
    KIND_OF_CODE[code ?? ''] ?? (status === 401 ? 'signed_out' : status === 403 ? 'refused' : 'server');
  return new ManagementFailure(kind, status, code, detail, errors);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
