// Cloudflare Workers: the Fetch adapter as a module worker (`wrangler dev` with wrangler.toml here).
//
// The memory store below lives in ONE isolate: Cloudflare runs many isolates, in many places, and
// recycles them at will, so each would have its own webhooks and messages, and its own rate limit.
// That is fine for trying it out and for tests, never for production. For shared state, use
// channel-webhooks/postgres over Hyperdrive (node-postgres runs on Workers with nodejs_compat) and
// channel-webhooks/redis over a Redis reachable from Workers.
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createFetchHandler } from 'channel-webhooks/fetch';

const store = createMemoryStore();
store.putChannel({ id: 'general', ownerId: 'u-demo', archived: false });
const handle = createWebhookHandler({ store, storeTimeoutMs: 2_000 });
const webhooks = createFetchHandler(handle, { bodyTimeoutMs: 10_000 });

export default {
  async fetch(request, env) {
    const { pathname, origin } = new URL(request.url);
    // Demo only, and only when the DEMO variable says so: creates a webhook in this isolate's store.
    if (env.DEMO === 'true' && pathname === '/demo/webhooks' && request.method === 'POST') {
      const manager = createWebhookManager({ store, baseUrl: origin });
      const { url } = await manager.create({ userId: 'u-demo', role: 'member' }, { channelId: 'general', name: 'Demo' });
      return Response.json({ url }, { headers: { 'cache-control': 'no-store' } });
    }
    return webhooks(request);
  },
};
