import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectRefused, expectedMessage, setup, successHeaders } from '../support/setup.js';

const RUNS_VALID = 200;
const RUNS_INVALID = 300;

type Json = Record<string, unknown>;

const UNSTORABLE = /[\0\p{Cs}]/u;
const anyText = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((text) => !UNSTORABLE.test(text));
const visibleText = anyText.filter((text) => text.trim().length > 0);
const blockId = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 255 });
const url = fc.webUrl({ validSchemes: ['https', 'http'] });

const withBlockId = <T extends Json>(arb: fc.Arbitrary<T>) =>
  fc
    .tuple(arb, fc.option(blockId, { freq: 3 }))
    .map(([block, id]) => (id === null ? block : { ...block, block_id: id }));

const plainText = fc.record(
  { type: fc.constant('plain_text'), text: visibleText, emoji: fc.boolean() },
  { requiredKeys: ['type', 'text'] },
);
const mrkdwnText = fc.record(
  { type: fc.constant('mrkdwn'), text: visibleText, verbatim: fc.boolean() },
  { requiredKeys: ['type', 'text'] },
);
const image = fc.record({ type: fc.constant('image'), image_url: url, alt_text: visibleText });
const style = fc.record(
  { bold: fc.boolean(), italic: fc.boolean(), strike: fc.boolean(), code: fc.boolean() },
  { requiredKeys: [] },
);

const inline = fc.oneof(
  fc.record({ type: fc.constant('text'), text: anyText, style }, { requiredKeys: ['type', 'text'] }),
  fc.record(
    {
      type: fc.constant('link'),
      url: fc.oneof(
        url,
        fc.emailAddress().map((address) => `mailto:${address}`),
      ),
      text: anyText,
    },
    { requiredKeys: ['type', 'url'] },
  ),
  fc.record({ type: fc.constant('emoji'), name: fc.constantFrom('tada', 'rocket', 'white_check_mark') }),
  fc.record({ type: fc.constant('user'), user_id: fc.constantFrom('U1', 'U2') }),
  fc.record({ type: fc.constant('channel'), channel_id: fc.constantFrom('C1', 'C2') }),
  fc.record({ type: fc.constant('broadcast'), range: fc.constantFrom('here', 'channel', 'everyone') }),
  fc.record({ type: fc.constant('color'), value: fc.constantFrom('#000000', '#abcdef') }),
);
const section = fc.record({ type: fc.constant('rich_text_section'), elements: fc.array(inline, { maxLength: 4 }) });
const richTextElement = fc.oneof(
  section,
  fc.record({
    type: fc.constant('rich_text_list'),
    style: fc.constantFrom('bullet', 'ordered'),
    elements: fc.array(section, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ type: fc.constant('rich_text_quote'), elements: fc.array(inline, { maxLength: 4 }) }),
  fc.record({ type: fc.constant('rich_text_preformatted'), elements: fc.array(inline, { maxLength: 4 }) }),
);

const block: fc.Arbitrary<Json> = fc.oneof(
  withBlockId(fc.record({ type: fc.constant('header'), text: plainText })),
  withBlockId(fc.record({ type: fc.constant('section'), text: mrkdwnText })),
  withBlockId(fc.record({ type: fc.constant('markdown'), text: anyText })),
  withBlockId(fc.record({ type: fc.constant('divider') })),
  withBlockId(
    fc.record({
      type: fc.constant('context'),
      elements: fc.array(fc.oneof(plainText, mrkdwnText, image), { minLength: 1, maxLength: 10 }),
    }),
  ),
  withBlockId(
    fc.record({ type: fc.constant('rich_text'), elements: fc.array(richTextElement, { minLength: 1, maxLength: 3 }) }),
  ),
);

/** A payload within every limit: text and/or blocks (with visible text when text is absent), maybe an eventId. */
const validPayload: fc.Arbitrary<Json> = fc
  .record({
    text: fc.option(
      fc.oneof(
        visibleText,
        visibleText.map((text) => `  ${text}\n`),
      ),
      { freq: 2 },
    ),
    blocks: fc.option(fc.array(block, { minLength: 1, maxLength: 12 }), { freq: 3 }),
    visibleAt: fc.nat(),
    visible: fc.record({ type: fc.constant('section'), text: mrkdwnText }),
    eventId: fc.option(
      fc.string({ minLength: 1, maxLength: 200 }).filter((id) => id.trim().length > 0 && !UNSTORABLE.test(id)),
    ),
  })
  .map(({ text, blocks, visibleAt, visible, eventId }) => {
    const payload: Json = {};
    if (text !== null) payload.text = text;
    if (blocks !== null || text === null) {
      const list = [...(blocks ?? [])];
      // Without text, one block surely shows text; any generated block may too.
      if (text === null) list.splice(visibleAt % (list.length + 1), 0, visible);
      payload.blocks = list;
    }
    if (eventId !== null) payload.eventId = eventId;
    return payload;
  });

interface Violation {
  payload: unknown;
  pointer: string;
  within: string;
}

/** One rule broken in an otherwise valid payload, with where the error must point. */
const violation: fc.Arbitrary<Violation> = fc
  .tuple(validPayload, fc.nat(), fc.nat({ max: 11 }))
  .map(([payload, seed, kind]): Violation => {
    const blocks = (payload.blocks as Json[] | undefined) ?? [];
    const i = seed % Math.max(blocks.length, 1);
    const withBlock = (index: number, change: (block: Json) => Json): Json[] =>
      blocks.map((item, at) => (at === index ? change({ ...item }) : item));
    const withText = payload.text === undefined ? { ...payload, text: 'fallback' } : payload;
    const appended = (extra: Json, text = 'fallback') => ({
      payload: { ...payload, text: payload.text ?? text, blocks: [...blocks, extra] },
      at: `/blocks/${blocks.length}`,
    });
    switch (kind) {
      case 0:
        return {
          payload: { ...payload, text: ['', '   ', 'x'.repeat(10_001)][seed % 3] },
          pointer: '/text',
          within: '/text',
        };
      case 1:
        return { payload: { ...payload, username: 'bot' }, pointer: '/username', within: '' };
      case 2:
        return {
          payload: { ...payload, eventId: ['', ' \t ', 'e'.repeat(201)][seed % 3] },
          pointer: '/eventId',
          within: '/eventId',
        };
      case 3:
        return {
          payload: { ...withText, text: `${withText.text as string}\u0000` },
          pointer: '/text',
          within: '/text',
        };
      case 4:
        return {
          payload: {
            ...payload,
            blocks: [...blocks, ...Array.from({ length: 51 - blocks.length }, () => ({ type: 'divider' }))],
            text: payload.text ?? 'fallback',
          },
          pointer: '/blocks',
          within: '/blocks',
        };
      case 5: {
        if (blocks.length === 0) return { payload: { ...payload, blocks: [] }, pointer: '/blocks', within: '/blocks' };
        return {
          payload: { ...withText, blocks: withBlock(i, (b) => ({ ...b, type: 'actions' })) },
          pointer: `/blocks/${i}/type`,
          within: `/blocks/${i}`,
        };
      }
      case 6: {
        const { payload: p, at } = appended({ type: 'divider', block_id: ['', 'i'.repeat(256)][seed % 2] });
        return { payload: p, pointer: `${at}/block_id`, within: at };
      }
      case 7: {
        const { payload: p, at } = appended({ type: 'section', text: { type: 'mrkdwn', text: 'x' }, accessory: {} });
        return { payload: p, pointer: `${at}/accessory`, within: at };
      }
      case 8: {
        const { payload: p, at } = appended({
          type: 'context',
          elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'x' })),
        });
        return { payload: p, pointer: `${at}/elements`, within: at };
      }
      case 9: {
        const { payload: p, at } = appended({
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'javascript:alert(1)' }] }],
        });
        return { payload: p, pointer: `${at}/elements/0/elements/0/url`, within: at };
      }
      case 10: {
        const { payload: p, at } = appended({
          type: 'context',
          elements: [{ type: 'image', image_url: 'ftp://example.com/a.png', alt_text: 'a' }],
        });
        return { payload: p, pointer: `${at}/elements/0/image_url`, within: at };
      }
      default: {
        const { payload: p, at } = appended({ type: 'markdown', text: 'm'.repeat(12_001) });
        return { payload: p, pointer: `${at}/text`, within: '/blocks' };
      }
    }
  });

describe('validation (property)', () => {
  // Rule: any payload built within the limits (text 1–10,000 code points after trimming and/or 1–50
  // blocks of the six types in their valid shapes, visible text when text is absent, an eventId of
  // 1–200 characters) is accepted with 201 and stored exactly as sent.
  it('every payload within the limits is accepted and stored as sent', async () => {
    await fc.assert(
      fc.asyncProperty(validPayload, async (payload) => {
        const s = await setup();
        const response = await s.post(payload);
        expect(response).toEqual({
          status: 201,
          headers: successHeaders(59),
          body: {
            message: expectedMessage(s, {
              text: payload.text as string | undefined,
              blocks: payload.blocks as unknown[] | undefined,
            }),
            duplicate: false,
          },
        });
      }),
      { numRuns: RUNS_VALID },
    );
  });

  // Rule: a payload that breaks any one rule (text length, unknown property, eventId length, U+0000,
  // block count, block type, block_id length, unknown block field, context element count, link and
  // image URL schemes, markdown total) is refused with 400 invalid_payload and an error pointing at
  // the broken field, and nothing is stored.
  it('every payload with one violation is refused with a pointer to it', async () => {
    await fc.assert(
      fc.asyncProperty(violation, async ({ payload, pointer, within }) => {
        const s = await setup();
        expectRefused(await s.post(payload), pointer, { within });
        expect(await s.store.listMessages('general')).toEqual([]);
      }),
      { numRuns: RUNS_INVALID },
    );
  });
});
