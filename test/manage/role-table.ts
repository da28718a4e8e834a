/**
 * The role table of the management API: every route, for every caller, with the whole answer it
 * must get, run against a real server of one stack over one store. The tests call
 * {@link checkRoute} for each (stack, store, route).
 */
import { expect } from 'vitest';
import type { WebhookInfo } from '../../src/lifecycle/create-webhook-manager.js';
import { send, type Answer } from '../support/http.js';
import {
  BASE_PATH,
  BASE_URL,
  CALLER_NAMES,
  CALLERS,
  signedIn,
  type CallerName,
  type Fixture,
  type ManagedWorld,
} from './support.js';

const URL_PATTERN = /\/hooks\/channels\//;
const ORG_OWNER = CALLERS['an organization owner'];

/** One route, what to send it on a fixture, and the answer a caller who may manage gets. */
interface RouteCase {
  route: string;
  subject: 'channel' | 'webhook';
  request(fixture: Fixture): { method: string; path: string; body?: unknown };
  status: number;
  /** The body the caller must get, read from the store after the request; checks its effects too. */
  expected(world: ManagedWorld, fixture: Fixture, caller: CallerName, answer: Answer): Promise<unknown>;
  /** Whether the answer holds the webhook's URL (create and rotate only). */
  holdsUrl?: boolean;
}

const info = async (world: ManagedWorld, webhookId: string): Promise<WebhookInfo> =>
  world.manager.get(ORG_OWNER, webhookId);

const urlOf = (answer: Answer) => (answer.json as { url: string }).url;

export const ROUTE_CASES: RouteCase[] = [
  {
    route: 'GET /channels/{channelId}/webhooks',
    subject: 'channel',
    request: ({ channelId }) => ({ method: 'GET', path: `/channels/${channelId}/webhooks` }),
    status: 200,
    expected: async (world, { channelId }) => ({ webhooks: await world.manager.list(ORG_OWNER, channelId) }),
  },
  {
    route: 'POST /channels/{channelId}/webhooks',
    subject: 'channel',
    request: ({ channelId }) => ({
      method: 'POST',
      path: `/channels/${channelId}/webhooks`,
      body: { name: ' Deploys ', description: 'From the table' },
    }),
    status: 201,
    holdsUrl: true,
    expected: async (world, { channelId }, caller, answer) => {
      const created = (answer.json as { webhook: WebhookInfo }).webhook;
      expect(created).toEqual({
        id: expect.stringMatching(/^wh_[A-Za-z0-9_-]{22}$/),
        channelId,
        name: 'Deploys',
        createdBy: CALLERS[caller]!.userId,
        createdAt: expect.any(Number),
        rotatedAt: null,
        revokedAt: null,
        lastPostAt: null,
        status: 'active',
        description: 'From the table',
        avatarUrl: null,
      });
      expect(urlOf(answer)).toMatch(new RegExp(`^${BASE_URL}/hooks/channels/${created.id}/[A-Za-z0-9_-]{43}$`));
      const stored = await info(world, created.id);
      expect(await world.post(urlOf(answer), { text: 'the new URL works' })).toBe(201);
      return { webhook: stored, url: urlOf(answer) };
    },
  },
  {
    route: 'GET /webhooks/{webhookId}',
    subject: 'webhook',
    request: ({ webhookId }) => ({ method: 'GET', path: `/webhooks/${webhookId}` }),
    status: 200,
    expected: async (world, { webhookId }) => ({ webhook: await info(world, webhookId) }),
  },
  {
    route: 'PATCH /webhooks/{webhookId}',
    subject: 'webhook',
    request: ({ webhookId }) => ({
      method: 'PATCH',
      path: `/webhooks/${webhookId}`,
      body: { description: 'Deploys and rollbacks', avatarUrl: null },
    }),
    status: 200,
    expected: async (world, { webhookId }) => {
      const webhook = await info(world, webhookId);
      expect(webhook).toMatchObject({ description: 'Deploys and rollbacks', avatarUrl: null, name: 'CI' });
      return { webhook };
    },
  },
  {
    route: 'POST /webhooks/{webhookId}/rotate',
    subject: 'webhook',
    request: ({ webhookId }) => ({ method: 'POST', path: `/webhooks/${webhookId}/rotate` }),
    status: 200,
    holdsUrl: true,
    expected: async (world, { webhookId, url }, _caller, answer) => {
      expect(urlOf(answer)).toMatch(new RegExp(`^${BASE_URL}/hooks/channels/${webhookId}/[A-Za-z0-9_-]{43}$`));
      const stored = await info(world, webhookId);
      expect(await world.post(url, { text: 'the old URL' })).toBe(404);
      expect(await world.post(urlOf(answer), { text: 'the new URL' })).toBe(201);
      return { webhook: stored, url: urlOf(answer) };
    },
  },
  {
    route: 'POST /webhooks/{webhookId}/revoke',
    subject: 'webhook',
    request: ({ webhookId }) => ({ method: 'POST', path: `/webhooks/${webhookId}/revoke`, body: {} }),
    status: 200,
    expected: async (world, { webhookId, url }) => {
      expect(await world.post(url, { text: 'after revoking' })).toBe(404);
      const webhook = await info(world, webhookId);
      expect(webhook.status).toBe('revoked');
      return { webhook };
    },
  },
  {
    route: 'GET /webhooks/{webhookId}/posts',
    subject: 'webhook',
    request: ({ webhookId }) => ({ method: 'GET', path: `/webhooks/${webhookId}/posts` }),
    status: 200,
    expected: async (world, { webhookId }) => {
      const posts = await world.store.listPosts!(webhookId, 100);
      expect(posts).toEqual([
        expect.objectContaining({ status: 201, code: null, messageId: expect.any(String), count: 1 }),
      ]);
      return { posts };
    },
  },
];

/** Sends a route case's request as `caller`. */
export function sendAs(
  origin: string,
  caller: CallerName,
  request: { method: string; path: string; body?: unknown },
): Promise<Answer> {
  return send(`${origin}${BASE_PATH}${request.path}`, {
    method: request.method,
    headers: signedIn(caller),
    body: request.body as object | undefined,
  });
}

/** The headers every answer of the API has. */
export function expectAnswerHeaders(
  answer: Answer,
  contentType: 'application/json' | 'application/problem+json',
): void {
  expect(answer.headers['content-type']).toMatch(new RegExp(`^${contentType.replace('+', '\\+')}(;|$)`));
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

/** A problem body of `code` and `status`. */
export const problemBody = (status: number, code: string) => ({
  type: `tag:channel-webhooks,2026:problem:${code}`,
  title: expect.any(String),
  status,
  detail: expect.any(String),
  code,
});

/**
 * Runs one route for every caller, each on a fixture of its own: those who may manage get the
 * whole expected answer; another member gets exactly the answer for a channel or webhook that does
 * not exist, and changes nothing; a signed-out caller gets 401 and changes nothing. Only the
 * answers to create and rotate hold a URL.
 */
export async function checkRoute(origin: string, world: ManagedWorld, routeCase: RouteCase): Promise<void> {
  for (const caller of CALLER_NAMES) {
    const fixture = await world.fixture();
    const before = await world.store.getWebhook(fixture.webhookId);
    const countBefore = (await world.store.listWebhooks(fixture.channelId)).length;
    const answer = await sendAs(origin, caller, routeCase.request(fixture));
    const context = `${routeCase.route} as ${caller}: ${answer.status} ${answer.text}`;
    const mayManage = caller !== 'another member' && caller !== 'a signed-out caller';
    if (mayManage) {
      expect(answer.status, context).toBe(routeCase.status);
      expectAnswerHeaders(answer, 'application/json');
      expect(answer.json, context).toEqual(await routeCase.expected(world, fixture, caller, answer));
      expect(URL_PATTERN.test(answer.text), `${context}: holds a URL`).toBe(routeCase.holdsUrl === true);
      continue;
    }
    expectAnswerHeaders(answer, 'application/problem+json');
    expect(URL_PATTERN.test(answer.text), `${context}: holds a URL`).toBe(false);
    if (caller === 'a signed-out caller') {
      expect(answer.status, context).toBe(401);
      expect(answer.json, context).toEqual(problemBody(401, 'unauthenticated'));
    } else {
      const missing = routeCase.request(
        routeCase.subject === 'channel'
          ? { ...fixture, channelId: 'c_no_such_channel' }
          : { ...fixture, webhookId: 'wh_AAAAAAAAAAAAAAAAAAAAAA' },
      );
      const absent = await sendAs(origin, caller, missing);
      const code = routeCase.subject === 'channel' ? 'channel_not_found' : 'webhook_not_found';
      expect(answer.status, context).toBe(404);
      expect(answer.json, context).toEqual(problemBody(404, code));
      expect(answer.json, `${context}: differs from the answer for one that does not exist`).toEqual(absent.json);
    }
    expect(await world.store.getWebhook(fixture.webhookId), `${context}: changed the webhook`).toEqual(before);
    expect((await world.store.listWebhooks(fixture.channelId)).length, `${context}: created a webhook`).toBe(
      countBefore,
    );
  }
}
