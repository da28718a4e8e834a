import {
  contextBlock,
  dividerBlock,
  headerBlock,
  imageElement,
  inlineElements,
  markdownBlock,
  mrkdwnTextObject,
  payloadSchema,
  plainTextObject,
  richTextBlock,
  richTextList,
  richTextPreformatted,
  richTextQuote,
  richTextSection,
  sectionBlock,
} from '../validation/block-schemas.js';
import { oneOfRefs, toJsonSchema, withItems, type JsonSchema } from './json-schema.js';

const pascal = (type: string): string => type.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

const inlineNames = Object.fromEntries(
  Object.keys(inlineElements).map((type) => [type, `RichText${pascal(type)}Element`]),
);
const inline = oneOfRefs(inlineNames);

/**
 * The request body's component schemas, from the very TypeBox schemas the validator compiles. The
 * validator checks arrays of blocks and elements one item at a time, by `type`; here those arrays get
 * the `oneOf` of the item schemas it picks from.
 */
export function requestSchemas(): Record<string, JsonSchema> {
  const inlineSchemas = Object.fromEntries(
    Object.entries(inlineElements).map(([type, schema]) => [inlineNames[type]!, toJsonSchema(schema)]),
  );
  return {
    Payload: {
      ...withItems(
        toJsonSchema(payloadSchema),
        'blocks',
        oneOfRefs({
          header: 'HeaderBlock',
          section: 'SectionBlock',
          markdown: 'MarkdownBlock',
          divider: 'DividerBlock',
          context: 'ContextBlock',
          rich_text: 'RichTextBlock',
        }),
      ),
      // The validator states this rule itself, to point its error at `/text`.
      anyOf: [{ required: ['text'] }, { required: ['blocks'] }],
    },
    PlainTextObject: toJsonSchema(plainTextObject),
    MrkdwnTextObject: toJsonSchema(mrkdwnTextObject),
    ImageElement: toJsonSchema(imageElement),
    HeaderBlock: toJsonSchema(headerBlock),
    SectionBlock: toJsonSchema(sectionBlock),
    MarkdownBlock: toJsonSchema(markdownBlock),
    DividerBlock: toJsonSchema(dividerBlock),
    ContextBlock: withItems(
      toJsonSchema(contextBlock),
      'elements',
      oneOfRefs({ plain_text: 'PlainTextObject', mrkdwn: 'MrkdwnTextObject', image: 'ImageElement' }),
    ),
    RichTextBlock: withItems(
      toJsonSchema(richTextBlock),
      'elements',
      oneOfRefs({
        rich_text_section: 'RichTextSection',
        rich_text_list: 'RichTextList',
        rich_text_quote: 'RichTextQuote',
        rich_text_preformatted: 'RichTextPreformatted',
      }),
    ),
    RichTextSection: withItems(toJsonSchema(richTextSection), 'elements', inline),
    RichTextList: withItems(
      toJsonSchema(richTextList),
      'elements',
      oneOfRefs({ rich_text_section: 'RichTextSection' }),
    ),
    RichTextQuote: withItems(toJsonSchema(richTextQuote), 'elements', inline),
    RichTextPreformatted: withItems(toJsonSchema(richTextPreformatted), 'elements', inline),
    ...inlineSchemas,
  };
}
