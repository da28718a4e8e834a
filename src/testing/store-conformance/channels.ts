import type { Channel, WebhookStore } from '../../ports.js';
import { check, checkDeepEqual, checkEqual } from '../assert.js';
import { makeWebhook, randomId } from '../fixtures.js';
import type { Suite } from './context.js';

/** Channels: read as put, archival visible at once. */
export function registerChannelTests<S extends WebhookStore>({ options, test, t0 }: Suite<S>): void {
  const { describe } = options;
  describe('channels', () => {
    test('getChannel returns the channel as put, and null for an unknown id', async ({ store, peer, putChannel }) => {
      const channel: Channel = { id: `c_${randomId()}`, ownerId: `u_${randomId(8)}`, archived: false };
      await putChannel(channel);
      checkDeepEqual(await store.getChannel(channel.id), channel, 'getChannel after putChannel');
      checkDeepEqual(await peer.getChannel(channel.id), channel, 'getChannel on the peer');
      checkEqual(await store.getChannel(`c_${randomId()}`), null, 'getChannel of an unknown id');
    });

    test('archiving a channel is visible to the next getChannel and getWebhook', async ({
      store,
      peer,
      putChannel,
    }) => {
      const channel: Channel = { id: `c_${randomId()}`, ownerId: 'u_owner', archived: false };
      await putChannel(channel);
      const webhook = makeWebhook(channel.id, t0);
      await store.insertWebhook(webhook);
      check((await peer.getWebhook(webhook.id)) !== null, 'getWebhook found nothing after insertWebhook');

      await putChannel({ ...channel, archived: true });
      checkDeepEqual(await peer.getChannel(channel.id), { ...channel, archived: true }, 'getChannel after archiving');
      check((await peer.getWebhook(webhook.id)) !== null, 'getWebhook found nothing after archiving its channel');
    });
  });
}
