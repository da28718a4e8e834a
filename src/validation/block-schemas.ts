// Named builders rather than the `Type` namespace, which would pull every TypeBox builder into a bundle.
import {
  Array as TypeArray,
  Boolean as TypeBoolean,
  Integer,
  Literal,
  Object as TypeObject,
  Optional,
  String as TypeString,
  Union,
  Unknown,
  type TObject,
  type TProperties,
} from '@sinclair/typebox';
import {
  MAX_ALT_TEXT,
  MAX_BLOCK_ID,
  MAX_BLOCKS,
  MAX_COLOR,
  MAX_CONTEXT_ELEMENTS,
  MAX_DATE_FORMAT,
  MAX_ID,
  MAX_INDENT,
  MAX_KEY,
  MAX_MARKDOWN_TOTAL,
  MAX_NAME,
  MAX_TEXT,
  MAX_URL,
} from './field-rules.js';

// Shapes follow docs/design.md ("Field rules"), with what it takes from Slack Block Kit (the fields of Slack's
// current element reference). These schemas are compiled by the validator and published, as they are,
// in the OpenAPI document. Lengths counted in code points and "after trimming" are checked in
// validate-payload.ts, because TypeBox counts UTF-16 units: such a string carries `maxCodePoints`,
// which the compiler ignores and the OpenAPI document publishes as JSON Schema's `maxLength` (code points).

export { MAX_BLOCK_ID, MAX_KEY, MAX_MARKDOWN_TOTAL, MAX_TEXT } from './field-rules.js';

const strict = <T extends TProperties>(properties: T): TObject<T> =>
  TypeObject(properties, { additionalProperties: false });
const blockId = Optional(
  TypeString({ minLength: 1, maxCodePoints: MAX_BLOCK_ID, description: `1–${MAX_BLOCK_ID} code points.` }),
);
const anyArray = TypeArray(Unknown());

export const plainTextObject = strict({
  type: Literal('plain_text'),
  text: TypeString(),
  emoji: Optional(TypeBoolean()),
});
export const mrkdwnTextObject = strict({
  type: Literal('mrkdwn'),
  text: TypeString(),
  verbatim: Optional(TypeBoolean()),
});
export const imageElement = strict({
  type: Literal('image'),
  image_url: TypeString({ minLength: 1, maxLength: MAX_URL, description: 'An http(s) URL.' }),
  alt_text: TypeString({ minLength: 1, maxLength: MAX_ALT_TEXT }),
});

export const headerBlock = strict({ type: Literal('header'), text: plainTextObject, block_id: blockId });
export const sectionBlock = strict({ type: Literal('section'), text: mrkdwnTextObject, block_id: blockId });
export const markdownBlock = strict({
  type: Literal('markdown'),
  text: TypeString({
    description: `Standard Markdown. All markdown blocks of one request together have at most ${MAX_MARKDOWN_TOTAL.toLocaleString('en-US')} code points.`,
  }),
  block_id: blockId,
});
export const dividerBlock = strict({ type: Literal('divider'), block_id: blockId });
/** Its `elements` are checked one by one, so that each error points at the element. */
export const contextBlock = strict({
  type: Literal('context'),
  elements: TypeArray(Unknown(), { minItems: 1, maxItems: MAX_CONTEXT_ELEMENTS }),
  block_id: blockId,
});
export const richTextBlock = strict({
  type: Literal('rich_text'),
  elements: TypeArray(Unknown(), { minItems: 1 }),
  block_id: blockId,
});

const border = Optional(Union([Literal(0), Literal(1)]));
export const richTextSection = strict({ type: Literal('rich_text_section'), elements: anyArray });
export const richTextQuote = strict({ type: Literal('rich_text_quote'), elements: anyArray, border });
export const richTextPreformatted = strict({
  type: Literal('rich_text_preformatted'),
  elements: anyArray,
  border,
  language: Optional(TypeString({ minLength: 1, maxLength: MAX_NAME })),
});
export const richTextList = strict({
  type: Literal('rich_text_list'),
  style: Union([Literal('bullet'), Literal('ordered')]),
  elements: TypeArray(Unknown(), { minItems: 1 }),
  indent: Optional(Integer({ minimum: 0, maximum: MAX_INDENT })),
  offset: Optional(Integer({ minimum: 0 })),
  border,
});

const textStyle = Optional(
  strict({
    bold: Optional(TypeBoolean()),
    italic: Optional(TypeBoolean()),
    strike: Optional(TypeBoolean()),
    code: Optional(TypeBoolean()),
    underline: Optional(TypeBoolean()),
    highlight: Optional(TypeBoolean()),
    client_highlight: Optional(TypeBoolean()),
    unlink: Optional(TypeBoolean()),
  }),
);
const id = TypeString({ minLength: 1, maxLength: MAX_ID });

export const inlineElements = {
  text: strict({ type: Literal('text'), text: TypeString(), style: textStyle }),
  link: strict({
    type: Literal('link'),
    url: TypeString({ minLength: 1, maxLength: MAX_URL, description: 'An http(s) or mailto URL.' }),
    text: Optional(TypeString()),
    unsafe: Optional(TypeBoolean()),
    from_llm: Optional(TypeBoolean()),
    is_slack_url: Optional(TypeBoolean()),
    truncated: Optional(TypeBoolean()),
    style: textStyle,
  }),
  emoji: strict({
    type: Literal('emoji'),
    name: TypeString({ minLength: 1, maxLength: MAX_NAME }),
    unicode: Optional(TypeString({ maxLength: MAX_NAME })),
    skin_tone: Optional(Integer({ minimum: 1, maximum: 6 })),
    url: Optional(TypeString({ minLength: 1, maxLength: MAX_URL, description: 'An http(s) URL.' })),
    style: textStyle,
  }),
  user: strict({ type: Literal('user'), user_id: id, from_llm: Optional(TypeBoolean()), style: textStyle }),
  channel: strict({ type: Literal('channel'), channel_id: id, style: textStyle }),
  usergroup: strict({ type: Literal('usergroup'), usergroup_id: id, style: textStyle }),
  broadcast: strict({
    type: Literal('broadcast'),
    range: Union([Literal('here'), Literal('channel'), Literal('everyone')]),
    style: textStyle,
  }),
  date: strict({
    type: Literal('date'),
    timestamp: Integer({ minimum: 0, description: 'Unix time in seconds.' }),
    format: TypeString({ minLength: 1, maxLength: MAX_DATE_FORMAT }),
    timezone: Optional(TypeString({ minLength: 1, maxLength: MAX_NAME })),
    url: Optional(TypeString({ minLength: 1, maxLength: MAX_URL, description: 'An http(s) URL.' })),
    fallback: Optional(TypeString()),
    style: textStyle,
  }),
  color: strict({
    type: Literal('color'),
    value: TypeString({ minLength: 1, maxLength: MAX_COLOR }),
    style: textStyle,
  }),
};

/** The request body's top level. `blocks` items are checked one by one by type. */
export const payloadSchema = strict({
  text: Optional(
    TypeString({
      minLength: 1,
      description: `1–${MAX_TEXT.toLocaleString('en-US')} code points after trimming (String.prototype.trim); stored as sent. Required when \`blocks\` is absent; with blocks, the notification fallback.`,
    }),
  ),
  blocks: Optional(
    TypeArray(Unknown(), {
      minItems: 1,
      maxItems: MAX_BLOCKS,
      description:
        'Without `text`, at least one block must show visible text: a header, section or markdown text, a context text element, or a rich_text text or link that is not blank after trimming.',
    }),
  ),
  eventId: Optional(
    TypeString({
      minLength: 1,
      description: `The idempotency key: 1–${MAX_KEY} code points after trimming. Must equal the Idempotency-Key header exactly when both are sent.`,
    }),
  ),
});
