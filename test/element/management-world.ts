import { createManagementClient } from '../../src/element/management-client.js';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import { createWebhookManager } from '../../src/lifecycle/create-webhook-manager.js';
import { createManagementApi } from '../../src/manage/index.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { WebhookStore } from '../../src/ports.js';

// The element's client against the real management API, in process: the element's `fetch` is the
// API's own Fetch handler, with the app's sign-in (a bearer token here) added as an app would add it.
export const PAGE = 'https://chat.example.com/settings/general';
export const ALICE = { userId: 'alice', role: 'member' } as const;

export interface Sent {
  url: string;
  init: RequestInit;
}

/** Channels `general` (alice's), `old` (alice's, archived) and `secret` (bob's), and the element's client of their API. */
export async function world({ store = createMemoryStore() as WebhookStore, handle = true, signedIn = true } = {}) {
  const memory = store as ReturnType<typeof createMemoryStore>;
  await memory.putChannel({ id: 'general', ownerId: 'alice', archived: false });
  await memory.putChannel({ id: 'old', ownerId: 'alice', archived: true });
  await memory.putChannel({ id: 'secret', ownerId: 'bob', archived: false });
  const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
  const api = createManagementApi({
    manager,
    authenticate: (request) => (request.headers.get('authorization') === 'Bearer alice' ? ALICE : null),
    basePath: '/api/manage',
    onError: () => {},
    ...(handle ? { handle: createWebhookHandler({ store }) } : {}),
  });
  const sent: Sent[] = [];
  const fetchFn = (async (input: URL, init: RequestInit) => {
    sent.push({ url: String(input), init });
    const headers = {
      ...(init.headers as Record<string, string>),
      ...(signedIn ? { authorization: 'Bearer alice' } : {}),
    };
    return api.fetch(new Request(input, { method: init.method, headers, body: init.body }));
  }) as typeof fetch;
  return { store: memory, manager, sent, client: createManagementClient('/api/manage/', fetchFn, PAGE) };
}
