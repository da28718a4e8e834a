// Cloudflare Workers, with the webhooks' state in Durable Objects: `wrangler deploy` (or
// `wrangler dev`) with wrangler.toml here, which binds ChannelWebhooksObject as CHANNEL_WEBHOOKS.
//
// Each channel's webhooks, messages, idempotency keys and rate windows live in one Durable Object,
// in its own SQLite database. A post goes, as it is, to the object its webhook id names, which runs
// the whole check there: one call a post, exact and durable however many isolates Cloudflare runs.
import { createWebhookManager } from 'channel-webhooks';
import {
  ChannelWebhooksObject,
  createDurableObjectFetchHandler,
  createDurableObjectStore,
} from 'channel-webhooks/cloudflare';

// The class wrangler.toml binds: a worker exports the Durable Object classes it declares.
export { ChannelWebhooksObject };

export default {
  async fetch(request, env) {
    const { pathname, origin } = new URL(request.url);
    // Demo only, and only when the DEMO variable says so: creates a webhook in the channel 'general'.
    // Your app manages webhooks through createWebhookManager over the same store, behind its own auth.
    if (env.DEMO === 'true' && pathname === '/demo/webhooks' && request.method === 'POST') {
      const store = createDurableObjectStore({ namespace: env.CHANNEL_WEBHOOKS });
      await store.putChannel({ id: 'general', ownerId: 'u-demo', archived: false });
      const manager = createWebhookManager({ store, baseUrl: origin });
      const { url } = await manager.create(
        { userId: 'u-demo', role: 'member' },
        { channelId: 'general', name: 'Demo' },
      );
      return Response.json({ url }, { headers: { 'cache-control': 'no-store' } });
    }
    return createDurableObjectFetchHandler({ namespace: env.CHANNEL_WEBHOOKS })(request);
  },
};
