import { Type, type TObject, type TProperties } from '@sinclair/typebox';

// Shapes follow the contract, plus what DESIGN.md adds from Slack Block Kit (the fields of Slack's
// current element reference). These schemas are compiled by the validator and published, as they are,
// in the OpenAPI document. Lengths counted in code points and "after trimming" are checked in
// validate-payload.ts, because TypeBox counts UTF-16 units: such a string carries `maxCodePoints`,
// which the compiler ignores and the OpenAPI document publishes as JSON Schema's `maxLength` (code points).

const strict = <T extends TProperties>(properties: T): TObject<T> => Type.Object(properties, { additionalProperties: false });
/** Most code points in `text`, after trimming. */
export const MAX_TEXT = 10_000;
/** Most code points in `eventId` or `Idempotency-Key`, after trimming. */
export const MAX_KEY = 200;
/** Most code points of all markdown blocks of one request together. */
export const MAX_MARKDOWN_TOTAL = 12_000;
/** Most code points in a `block_id`. */
export const MAX_BLOCK_ID = 255;
const blockId = Type.Optional(Type.String({ minLength: 1, maxCodePoints: MAX_BLOCK_ID, description: `1–${MAX_BLOCK_ID} code points.` }));
const anyArray = Type.Array(Type.Unknown());

export const plainTextObject = strict({ type: Type.Literal('plain_text'), text: Type.String(), emoji: Type.Optional(Type.Boolean()) });
export const mrkdwnTextObject = strict({ type: Type.Literal('mrkdwn'), text: Type.String(), verbatim: Type.Optional(Type.Boolean()) });
export const imageElement = strict({ type: Type.Literal('image'), image_url: Type.String({ minLength: 1, maxLength: 3000, description: 'An http(s) URL.' }), alt_text: Type.String({ minLength: 1, maxLength: 2000 }) });

export const headerBlock = strict({ type: Type.Literal('header'), text: plainTextObject, block_id: blockId });
export const sectionBlock = strict({ type: Type.Literal('section'), text: mrkdwnTextObject, block_id: blockId });
export const markdownBlock = strict({
  type: Type.Literal('markdown'),
  text: Type.String({ description: `Standard Markdown. All markdown blocks of one request together have at most ${MAX_MARKDOWN_TOTAL.toLocaleString('en-US')} code points.` }),
  block_id: blockId,
});
export const dividerBlock = strict({ type: Type.Literal('divider'), block_id: blockId });
/** Its `elements` are checked one by one, so that each error points at the element. */
export const contextBlock = strict({ type: Type.Literal('context'), elements: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 10 }), block_id: blockId });
export const richTextBlock = strict({ type: Type.Literal('rich_text'), elements: Type.Array(Type.Unknown(), { minItems: 1 }), block_id: blockId });

const border = Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)]));
export const richTextSection = strict({ type: Type.Literal('rich_text_section'), elements: anyArray });
export const richTextQuote = strict({ type: Type.Literal('rich_text_quote'), elements: anyArray, border });
export const richTextPreformatted = strict({ type: Type.Literal('rich_text_preformatted'), elements: anyArray, border, language: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });
export const richTextList = strict({
  type: Type.Literal('rich_text_list'),
  style: Type.Union([Type.Literal('bullet'), Type.Literal('ordered')]),
  elements: Type.Array(Type.Unknown(), { minItems: 1 }),
  indent: Type.Optional(Type.Integer({ minimum: 0, maximum: 8 })),
  offset: Type.Optional(Type.Integer({ minimum: 0 })),
  border,
});

const textStyle = Type.Optional(
  strict({
    bold: Type.Optional(Type.Boolean()),
    italic: Type.Optional(Type.Boolean()),
    strike: Type.Optional(Type.Boolean()),
    code: Type.Optional(Type.Boolean()),
    underline: Type.Optional(Type.Boolean()),
    highlight: Type.Optional(Type.Boolean()),
    client_highlight: Type.Optional(Type.Boolean()),
    unlink: Type.Optional(Type.Boolean()),
  }),
);
const id = Type.String({ minLength: 1, maxLength: 255 });

export const inlineElements = {
  text: strict({ type: Type.Literal('text'), text: Type.String(), style: textStyle }),
  link: strict({
    type: Type.Literal('link'),
    url: Type.String({ minLength: 1, maxLength: 3000, description: 'An http(s) or mailto URL.' }),
    text: Type.Optional(Type.String()),
    unsafe: Type.Optional(Type.Boolean()),
    from_llm: Type.Optional(Type.Boolean()),
    is_slack_url: Type.Optional(Type.Boolean()),
    truncated: Type.Optional(Type.Boolean()),
    style: textStyle,
  }),
  emoji: strict({
    type: Type.Literal('emoji'),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    unicode: Type.Optional(Type.String({ maxLength: 100 })),
    skin_tone: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 3000, description: 'An http(s) URL.' })),
    style: textStyle,
  }),
  user: strict({ type: Type.Literal('user'), user_id: id, from_llm: Type.Optional(Type.Boolean()), style: textStyle }),
  channel: strict({ type: Type.Literal('channel'), channel_id: id, style: textStyle }),
  usergroup: strict({ type: Type.Literal('usergroup'), usergroup_id: id, style: textStyle }),
  broadcast: strict({ type: Type.Literal('broadcast'), range: Type.Union([Type.Literal('here'), Type.Literal('channel'), Type.Literal('everyone')]), style: textStyle }),
  date: strict({
    type: Type.Literal('date'),
    timestamp: Type.Integer({ minimum: 0, description: 'Unix time in seconds.' }),
    format: Type.String({ minLength: 1, maxLength: 255 }),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 3000, description: 'An http(s) URL.' })),
    fallback: Type.Optional(Type.String()),
    style: textStyle,
  }),
  color: strict({ type: Type.Literal('color'), value: Type.String({ minLength: 1, maxLength: 32 }), style: textStyle }),
};

/** The request body's top level. `blocks` items are checked one by one by type. */
export const payloadSchema = strict({
  text: Type.Optional(
    Type.String({
      minLength: 1,
      description: `1–${MAX_TEXT.toLocaleString('en-US')} code points after trimming (String.prototype.trim); stored as sent. Required when \`blocks\` is absent; with blocks, the notification fallback.`,
    }),
  ),
  blocks: Type.Optional(
    Type.Array(Type.Unknown(), {
      minItems: 1,
      maxItems: 50,
      description:
        'Without `text`, at least one block must show visible text: a header, section or markdown text, a context text element, or a rich_text text or link that is not blank after trimming.',
    }),
  ),
  eventId: Type.Optional(
    Type.String({ minLength: 1, description: `The idempotency key: 1–${MAX_KEY} code points after trimming. Must equal the Idempotency-Key header exactly when both are sent.` }),
  ),
});
