import type { WebhookRecord, WebhookStore } from '../../ports.js';
import { check, checkDeepEqual, checkEqual } from '../assert.js';
import { insertInput, makeMessage, makeWebhook, randomId, recordFields } from '../fixtures.js';
import type { Suite } from './context.js';

/** Profiles: kept exactly, changed field by field, never on a revoked webhook, untouched by the rest. */
export function registerProfileTests<S extends WebhookStore>({ options, test, t0 }: Suite<S>): void {
  const { describe } = options;
  describe('profile', () => {
    test('updateWebhookProfile sets the fields the change holds, keeps the others, and the next read sees it', async ({
      store,
      peer,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      const steps: Array<[change: Parameters<WebhookStore['updateWebhookProfile']>[1], expected: WebhookRecord]> = [
        [{ description: 'Deploys of the api service' }, { ...webhook, description: 'Deploys of the api service' }],
        [{ avatarUrl: null }, { ...webhook, description: 'Deploys of the api service', avatarUrl: null }],
        [{}, { ...webhook, description: 'Deploys of the api service', avatarUrl: null }],
        [
          { description: null, avatarUrl: 'https://chat.example.com/a.png' },
          { ...webhook, description: null, avatarUrl: 'https://chat.example.com/a.png' },
        ],
      ];
      for (const [i, [change, expected]] of steps.entries()) {
        const updated = await store.updateWebhookProfile(webhook.id, change);
        check(updated !== null, `updateWebhookProfile #${i} returned null for an active webhook`);
        checkDeepEqual(
          recordFields(updated),
          expected,
          `updateWebhookProfile #${i} (${JSON.stringify(change)}) result`,
        );
        const seen = await peer.getWebhook(webhook.id);
        check(seen !== null, `getWebhook found nothing after update #${i}`);
        checkDeepEqual(recordFields(seen), expected, `the next getWebhook after update #${i}`);
      }
      checkDeepEqual(
        (await peer.listWebhooks(webhook.channelId)).map(recordFields),
        [steps.at(-1)![1]],
        'listWebhooks after the updates',
      );
    });

    test('updateWebhookProfile refuses a revoked or unknown webhook and changes nothing', async ({ store, peer }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      await store.revokeWebhook(webhook.id, t0 + 1_000);
      checkEqual(
        await peer.updateWebhookProfile(webhook.id, { description: 'too late' }),
        null,
        'updateWebhookProfile of a revoked webhook',
      );
      const found = await store.getWebhook(webhook.id);
      check(found !== null, 'getWebhook found nothing');
      checkDeepEqual(
        recordFields(found),
        { ...webhook, revokedAt: t0 + 1_000 },
        'the revoked webhook after a refused update',
      );
      checkEqual(
        await store.updateWebhookProfile(`wh_${randomId()}`, { description: 'x' }),
        null,
        'updateWebhookProfile of an unknown id',
      );
    });

    test('a profile is kept exactly: no profile, long text over lines, quotes and emoji, a long URL', async ({
      store,
      peer,
    }) => {
      const channelId = `c_${randomId()}`;
      const description = `Line one: "quoted" & <b>not markup</b>\n\tLine two 🚀 déjà vu ${'é'.repeat(420)}`;
      const avatarUrl = `https://chat.example.com/avatars/${'a'.repeat(1_990)}.png?size=64&v="2"`;
      const bare = makeWebhook(channelId, t0, { description: null, avatarUrl: null });
      const full = makeWebhook(channelId, t0 + 1, { description, avatarUrl });
      await store.insertWebhook(bare);
      await store.insertWebhook(full);
      checkDeepEqual((await peer.listWebhooks(channelId)).map(recordFields), [bare, full], 'listWebhooks');
      const updated = await peer.updateWebhookProfile(bare.id, { description, avatarUrl });
      check(updated !== null, 'updateWebhookProfile returned null');
      checkDeepEqual(recordFields(updated), { ...bare, description, avatarUrl }, 'updateWebhookProfile result');
    });

    test('rotation, posts and the profile leave one another alone', async ({ store, peer, seed }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const rotated = await store.updateWebhookSecret(webhook.id, 'd'.repeat(64), t0 + 1);
      check(rotated !== null, 'updateWebhookSecret returned null');
      const posted = makeMessage(webhook, t0 + 2);
      const result = await store.insertMessage({ ...insertInput(webhook, posted, null), secretHash: 'd'.repeat(64) });
      checkEqual(result.outcome, 'created', 'insertMessage after rotation');
      const updated = await peer.updateWebhookProfile(webhook.id, { description: 'After rotation' });
      check(updated !== null, 'updateWebhookProfile returned null');
      const expected = {
        ...webhook,
        secretHash: 'd'.repeat(64),
        rotatedAt: t0 + 1,
        lastPostAt: Date.parse(posted.createdAt),
        description: 'After rotation',
      };
      checkDeepEqual(recordFields(updated), expected, 'the record after rotation, a post and an update');
      const seen = await store.getWebhook(webhook.id);
      check(seen !== null, 'getWebhook found nothing');
      checkDeepEqual(recordFields(seen), expected, 'the next getWebhook');
    });

    test('the record updateWebhookProfile returns is a copy or frozen', async ({ store }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      const updated = await store.updateWebhookProfile(webhook.id, { description: 'Mine' });
      check(updated !== null, 'updateWebhookProfile returned null');
      try {
        updated.description = 'changed after the update';
      } catch {
        // A frozen record refuses the change outright, which keeps the store just as safe.
      }
      checkEqual(
        (await store.getWebhook(webhook.id))?.description,
        'Mine',
        'description after the returned record was changed',
      );
    });
  });
}
