import type { Static } from '@sinclair/typebox';
import type {
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
} from './block-schemas.js';

// Every type here is the static form of the schema the validator compiles, so a type and the rule it
// stands for cannot drift apart. Where a schema leaves an array's items to the validator's checks by
// type (`Unknown`, so that each error points at its element), the type puts the element union back.

/**
 * A `plain_text` text object: a header's text, or a context element.
 *
 * @example
 * ```ts
 * const title: PlainTextObject = { type: 'plain_text', text: 'Deploy finished', emoji: true };
 * ```
 */
export type PlainTextObject = Static<typeof plainTextObject>;

/**
 * A `mrkdwn` text object: a section's text, or a context element.
 *
 * @example
 * ```ts
 * const text: MrkdwnTextObject = { type: 'mrkdwn', text: '*api* deployed to <https://example.com|prod>' };
 * ```
 */
export type MrkdwnTextObject = Static<typeof mrkdwnTextObject>;

/**
 * An `image` context element: an http(s) URL and its alt text.
 *
 * @example
 * ```ts
 * const logo: ImageElement = { type: 'image', image_url: 'https://example.com/ci.png', alt_text: 'CI' };
 * ```
 */
export type ImageElement = Static<typeof imageElement>;

/**
 * One element of a `context` block.
 *
 * @example
 * ```ts
 * const elements: ContextElement[] = [{ type: 'mrkdwn', text: 'by *ana*' }];
 * ```
 */
export type ContextElement = PlainTextObject | MrkdwnTextObject | ImageElement;

/**
 * A `rich_text` inline `text` element, with its optional style.
 *
 * @example
 * ```ts
 * const bold: RichTextTextElement = { type: 'text', text: 'failed', style: { bold: true } };
 * ```
 */
export type RichTextTextElement = Static<typeof inlineElements.text>;
/**
 * A `rich_text` inline `link` element.
 *
 * @example
 * ```ts
 * const link: RichTextLinkElement = { type: 'link', url: 'https://ci.example.com/42', text: 'build 42' };
 * ```
 */
export type RichTextLinkElement = Static<typeof inlineElements.link>;
/**
 * A `rich_text` inline `emoji` element.
 *
 * @example
 * ```ts
 * const tada: RichTextEmojiElement = { type: 'emoji', name: 'tada', unicode: '1f389' };
 * ```
 */
export type RichTextEmojiElement = Static<typeof inlineElements.emoji>;
/**
 * A `rich_text` inline `user` mention.
 *
 * @example
 * ```ts
 * const mention: RichTextUserElement = { type: 'user', user_id: 'U123' };
 * ```
 */
export type RichTextUserElement = Static<typeof inlineElements.user>;
/**
 * A `rich_text` inline `channel` mention.
 *
 * @example
 * ```ts
 * const mention: RichTextChannelElement = { type: 'channel', channel_id: 'C123' };
 * ```
 */
export type RichTextChannelElement = Static<typeof inlineElements.channel>;
/**
 * A `rich_text` inline `usergroup` mention.
 *
 * @example
 * ```ts
 * const mention: RichTextUsergroupElement = { type: 'usergroup', usergroup_id: 'S123' };
 * ```
 */
export type RichTextUsergroupElement = Static<typeof inlineElements.usergroup>;
/**
 * A `rich_text` inline `broadcast` (`@here`, `@channel`, `@everyone`).
 *
 * @example
 * ```ts
 * const here: RichTextBroadcastElement = { type: 'broadcast', range: 'here' };
 * ```
 */
export type RichTextBroadcastElement = Static<typeof inlineElements.broadcast>;
/**
 * A `rich_text` inline `date`, shown in the reader's format.
 *
 * @example
 * ```ts
 * const when: RichTextDateElement = { type: 'date', timestamp: 1767225600, format: '{date_short}', fallback: 'Jan 1' };
 * ```
 */
export type RichTextDateElement = Static<typeof inlineElements.date>;
/**
 * A `rich_text` inline `color` swatch.
 *
 * @example
 * ```ts
 * const swatch: RichTextColorElement = { type: 'color', value: '#36a64f' };
 * ```
 */
export type RichTextColorElement = Static<typeof inlineElements.color>;

/**
 * Any inline element of a rich_text section, quote or preformatted element.
 *
 * @example
 * ```ts
 * const inline: RichTextInlineElement[] = [{ type: 'text', text: 'Deployed by ' }, { type: 'user', user_id: 'U123' }];
 * ```
 */
export type RichTextInlineElement =
  | RichTextTextElement
  | RichTextLinkElement
  | RichTextEmojiElement
  | RichTextUserElement
  | RichTextChannelElement
  | RichTextUsergroupElement
  | RichTextBroadcastElement
  | RichTextDateElement
  | RichTextColorElement;

/**
 * A `rich_text_section`: a paragraph of inline elements.
 *
 * @example
 * ```ts
 * const paragraph: RichTextSection = { type: 'rich_text_section', elements: [{ type: 'text', text: 'All green' }] };
 * ```
 */
export type RichTextSection = Omit<Static<typeof richTextSection>, 'elements'> & { elements: RichTextInlineElement[] };
/**
 * A `rich_text_quote`.
 *
 * @example
 * ```ts
 * const quote: RichTextQuote = { type: 'rich_text_quote', elements: [{ type: 'text', text: 'Ship it' }] };
 * ```
 */
export type RichTextQuote = Omit<Static<typeof richTextQuote>, 'elements'> & { elements: RichTextInlineElement[] };
/**
 * A `rich_text_preformatted` block of code.
 *
 * @example
 * ```ts
 * const code: RichTextPreformatted = { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'npm test' }], language: 'sh' };
 * ```
 */
export type RichTextPreformatted = Omit<Static<typeof richTextPreformatted>, 'elements'> & { elements: RichTextInlineElement[] };
/**
 * A `rich_text_list`: each item is a section.
 *
 * @example
 * ```ts
 * const list: RichTextList = { type: 'rich_text_list', style: 'bullet', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'api' }] }] };
 * ```
 */
export type RichTextList = Omit<Static<typeof richTextList>, 'elements'> & { elements: RichTextSection[] };

/**
 * One element of a `rich_text` block.
 *
 * @example
 * ```ts
 * const element: RichTextElement = { type: 'rich_text_quote', elements: [{ type: 'text', text: 'Ship it' }] };
 * ```
 */
export type RichTextElement = RichTextSection | RichTextList | RichTextQuote | RichTextPreformatted;

/**
 * A `header` block: plain text, shown large.
 *
 * @example
 * ```ts
 * const header: HeaderBlock = { type: 'header', text: { type: 'plain_text', text: 'Deploy 42' } };
 * ```
 */
export type HeaderBlock = Static<typeof headerBlock>;
/**
 * A `section` block with mrkdwn text.
 *
 * @example
 * ```ts
 * const section: SectionBlock = { type: 'section', text: { type: 'mrkdwn', text: '*api* is live' } };
 * ```
 */
export type SectionBlock = Static<typeof sectionBlock>;
/**
 * A `markdown` block with standard Markdown. All markdown blocks of one payload together hold at
 * most 12,000 characters.
 *
 * @example
 * ```ts
 * const notes: MarkdownBlock = { type: 'markdown', text: '## Changes\n- faster builds' };
 * ```
 */
export type MarkdownBlock = Static<typeof markdownBlock>;
/**
 * A `divider` block.
 *
 * @example
 * ```ts
 * const rule: DividerBlock = { type: 'divider' };
 * ```
 */
export type DividerBlock = Static<typeof dividerBlock>;
/**
 * A `context` block: 1–10 small texts or images.
 *
 * @example
 * ```ts
 * const context: ContextBlock = { type: 'context', elements: [{ type: 'mrkdwn', text: 'from *ci*' }] };
 * ```
 */
export type ContextBlock = Omit<Static<typeof contextBlock>, 'elements'> & { elements: ContextElement[] };
/**
 * A `rich_text` block.
 *
 * @example
 * ```ts
 * const rich: RichTextBlock = {
 *   type: 'rich_text',
 *   elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Done', style: { bold: true } }] }],
 * };
 * ```
 */
export type RichTextBlock = Omit<Static<typeof richTextBlock>, 'elements'> & { elements: RichTextElement[] };

/**
 * Any block a payload may carry.
 *
 * @example
 * ```ts
 * const blocks: Block[] = [{ type: 'header', text: { type: 'plain_text', text: 'Deploy 42' } }, { type: 'divider' }];
 * ```
 */
export type Block = HeaderBlock | SectionBlock | MarkdownBlock | DividerBlock | ContextBlock | RichTextBlock;

/**
 * The body of a post to a webhook: `text`, `blocks` or both, and an optional `eventId` (the
 * idempotency key). A field the endpoint refuses is a compile error. Lengths, the visible-text rule
 * and the markdown total are checked at run time by `validatePayload`.
 *
 * @example
 * ```ts
 * const payload: WebhookPayload = {
 *   text: 'Deploy 42 finished',
 *   blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*api* deployed to prod' } }],
 *   eventId: 'deploy-42',
 * };
 * ```
 */
export type WebhookPayload = Omit<Static<typeof payloadSchema>, 'blocks'> & ({ text: string; blocks?: Block[] } | { text?: string; blocks: Block[] });
