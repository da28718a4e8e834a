// What to send instead of a Slack construct the contract does not take. A refusal of one carries
// its hint beside the message, in the 400 answer, in `validatePayload`'s result and in the command's
// output. A hint is a fixed sentence chosen by what the sender wrote, never an echo of it, and ends
// with a link to the section of the differences guide that shows the construct and its replacement.

/** The guide the hints link to: absolute, since an API answer is read far from this repository. */
export const SLACK_DIFFERENCES_URL =
  'https://github.com/channel-webhooks/channel-webhooks/blob/main/docs/slack-differences.md';

const see = (sentence: string, anchor: string): string => `${sentence} See ${SLACK_DIFFERENCES_URL}#${anchor}`;

const MESSAGE_FIELDS = 'message-fields';

// Top-level properties of a Slack message that a webhook post here does not have.
const PAYLOAD_PROPERTY_HINTS: Record<string, string> = {
  attachments: see(
    'Legacy `attachments` are Slack-only: send their text and fields as `blocks` (a `section` per attachment, a line of its mrkdwn text per field); there is no colour bar.',
    'attachments',
  ),
  username: see(
    '`username` is Slack-only: the author is always the webhook, under the name it was created with; create one webhook per name.',
    MESSAGE_FIELDS,
  ),
  icon_emoji: see(
    '`icon_emoji` is Slack-only: the chat app shows the webhook as the author; leave it out.',
    MESSAGE_FIELDS,
  ),
  icon_url: see(
    '`icon_url` is Slack-only: the chat app shows the webhook as the author; leave it out.',
    MESSAGE_FIELDS,
  ),
  channel: see(
    '`channel` is Slack-only: a webhook posts to its own channel; use the URL of a webhook created in the other channel.',
    MESSAGE_FIELDS,
  ),
  thread_ts: see('`thread_ts` is Slack-only: there are no threads; leave it out.', MESSAGE_FIELDS),
  reply_broadcast: see('`reply_broadcast` is Slack-only: there are no threads; leave it out.', MESSAGE_FIELDS),
  mrkdwn: see(
    '`mrkdwn` is Slack-only: `text` is always mrkdwn; for literal text send a `rich_text` block.',
    MESSAGE_FIELDS,
  ),
  unfurl_links: see('`unfurl_links` is Slack-only: links are never unfurled; leave it out.', MESSAGE_FIELDS),
  unfurl_media: see('`unfurl_media` is Slack-only: links are never unfurled; leave it out.', MESSAGE_FIELDS),
  link_names: see(
    '`link_names` is Slack-only: write a mention as `<@U123>` in mrkdwn, or a `user` element of a `rich_text` block.',
    MESSAGE_FIELDS,
  ),
  parse: see(
    '`parse` is Slack-only: write mentions and links in mrkdwn, `<@U123>` and `<https://example.com|label>`.',
    MESSAGE_FIELDS,
  ),
  response_type: see(
    "`response_type` belongs to a slash command's answer: every post is a new message in the channel; leave it out.",
    MESSAGE_FIELDS,
  ),
  replace_original: see(
    "`replace_original` belongs to a slash command's answer: every post is a new message; leave it out.",
    MESSAGE_FIELDS,
  ),
  delete_original: see(
    "`delete_original` belongs to a slash command's answer: every post is a new message; leave it out.",
    MESSAGE_FIELDS,
  ),
  metadata: see('`metadata` is Slack-only: messages carry no event metadata; leave it out.', MESSAGE_FIELDS),
};

const OTHER_BLOCKS = 'other-blocks';

// Block types Slack has and this endpoint does not.
const BLOCK_TYPE_HINTS: Record<string, string> = {
  image: see(
    '`image` blocks are Slack-only: send a `context` block with an `image` element (shown small) and a link to the full image in mrkdwn.',
    'image-blocks',
  ),
  actions: see(
    "`actions` blocks are Slack-only, and messages are not interactive: put each button's URL as a link in a section's mrkdwn text, `<https://example.com|label>`.",
    'actions-blocks',
  ),
  input: see('`input` blocks need a Slack app: messages are not interactive; leave it out.', OTHER_BLOCKS),
  video: see("`video` blocks are Slack-only: put a link to the video in a section's mrkdwn text.", OTHER_BLOCKS),
  file: see("`file` blocks are Slack-only: put a link to the file in a section's mrkdwn text.", OTHER_BLOCKS),
  call: see("`call` blocks are Slack-only: put a link to the call in a section's mrkdwn text.", OTHER_BLOCKS),
};

const SECTION_FIELDS = see(
  "Section `fields` are Slack-only: put each field on its own line of the section's mrkdwn `text`.",
  'section-fields',
);
const SECTION_TEXT = see(
  'A section\'s text is mrkdwn: send `"type": "mrkdwn"`, with `&`, `<` and `>` written `&amp;`, `&lt;` and `&gt;`.',
  'section-text',
);
const HEADER_TEXT = see(
  'A header\'s text is `plain_text`, as in Slack: send `"type": "plain_text"`; mrkdwn markup would show as typed.',
  'header-text',
);
const ACCESSORY = {
  image: see(
    "A section's `accessory` is Slack-only: put the image in a `context` block after the section (an `image` element), or link it in the section's text.",
    'section-accessory',
  ),
  button: see(
    "A section's `accessory` is Slack-only, and messages are not interactive: put the button's URL as a link in the section's text, `<https://example.com|label>`.",
    'section-accessory',
  ),
  other: see(
    "A section's `accessory` is Slack-only, and messages are not interactive: leave it out.",
    'section-accessory',
  ),
};
const VISIBLE_TEXT = see(
  'Slack takes blocks without `text`; here, without `text`, some block must show text (a header, section, markdown or context text, or a rich_text text or link): add a `text`, which is also the notification.',
  'blocks-without-text',
);
const INLINE_TYPE_HINTS: Record<string, string> = {
  team: see('The `team` element is Slack-only: name the team in a `text` element.', 'rich-text-elements'),
};

/** The hint for a top-level property the payload may not have, when it is a Slack message field. */
export const payloadPropertyHint = (name: string): string | undefined =>
  Object.hasOwn(PAYLOAD_PROPERTY_HINTS, name) ? PAYLOAD_PROPERTY_HINTS[name] : undefined;

/** The hint for a block `type` Slack has and this endpoint does not. */
export const blockTypeHint = (type: unknown): string | undefined =>
  typeof type === 'string' && Object.hasOwn(BLOCK_TYPE_HINTS, type) ? BLOCK_TYPE_HINTS[type] : undefined;

/** The hint for a rich_text inline element `type` Slack has and this endpoint does not. */
export const inlineTypeHint = (type: unknown): string | undefined =>
  typeof type === 'string' && Object.hasOwn(INLINE_TYPE_HINTS, type) ? INLINE_TYPE_HINTS[type] : undefined;

/** The hint for blocks that show no text in a payload without `text`. */
export const visibleTextHint = (): string => VISIBLE_TEXT;

/** A refusal that explains a Slack construct: where, the message, the hint. */
export interface SlackRefusal {
  pointer: string;
  message: string;
  hint: string;
}

/**
 * The Slack constructs of a header or section block that its schema refuses, each as one refusal,
 * and the pointers of the schema errors they explain (which are then not listed: one cause, one
 * error). Empty for any other block.
 */
export function explainBlock(
  block: Record<string, unknown>,
  pointer: string,
): { refusals: SlackRefusal[]; explained: Set<string> } {
  const refusals: SlackRefusal[] = [];
  const explained = new Set<string>();
  const text = block.text as { type?: unknown } | undefined;
  const textType = typeof text === 'object' && text !== null ? text.type : undefined;
  if (block.type === 'section') {
    if (block.fields !== undefined) {
      refusals.push({ pointer: `${pointer}/fields`, message: 'is not an allowed property', hint: SECTION_FIELDS });
      // The fields were the section's text: its absence is the same cause.
      if (block.text === undefined) explained.add(`${pointer}/text`);
    }
    if (block.accessory !== undefined) {
      const kind = (block.accessory as { type?: unknown } | null)?.type;
      const hint = kind === 'image' ? ACCESSORY.image : kind === 'button' ? ACCESSORY.button : ACCESSORY.other;
      refusals.push({ pointer: `${pointer}/accessory`, message: 'is not an allowed property', hint });
    }
    if (textType === 'plain_text') {
      refusals.push({ pointer: `${pointer}/text/type`, message: 'must be "mrkdwn"', hint: SECTION_TEXT });
      explained.add(`${pointer}/text/emoji`);
    }
  } else if (block.type === 'header' && textType === 'mrkdwn') {
    refusals.push({ pointer: `${pointer}/text/type`, message: 'must be "plain_text"', hint: HEADER_TEXT });
    explained.add(`${pointer}/text/verbatim`);
  }
  return { refusals, explained };
}
