// A worker for test/adapters/workerd-deadline.test.ts: the Fetch adapter over a store whose lookups
// answer with a promise that settles (`/mode/fast`) or never does (`/mode/hang`).
import { createFetchHandler } from '../../../adapters/fetch/index.js';
import { createMemoryStore, createWebhookHandler, createWebhookManager, type WebhookStore } from '../../../src/index.js';

const store = createMemoryStore();
store.putChannel({ id: 'general', ownerId: 'u-owner', archived: false });
const manager = createWebhookManager({ store, baseUrl: 'http://localhost' });
let path = '';
let hang = false;
const remote: WebhookStore = {
  ...store,
  getWebhook: (id) => (hang ? new Promise(() => undefined) : Promise.resolve(store.getWebhook(id))),
};
const fetchHandler = createFetchHandler(createWebhookHandler({ store: remote, storeTimeoutMs: 300 }));

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/setup') {
      if (path === '') path = new URL((await manager.create({ userId: 'u-owner', role: 'member' }, { channelId: 'general', name: 'CI' })).url).pathname;
      return new Response(path);
    }
    if (pathname === '/mode/fast' || pathname === '/mode/hang') {
      hang = pathname === '/mode/hang';
      return new Response('ok');
    }
    return fetchHandler(request);
  },
};
