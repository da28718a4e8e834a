import type { InsertMessageResult, Message, WebhookStore } from '../../ports.js';
import { check, checkDeepEqual, checkEqual } from '../assert.js';
import { insertInput, makeMessage, makeWebhook, randomId, recordFields } from '../fixtures.js';
import type { Suite } from './context.js';

/** The guarded insert: what refuses it, in which order, under races; and `lastPostAt`. */
export function registerGuardTests<S extends WebhookStore>({ options, test, skip, t0, concurrency }: Suite<S>): void {
  const { describe } = options;
  const refused = (outcome: InsertMessageResult['outcome']) => ({ outcome });

  describe('guarded insert', () => {
    test('a revoked webhook stores nothing (webhook_inactive), also for a key it stored before', async ({
      store,
      peer,
      seed,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const first = makeMessage(webhook, t0 + 1);
      checkDeepEqual(
        await store.insertMessage(insertInput(webhook, first, 'k')),
        { outcome: 'created', message: first },
        'insert before revoking',
      );
      await store.revokeWebhook(webhook.id, t0 + 2);
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 3), null)),
        refused('webhook_inactive'),
        'keyless insert after revoking',
      );
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 4), 'k')),
        refused('webhook_inactive'),
        'repeat of a stored key after revoking',
      );
      if (listMessages !== null)
        checkDeepEqual(await listMessages(webhook.channelId), [first], 'listMessages after refused inserts');
    });

    test('a rotation refuses the old secret hash and accepts the new one', async ({ store, peer, seed }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const newHash = 'e'.repeat(64);
      await store.updateWebhookSecret(webhook.id, newHash, t0 + 1);
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), 'k')),
        refused('webhook_inactive'),
        'insert under the old hash',
      );
      const message = makeMessage(webhook, t0 + 3);
      checkDeepEqual(
        await peer.insertMessage({ ...insertInput(webhook, message, 'k'), secretHash: newHash }),
        { outcome: 'created', message },
        'insert under the new hash',
      );
    });

    test('an unknown webhook stores nothing (webhook_inactive)', async ({ store, putChannel }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: false });
      checkDeepEqual(
        await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), 'k')),
        refused('webhook_inactive'),
        'insert for a webhook never stored',
      );
    });

    test('an archived channel stores nothing (channel_archived) until it is unarchived', async ({
      peer,
      seed,
      putChannel,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: true });
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), 'k')),
        refused('channel_archived'),
        'insert into an archived channel',
      );
      if (listMessages !== null)
        checkDeepEqual(await listMessages(webhook.channelId), [], 'listMessages of the archived channel');
      await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: false });
      const message = makeMessage(webhook, t0 + 2);
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, message, 'k')),
        { outcome: 'created', message },
        'insert after unarchiving',
      );
    });

    test('a webhook whose channel does not exist stores nothing (channel_not_found)', async ({ store, peer }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(webhook);
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), 'k')),
        refused('channel_not_found'),
        'insert without a channel',
      );
      checkEqual((await peer.getWebhook(webhook.id))?.lastPostAt, null, 'lastPostAt after a refused insert');
    });

    const { deleteChannel } = options;
    const deleted = 'a deleted channel stores nothing (channel_not_found)';
    if (deleteChannel === undefined) skip(deleted, 'options.deleteChannel is not given');
    else {
      test(deleted, async ({ store, peer, seed }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        await deleteChannel(store, webhook.channelId);
        checkDeepEqual(
          await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1), 'k')),
          refused('channel_not_found'),
          'insert into a deleted channel',
        );
      });
    }

    test('the checks go in order: an inactive webhook before a missing or archived channel', async ({
      store,
      putChannel,
    }) => {
      const archived = makeWebhook(`c_${randomId()}`, t0);
      await putChannel({ id: archived.channelId, ownerId: 'u_owner', archived: true });
      await store.insertWebhook(archived);
      await store.revokeWebhook(archived.id, t0 + 1);
      checkDeepEqual(
        await store.insertMessage(insertInput(archived, makeMessage(archived, t0 + 2), null)),
        refused('webhook_inactive'),
        'revoked webhook in an archived channel',
      );
      const orphan = makeWebhook(`c_${randomId()}`, t0);
      await store.insertWebhook(orphan);
      checkDeepEqual(
        await store.insertMessage({
          ...insertInput(orphan, makeMessage(orphan, t0 + 2), null),
          secretHash: 'd'.repeat(64),
        }),
        refused('webhook_inactive'),
        'wrong secret hash for a webhook without a channel',
      );
    });

    test('lastPostAt is set on created, kept on duplicate and refusal, and seen by getWebhook and listWebhooks', async ({
      store,
      peer,
      seed,
      putChannel,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      checkEqual((await peer.getWebhook(webhook.id))?.lastPostAt, null, 'lastPostAt before any post');
      await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 1_000), 'k'));
      checkEqual((await peer.getWebhook(webhook.id))?.lastPostAt, t0 + 1_000, 'lastPostAt after created');
      const duplicate = await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2_000), 'k'));
      checkEqual(duplicate.outcome, 'duplicate', 'outcome of the repeat');
      checkEqual((await peer.getWebhook(webhook.id))?.lastPostAt, t0 + 1_000, 'lastPostAt after a duplicate');
      await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: true });
      await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 3_000), null));
      checkEqual((await peer.getWebhook(webhook.id))?.lastPostAt, t0 + 1_000, 'lastPostAt after a refused insert');
      await putChannel({ id: webhook.channelId, ownerId: 'u_owner', archived: false });
      await store.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 4_000), null));
      const listed = (await peer.listWebhooks(webhook.channelId)).map(recordFields);
      checkDeepEqual(listed, [{ ...webhook, lastPostAt: t0 + 4_000 }], 'listWebhooks after a keyless created');
    });

    // Rule: every insert racing a revocation is either created before it (and stored) or refused
    // after it; once revokeWebhook has returned, nothing more is stored, and every insert started
    // afterwards is refused.
    test(`a revocation racing ${concurrency} inserts: each created before it or refused, nothing stored after`, async ({
      store,
      peer,
      seed,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const attempts = Array.from({ length: concurrency }, (_, i) =>
        makeMessage(webhook, t0 + i, { body: `racing ${i}` }),
      );
      const racing = attempts.map((message, i) =>
        Promise.resolve((i % 2 ? peer : store).insertMessage(insertInput(webhook, message, i % 3 ? `k${i}` : null))),
      );
      await peer.revokeWebhook(webhook.id, t0 + 10_000);
      const atRevoke = listMessages === null ? null : await listMessages(webhook.channelId);
      const late = attempts.map((message, i) =>
        (i % 2 ? store : peer).insertMessage(
          insertInput(webhook, { ...message, id: `${message.id}_late` }, `late${i}`),
        ),
      );
      const results = await Promise.all(racing);
      const created: Message[] = [];
      for (const [i, result] of results.entries()) {
        check(
          result.outcome === 'created' || result.outcome === 'webhook_inactive',
          `racing insert ${i} was told ${result.outcome}`,
        );
        if (result.outcome === 'created') created.push(result.message);
      }
      for (const [i, result] of (await Promise.all(late)).entries())
        checkEqual(result.outcome, 'webhook_inactive', `insert ${i} started after the revocation`);
      if (listMessages !== null && atRevoke !== null) {
        const after = await listMessages(webhook.channelId);
        checkDeepEqual(after, atRevoke, 'messages stored after revokeWebhook returned');
        checkDeepEqual(
          after.map((m) => m.id).sort(),
          created.map((m) => m.id).sort(),
          'stored messages against the inserts told created',
        );
      }
    });
  });
}
