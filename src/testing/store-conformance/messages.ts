import type { Message, WebhookStore } from '../../ports.js';
import { check, checkDeepEqual, checkEqual } from '../assert.js';
import { insertInput, makeMessage, makeWebhook, randomId } from '../fixtures.js';
import type { Suite } from './context.js';

/** Messages: the idempotent insert, exact contents, keys per webhook and compared exactly. */
export function registerMessageTests<S extends WebhookStore>({ options, test, skip, t0, concurrency }: Suite<S>): void {
  const { describe } = options;
  const unusualStrings = options.unusualStrings ?? true;
  describe('messages', () => {
    test('insertMessage stores a new message and returns it exactly, outcome created', async ({
      store,
      seed,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const message = makeMessage(webhook, t0 + 1, { body: 'Build #42 passed' });
      const result = await store.insertMessage(insertInput(webhook, message, 'event-1'));
      checkDeepEqual(result, { outcome: 'created', message }, 'insertMessage result');
      if (listMessages !== null) checkDeepEqual(await listMessages(webhook.channelId), [message], 'listMessages');
    });

    test('a repeated key returns the first message unchanged, outcome duplicate', async ({
      store,
      peer,
      seed,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const first = makeMessage(webhook, t0 + 1, { body: 'first', blocks: [{ type: 'divider' }] });
      const second = makeMessage(webhook, t0 + 2, { body: 'second', blocks: [] });
      checkDeepEqual(
        await store.insertMessage(insertInput(webhook, first, 'key-1')),
        { outcome: 'created', message: first },
        'first insert',
      );
      checkDeepEqual(
        await peer.insertMessage(insertInput(webhook, second, 'key-1')),
        { outcome: 'duplicate', message: first },
        'repeat with the same key',
      );
      if (listMessages !== null)
        checkDeepEqual(await listMessages(webhook.channelId), [first], 'listMessages after a repeat');
    });

    test(`${concurrency} concurrent inserts with one key: exactly one stores, all get its message`, async ({
      store,
      peer,
      seed,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const attempts = Array.from({ length: concurrency }, (_, i) =>
        makeMessage(webhook, t0 + i, { body: `attempt ${i}` }),
      );
      const results = await Promise.all(
        attempts.map((message, i) =>
          (i % 2 === 0 ? store : peer).insertMessage(insertInput(webhook, message, 'same-key')),
        ),
      );
      const winners = results.filter((result) => result.outcome === 'created');
      checkEqual(winners.length, 1, 'number of callers told created');
      const stored = (winners[0] as { message: Message }).message;
      check(
        attempts.some((attempt) => attempt.id === stored.id),
        'the stored message is none of the attempts',
      );
      for (const [i, result] of results.entries()) {
        check(result.outcome === 'created' || result.outcome === 'duplicate', `caller ${i} was told ${result.outcome}`);
        checkDeepEqual(result.message, stored, `message returned to caller ${i}`);
      }
      if (listMessages !== null)
        checkDeepEqual(await listMessages(webhook.channelId), [stored], 'listMessages after the race');
    });

    test('keys are scoped per webhook', async ({ store, seed }) => {
      const channelId = `c_${randomId()}`;
      const a = makeWebhook(channelId, t0);
      const b = makeWebhook(channelId, t0 + 1);
      await seed(a);
      await seed(b);
      const fromA = makeMessage(a, t0 + 2, { body: 'from a' });
      const fromB = makeMessage(b, t0 + 3, { body: 'from b' });
      checkDeepEqual(
        await store.insertMessage(insertInput(a, fromA, 'shared')),
        { outcome: 'created', message: fromA },
        'insert on webhook a',
      );
      checkDeepEqual(
        await store.insertMessage(insertInput(b, fromB, 'shared')),
        { outcome: 'created', message: fromB },
        'same key on webhook b',
      );
    });

    test('a null key always stores, also concurrently', async ({ store, peer, seed, listMessages }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const messages = Array.from({ length: 6 }, (_, i) => makeMessage(webhook, t0 + i, { body: 'same body' }));
      const results = await Promise.all(
        messages.map((message, i) => (i % 2 === 0 ? store : peer).insertMessage(insertInput(webhook, message, null))),
      );
      for (const [i, result] of results.entries())
        checkDeepEqual(result, { outcome: 'created', message: messages[i] }, `keyless insert ${i}`);
      if (listMessages !== null) {
        const listed = await listMessages(webhook.channelId);
        checkDeepEqual(
          listed.map((m) => m.id).sort(),
          messages.map((m) => m.id).sort(),
          'ids listed after keyless inserts',
        );
      }
    });

    test('keys are compared exactly: no trimming, no case folding', async ({ store, seed }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const keys = ['evt', 'EVT', ' evt', 'evt ', 'e\u0301vt', 'évt'];
      for (const [i, key] of keys.entries()) {
        const message = makeMessage(webhook, t0 + i, { body: `key ${JSON.stringify(key)}` });
        checkDeepEqual(
          await store.insertMessage(insertInput(webhook, message, key)),
          { outcome: 'created', message },
          `insert with key ${JSON.stringify(key)}`,
        );
      }
    });

    test('messages come back exactly as sent: unicode, nested blocks, key order', async ({
      store,
      peer,
      seed,
      listMessages,
    }) => {
      const webhook = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      const blocks: Message['blocks'] = [
        { type: 'header', text: { type: 'plain_text', text: 'Ünïcödé 🚀 — 日本語 \t"quoted" \\ back', emoji: true } },
        {
          text: { text: '*bold* <https://example.com|link>', type: 'mrkdwn', verbatim: false },
          type: 'section',
          block_id: 'b1',
        },
        { type: 'markdown', text: '# Title\n\n- 1\n- 2 👩‍👩‍👧' },
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'x', style: { bold: true } },
                { type: 'emoji', name: 'tada' },
              ],
            },
          ],
        },
        { type: 'context', elements: [{ type: 'image', image_url: 'https://example.com/a.png', alt_text: 'a' }] },
        { type: 'divider' },
      ];
      const message = makeMessage(webhook, t0 + 1, { body: '  padded, untrimmed  \n🙂 é e\u0301 ', blocks });
      const key = 'κλειδί-🔑';
      const first = await store.insertMessage(insertInput(webhook, message, key));
      const again = await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), key));
      check(
        first.outcome === 'created' && again.outcome === 'duplicate',
        `outcomes ${first.outcome} and ${again.outcome}`,
      );
      for (const [label, got] of [
        ['created', first.message],
        ['duplicate', again.message],
      ] as const) {
        checkDeepEqual(got, message, `the ${label} message`);
        checkEqual(JSON.stringify(got.blocks), JSON.stringify(blocks), `key order of the ${label} message's blocks`);
      }
      if (listMessages !== null) {
        const listed = await listMessages(webhook.channelId);
        checkDeepEqual(listed, [message], 'listMessages');
        checkEqual(JSON.stringify(listed[0]!.blocks), JSON.stringify(blocks), 'key order of the listed blocks');
      }
    });

    const unusual = 'U+0000 and lone surrogates come back exactly, in the body, blocks and key';
    if (!unusualStrings) skip(unusual, 'unusualStrings is false');
    else {
      test(unusual, async ({ store, peer, seed }) => {
        const webhook = makeWebhook(`c_${randomId()}`, t0);
        await seed(webhook);
        const odd = 'nul:\u0000 high:\ud800 low:\udc00 end';
        const message = makeMessage(webhook, t0 + 1, { body: odd, blocks: [{ type: 'markdown', text: odd }] });
        checkDeepEqual(
          await store.insertMessage(insertInput(webhook, message, odd)),
          { outcome: 'created', message },
          'insert with unusual strings',
        );
        const repeat = await peer.insertMessage(insertInput(webhook, makeMessage(webhook, t0 + 2), odd));
        checkDeepEqual(repeat, { outcome: 'duplicate', message }, 'repeat with the unusual key');
        const other = makeMessage(webhook, t0 + 3);
        checkDeepEqual(
          await store.insertMessage(insertInput(webhook, other, 'nul:\u0000 high:\ud801 low:\udc00 end')),
          { outcome: 'created', message: other },
          'a key differing only in a surrogate',
        );
      });
    }

    test("listMessages returns only the channel's messages, oldest first", async ({
      store,
      seed,
      listMessages,
      skipHere,
    }) => {
      if (listMessages === null)
        return skipHere('the store has no listMessages, and options.listMessages is not given');
      const channelId = `c_${randomId()}`;
      const webhook = makeWebhook(channelId, t0);
      const other = makeWebhook(`c_${randomId()}`, t0);
      await seed(webhook);
      await seed(other);
      const inserted: Message[] = [];
      for (let i = 0; i < 5; i++) {
        const message = makeMessage(webhook, t0 + i, { body: `#${i}` });
        await store.insertMessage(insertInput(webhook, message, i % 2 === 0 ? `k${i}` : null));
        await store.insertMessage(insertInput(other, makeMessage(other, t0 + i), null));
        inserted.push(message);
      }
      checkDeepEqual(await listMessages(channelId), inserted, 'listMessages');
      checkDeepEqual(await listMessages(`c_${randomId()}`), [], 'listMessages of an empty channel');
    });
  });
}
