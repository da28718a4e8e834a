// Every type here is declared member by member, so that an editor and a compiler error name it
// (`SectionBlock`) rather than print its expanded shape. Each is checked against the static form of
// the schema the validator compiles (test/handler/6-body/payload-types.test.ts, by the type checker),
// so a type and the rule it stands for cannot drift apart. Where a schema leaves an array's items to
// the validator's checks by type (`Unknown`, so that each error points at its element), the type
// puts the element union back.

/**
 * A text style of a rich text element.
 *
 * @example
 * ```ts
 * const style: RichTextStyle = { bold: true, code: true };
 * ```
 */
export interface RichTextStyle {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  underline?: boolean;
  highlight?: boolean;
  client_highlight?: boolean;
  unlink?: boolean;
}

/**
 * A `plain_text` text object: a header's text, or a context element.
 *
 * @example
 * ```ts
 * const title: PlainTextObject = { type: 'plain_text', text: 'Deploy finished', emoji: true };
 * ```
 */
export interface PlainTextObject {
  type: 'plain_text';
  text: string;
  emoji?: boolean;
}

/**
 * A `mrkdwn` text object: a section's text, or a context element.
 *
 * @example
 * ```ts
 * const text: MrkdwnTextObject = { type: 'mrkdwn', text: '*api* deployed to <https://example.com|prod>' };
 * ```
 */
export interface MrkdwnTextObject {
  type: 'mrkdwn';
  text: string;
  verbatim?: boolean;
}

/**
 * An `image` context element: an http(s) URL and its alt text.
 *
 * @example
 * ```ts
 * const logo: ImageElement = { type: 'image', image_url: 'https://example.com/ci.png', alt_text: 'CI' };
 * ```
 */
export interface ImageElement {
  type: 'image';
  image_url: string;
  alt_text: string;
}

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
export interface RichTextTextElement {
  type: 'text';
  text: string;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `link` element.
 *
 * @example
 * ```ts
 * const link: RichTextLinkElement = { type: 'link', url: 'https://ci.example.com/42', text: 'build 42' };
 * ```
 */
export interface RichTextLinkElement {
  type: 'link';
  url: string;
  text?: string;
  unsafe?: boolean;
  from_llm?: boolean;
  is_slack_url?: boolean;
  truncated?: boolean;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `emoji` element.
 *
 * @example
 * ```ts
 * const tada: RichTextEmojiElement = { type: 'emoji', name: 'tada', unicode: '1f389' };
 * ```
 */
export interface RichTextEmojiElement {
  type: 'emoji';
  name: string;
  unicode?: string;
  skin_tone?: number;
  url?: string;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `user` mention.
 *
 * @example
 * ```ts
 * const mention: RichTextUserElement = { type: 'user', user_id: 'U123' };
 * ```
 */
export interface RichTextUserElement {
  type: 'user';
  user_id: string;
  from_llm?: boolean;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `channel` mention.
 *
 * @example
 * ```ts
 * const mention: RichTextChannelElement = { type: 'channel', channel_id: 'C123' };
 * ```
 */
export interface RichTextChannelElement {
  type: 'channel';
  channel_id: string;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `usergroup` mention.
 *
 * @example
 * ```ts
 * const mention: RichTextUsergroupElement = { type: 'usergroup', usergroup_id: 'S123' };
 * ```
 */
export interface RichTextUsergroupElement {
  type: 'usergroup';
  usergroup_id: string;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `broadcast` (`@here`, `@channel`, `@everyone`).
 *
 * @example
 * ```ts
 * const here: RichTextBroadcastElement = { type: 'broadcast', range: 'here' };
 * ```
 */
export interface RichTextBroadcastElement {
  type: 'broadcast';
  range: 'here' | 'channel' | 'everyone';
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `date`, shown in the reader's format.
 *
 * @example
 * ```ts
 * const when: RichTextDateElement = { type: 'date', timestamp: 1767225600, format: '{date_short}', fallback: 'Jan 1' };
 * ```
 */
export interface RichTextDateElement {
  type: 'date';
  timestamp: number;
  format: string;
  timezone?: string;
  url?: string;
  fallback?: string;
  style?: RichTextStyle;
}
/**
 * A `rich_text` inline `color` swatch.
 *
 * @example
 * ```ts
 * const swatch: RichTextColorElement = { type: 'color', value: '#36a64f' };
 * ```
 */
export interface RichTextColorElement {
  type: 'color';
  value: string;
  style?: RichTextStyle;
}

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
export interface RichTextSection {
  type: 'rich_text_section';
  elements: RichTextInlineElement[];
}
/**
 * A `rich_text_quote`.
 *
 * @example
 * ```ts
 * const quote: RichTextQuote = { type: 'rich_text_quote', elements: [{ type: 'text', text: 'Ship it' }] };
 * ```
 */
export interface RichTextQuote {
  type: 'rich_text_quote';
  elements: RichTextInlineElement[];
  border?: 0 | 1;
}
/**
 * A `rich_text_preformatted` block of code.
 *
 * @example
 * ```ts
 * const code: RichTextPreformatted = { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'npm test' }], language: 'sh' };
 * ```
 */
export interface RichTextPreformatted {
  type: 'rich_text_preformatted';
  elements: RichTextInlineElement[];
  border?: 0 | 1;
  language?: string;
}
/**
 * A `rich_text_list`: each item is a section.
 *
 * @example
 * ```ts
 * const list: RichTextList = { type: 'rich_text_list', style: 'bullet', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'api' }] }] };
 * ```
 */
export interface RichTextList {
  type: 'rich_text_list';
  style: 'bullet' | 'ordered';
  elements: RichTextSection[];
  indent?: number;
  offset?: number;
  border?: 0 | 1;
}

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
export interface HeaderBlock {
  type: 'header';
  text: PlainTextObject;
  block_id?: string;
}
/**
 * A `section` block with mrkdwn text.
 *
 * @example
 * ```ts
 * const section: SectionBlock = { type: 'section', text: { type: 'mrkdwn', text: '*api* is live' } };
 * ```
 */
export interface SectionBlock {
  type: 'section';
  text: MrkdwnTextObject;
  block_id?: string;
}
/**
 * A `markdown` block with standard Markdown. All markdown blocks of one payload together hold at
 * most 12,000 characters.
 *
 * @example
 * ```ts
 * const notes: MarkdownBlock = { type: 'markdown', text: '## Changes\n- faster builds' };
 * ```
 */
export interface MarkdownBlock {
  type: 'markdown';
  text: string;
  block_id?: string;
}
/**
 * A `divider` block.
 *
 * @example
 * ```ts
 * const rule: DividerBlock = { type: 'divider' };
 * ```
 */
export interface DividerBlock {
  type: 'divider';
  block_id?: string;
}
/**
 * A `context` block: 1–10 small texts or images.
 *
 * @example
 * ```ts
 * const context: ContextBlock = { type: 'context', elements: [{ type: 'mrkdwn', text: 'from *ci*' }] };
 * ```
 */
export interface ContextBlock {
  type: 'context';
  elements: ContextElement[];
  block_id?: string;
}
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
export interface RichTextBlock {
  type: 'rich_text';
  elements: RichTextElement[];
  block_id?: string;
}

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
export type WebhookPayload = WebhookTextPayload | WebhookBlocksPayload;

/**
 * A post with `text`, and blocks if any (`text` is then the notification fallback).
 *
 * @example
 * ```ts
 * const payload: WebhookTextPayload = { text: 'Deploy 42 finished', eventId: 'deploy-42' };
 * ```
 */
export interface WebhookTextPayload {
  text: string;
  blocks?: Block[];
  eventId?: string;
}

/**
 * A post with blocks, and `text` if any.
 *
 * @example
 * ```ts
 * const payload: WebhookBlocksPayload = { blocks: [{ type: 'divider' }, { type: 'markdown', text: '**done**' }] };
 * ```
 */
export interface WebhookBlocksPayload {
  text?: string;
  blocks: Block[];
  eventId?: string;
}
