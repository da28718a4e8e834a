import { describe, expect, it } from 'vitest';
import { createExpressManagementMiddleware } from '../../adapters/frameworks/express/index.js';
import { createFastifyManagementPlugin } from '../../adapters/frameworks/fastify/index.js';
import { createKoaManagementMiddleware } from '../../adapters/frameworks/koa/index.js';
import { createNodeManagementListener } from '../../adapters/frameworks/node/index.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementAdapter, createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';

const manager = createWebhookManager({ store: createMemoryStore(), baseUrl: 'https://chat.example.com' });
const authenticate = () => null;

/** The message of the `invalid_argument` error `build` threw. */
function refusal(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    expect(error).toMatchObject({ name: 'ChannelWebhookError', code: 'invalid_argument' });
    return (error as Error).message;
  }
  throw new Error('no error thrown');
}

describe('createManagementApi refuses options it cannot work with, when the app is built', () => {
  it.each([
    [
      'no manager',
      { authenticate },
      /options\.manager must be a WebhookManager: got undefined\. Pass createWebhookManager/,
    ],
    [
      'a store for the manager',
      { manager: createMemoryStore(), authenticate },
      /options\.manager must be a WebhookManager: it has no create\(\)/,
    ],
    [
      'no authenticate',
      { manager },
      /options\.authenticate must be a function \(request\) => \{ userId, role \} \| null: got undefined/,
    ],
    [
      'a basePath without its slash',
      { manager, authenticate, basePath: 'api/manage' },
      /options\.basePath must be '' or a path starting with '\/'/,
    ],
    ['a basePath ending in a slash', { manager, authenticate, basePath: '/api/manage/' }, /options\.basePath/],
    [
      'a trusted origin with a path',
      { manager, authenticate, trustedOrigins: ['https://admin.example.com/'] },
      /options\.trustedOrigins must be an array of origins/,
    ],
    ['auth for authenticate', { manager, auth: authenticate }, /unknown key `auth`/],
  ])('%s', (_, options, message) => {
    expect(refusal(() => createManagementApi(options as never))).toMatch(message);
  });

  it('takes a basePath of several segments and trusted origins with a port', () => {
    expect(() =>
      createManagementApi({
        manager,
        authenticate,
        basePath: '/api/v2/manage',
        trustedOrigins: ['https://admin.example.com:8443'],
      }),
    ).not.toThrow();
  });
});

describe('the mounts refuse what is not the API', () => {
  it.each([
    ['createExpressManagementMiddleware', createExpressManagementMiddleware],
    ['createKoaManagementMiddleware', createKoaManagementMiddleware],
    ['createFastifyManagementPlugin', createFastifyManagementPlugin],
    ['createNodeManagementListener', createNodeManagementListener],
  ] as const)('%s: a manager, a handler or nothing in place of the API', (name, create) => {
    for (const wrong of [manager, () => null, undefined]) {
      expect(refusal(() => (create as (api: unknown) => unknown)(wrong))).toMatch(
        new RegExp(`^${name}: api must be the API from createManagementApi\\(\\)`),
      );
    }
  });

  it('createManagementAdapter names itself when its binding does not', () => {
    const api = createManagementApi({ manager, authenticate });
    expect(refusal(() => createManagementAdapter(api, {} as never, { bodyTimeoutMs: 0 }))).toMatch(
      /^createManagementAdapter: options\.bodyTimeoutMs/,
    );
  });
});
