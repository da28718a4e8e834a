import { createWebhookManager } from '../../lifecycle/create-webhook-manager.js';
import type { Channel, WebhookStore } from '../../ports.js';
import { check, checkDeepEqual, checkEqual, checkRejects } from '../assert.js';
import { makeWebhook, randomId, recordFields, sha256Hex } from '../fixtures.js';
import type { Suite } from './context.js';

/** Webhooks: records back exactly, rotation and revocation visible at once, secrets never stored. */
export function registerWebhookTests<S extends WebhookStore>({ options, test, t0 }: Suite<S>): void {
  const { describe } = options;
  describe('webhooks', () => {
    test('getWebhook returns the record exactly as inserted, and null for an unknown id', async ({ store, peer }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0, { name: 'Déploiement 🚀 bot' });
      await store.insertWebhook(webhook);
      const found = await peer.getWebhook(webhook.id);
      check(found !== null, 'getWebhook found nothing after insertWebhook');
      checkDeepEqual(recordFields(found), webhook, 'getWebhook');
      checkEqual(typeof found.createdAt, 'number', 'typeof createdAt');
      checkEqual(await store.getWebhook(`wh_${randomId()}`), null, 'getWebhook of an unknown id');
    });

    test('insertWebhook rejects an id that is taken and keeps the first record', async ({ store, peer }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      await checkRejects(() => peer.insertWebhook({ ...webhook, name: 'Impostor' }), 'insertWebhook with a taken id');
      const found = await store.getWebhook(webhook.id);
      check(found !== null, 'getWebhook found nothing');
      checkDeepEqual(recordFields(found), webhook, 'the first record after a rejected second insert');
    });

    test("listWebhooks returns the channel's webhooks oldest first, revoked ones included, no others", async ({
      store,
      peer,
    }) => {
      const channelId = `c_${randomId()}`;
      // Inserted in creation order, as a clock that never goes back produces them.
      const webhooks = Array.from({ length: 5 }, (_, i) =>
        makeWebhook(channelId, t0 + i * 1_000, { name: `hook ${i}` }),
      );
      for (const [i, webhook] of webhooks.entries()) {
        await store.insertWebhook(webhook);
        if (i === 1) await store.insertWebhook(makeWebhook(`c_${randomId()}`, t0 + 1_500));
      }
      await store.revokeWebhook(webhooks[2]!.id, t0 + 9_000);
      const expected = webhooks.map((webhook, i) => (i === 2 ? { ...webhook, revokedAt: t0 + 9_000 } : webhook));
      checkDeepEqual((await peer.listWebhooks(channelId)).map(recordFields), expected, 'listWebhooks');
      checkDeepEqual(await store.listWebhooks(`c_${randomId()}`), [], 'listWebhooks of a channel without webhooks');
    });

    test('updateWebhookSecret replaces the hash and sets rotatedAt; the next getWebhook sees it', async ({
      store,
      peer,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      const rotated = { ...webhook, secretHash: 'b'.repeat(64), rotatedAt: t0 + 5_000 };
      const updated = await store.updateWebhookSecret(webhook.id, rotated.secretHash, rotated.rotatedAt);
      check(updated !== null, 'updateWebhookSecret returned null for an active webhook');
      checkDeepEqual(recordFields(updated), rotated, 'updateWebhookSecret result');
      const seen = await peer.getWebhook(webhook.id);
      check(seen !== null, 'getWebhook found nothing after rotation');
      checkDeepEqual(recordFields(seen), rotated, 'the next getWebhook after rotation');
    });

    test('updateWebhookSecret refuses a revoked or unknown webhook and changes nothing', async ({ store, peer }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      await store.revokeWebhook(webhook.id, t0 + 1_000);
      checkEqual(
        await peer.updateWebhookSecret(webhook.id, 'c'.repeat(64), t0 + 2_000),
        null,
        'updateWebhookSecret of a revoked webhook',
      );
      const found = await store.getWebhook(webhook.id);
      check(found !== null, 'getWebhook found nothing');
      checkDeepEqual(
        recordFields(found),
        { ...webhook, revokedAt: t0 + 1_000 },
        'the revoked webhook after a refused rotation',
      );
      checkEqual(
        await store.updateWebhookSecret(`wh_${randomId()}`, 'c'.repeat(64), t0),
        null,
        'updateWebhookSecret of an unknown id',
      );
    });

    test('revokeWebhook is visible at once and a second call keeps the first time', async ({ store, peer }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      const revoked = await store.revokeWebhook(webhook.id, t0 + 1_000);
      check(revoked !== null, 'revokeWebhook returned null for an existing webhook');
      checkDeepEqual(recordFields(revoked), { ...webhook, revokedAt: t0 + 1_000 }, 'revokeWebhook result');
      const seen = await peer.getWebhook(webhook.id);
      check(seen !== null, 'getWebhook found nothing after revocation');
      checkEqual(seen.revokedAt, t0 + 1_000, 'revokedAt seen by the next getWebhook');
      const again = await peer.revokeWebhook(webhook.id, t0 + 9_000);
      check(again !== null, 'a second revokeWebhook returned null');
      checkEqual(again.revokedAt, t0 + 1_000, 'revokedAt after a second revokeWebhook');
      checkEqual(await store.revokeWebhook(`wh_${randomId()}`, t0), null, 'revokeWebhook of an unknown id');
    });

    test('returned records are copies or frozen: changing one changes nothing stored', async ({ store }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      webhook.name = 'changed after insert';
      const found = await store.getWebhook(webhook.id);
      check(found !== null, 'getWebhook found nothing');
      checkEqual(found.name, 'Deploy bot', 'name after the inserted object was changed');
      try {
        found.secretHash = 'changed after read';
      } catch {
        // A frozen record refuses the change outright, which keeps the store just as safe.
      }
      const again = await store.getWebhook(webhook.id);
      check(
        again !== null && again.secretHash !== 'changed after read',
        'a change to a returned record reached the store',
      );
    });

    test('the store only ever holds the hash of a secret, never the secret', async ({ store, peer, putChannel }) => {
      const channel: Channel = { id: `c_${randomId()}`, ownerId: 'u_owner', archived: false };
      await putChannel(channel);
      const manager = createWebhookManager({ store, baseUrl: 'https://chat.example.com' });
      const actor = { userId: 'u_owner', role: 'member' as const };
      const created = await manager.create(actor, { channelId: channel.id, name: 'CI' });
      const rotated = await manager.rotate(actor, created.webhook.id);
      for (const [label, url] of [
        ['created', created.url],
        ['rotated', rotated.url],
      ] as const) {
        const secret = url.slice(url.lastIndexOf('/') + 1);
        const everything = JSON.stringify([
          await peer.getWebhook(created.webhook.id),
          await peer.listWebhooks(channel.id),
        ]);
        check(!everything.includes(secret), `the ${label} secret is readable from the store`);
        if (label === 'rotated') {
          const found = await peer.getWebhook(created.webhook.id);
          checkEqual(
            found?.secretHash,
            await sha256Hex(secret),
            'secretHash after rotation (SHA-256 hex of the secret)',
          );
        }
      }
    });
  });
}
