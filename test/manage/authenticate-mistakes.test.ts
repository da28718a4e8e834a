import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const EXPECTED = "return null or { userId: string, role: 'owner' | 'admin' | 'member' }";

/** The API over an `authenticate` that answers, for each request, what its `x-gives` header names. */
function apiGiving(gives: Record<string, unknown>) {
  const manager = createWebhookManager({ store: createMemoryStore(), baseUrl: 'https://chat.example.com' });
  const api = createManagementApi({
    manager,
    authenticate: (request) => gives[request.headers.get('x-gives')!] as never,
  });
  return (name: string) =>
    api.fetch(new Request('https://chat.example.com/webhooks/wh_1', { headers: { 'x-gives': name } }));
}

// Rule: an actor of the wrong shape is a 500 misconfigured, and the log says what authenticate gave
// (its keys and their types, never a value but a role in the wrong case) and what is wrong with it;
// a second, different mistake gets its own line at once, an identical one is folded.
describe('an authenticate that gives no actor', () => {
  it('is logged with what it gave, each different mistake on its own line at once', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const get = apiGiving({
      'a role in capitals': { userId: 'u1', role: 'Admin' },
      'an id, no userId': { id: 'u1', token: 'sk_live_do-not-log' },
      'a made-up role': { userId: 'u1', role: 'sk_live_do-not-log' },
      'a string': 'u1',
      'an empty user id': { userId: '', role: 'owner', email: 'ann@example.com' },
    });
    for (const name of [
      'a role in capitals',
      'a role in capitals',
      'an id, no userId',
      'a made-up role',
      'a string',
      'an empty user id',
    ]) {
      const answer = await get(name);
      expect(answer.status).toBe(500);
      expect(((await answer.json()) as { code: string }).code).toBe('misconfigured');
    }
    const line = (what: string) =>
      `channel-webhooks: createManagementApi: authenticate failure: ChannelWebhookError (misconfigured): authenticate returned ${what}; ${EXPECTED}; pass onError to handle every failure yourself`;
    expect(log.mock.calls).toEqual([
      [line("{ userId: string, role: string }, role 'Admin' is not lower case")],
      [line('{ id: string, token: string }, userId is missing and role is missing')],
      [line('{ userId: string, role: string }, role is not one of the three')],
      [line('a string, not an object')],
      [line('{ userId: string, role: string, email: string }, userId is not a non-empty string')],
    ]);
    expect(JSON.stringify(log.mock.calls)).not.toMatch(/sk_live|ann@/);
  });

  it('says so of a value of no actor shape at all: an array, a number, a nested object', async () => {
    const heard: string[] = [];
    const manager = createWebhookManager({ store: createMemoryStore(), baseUrl: 'https://chat.example.com' });
    const gives: unknown[] = [['u1'], 7, { user: { id: 'u1' }, role: 'admin' }];
    const api = createManagementApi({
      manager,
      authenticate: () => gives.shift() as never,
      onError: (error) => heard.push((error as Error).message),
    });
    for (let i = 0; i < 3; i++) await api.fetch(new Request('https://chat.example.com/webhooks/wh_1'));
    expect(heard).toEqual([
      `authenticate returned an array, not an object; ${EXPECTED}`,
      `authenticate returned a number, not an object; ${EXPECTED}`,
      `authenticate returned { user: object, role: string }, userId is missing; ${EXPECTED}`,
    ]);
  });
});
