import { MAX_KEY, MAX_TEXT, UNSTORABLE } from '../validation/field-rules.js';
import type { WebhookPayload } from '../validation/payload-types.js';
import { hasTrimmedLength } from '../validation/text.js';
import { child, createChangeLog, type ChangeLog, type SlackChange } from './slack/change-log.js';
import { convertAttachment, type Fallback } from './slack/convert-attachment.js';
import { convertBlock, type Output } from './slack/convert-blocks.js';
import { isObject, type Json } from './slack/field-rules.js';
import { showsText, textFromBlocks } from './slack/visible-text.js';

export type { SlackChange } from './slack/change-log.js';

/**
 * What {@link fromSlackPayload} made of a Slack payload: the payload to send, or `null` when
 * nothing usable is left, and every part it dropped or changed.
 *
 * @example
 * ```ts
 * const { payload, changes }: SlackConversion = fromSlackPayload({ text: 'Deploy 42 finished', username: 'ci' });
 * // payload: { text: 'Deploy 42 finished' }
 * // changes: [{ pointer: '/username', action: 'dropped', message: 'is Slack-only: …' }]
 * ```
 */
export interface SlackConversion {
  /** A payload the endpoint accepts; `null` when the Slack payload holds nothing this endpoint can show. */
  payload: WebhookPayload | null;
  /** Every part of the Slack payload that was dropped or changed, and every part that was added, in order. */
  changes: SlackChange[];
}

// Fields of a Slack message that a post here does not have, and why each is dropped.
const SLACK_ONLY: Record<string, string> = {
  username: 'is Slack-only: the author is always the webhook, under the name it was created with',
  icon_emoji: 'is Slack-only: the chat app shows the webhook as the author',
  icon_url: 'is Slack-only: the chat app shows the webhook as the author',
  channel: 'is Slack-only: a webhook posts to its own channel',
  thread_ts: 'is Slack-only: there are no threads here',
  reply_broadcast: 'is Slack-only: there are no threads here',
  mrkdwn: 'is Slack-only: text is always mrkdwn here',
  unfurl_links: 'is Slack-only: links are never unfurled here',
  unfurl_media: 'is Slack-only: links are never unfurled here',
  link_names: 'is Slack-only: a mention here is written <@U123> in mrkdwn',
  parse: 'is Slack-only: mentions and links here are written in mrkdwn',
  response_type: "belongs to a slash command's answer: every post here is a new message",
  replace_original: "belongs to a slash command's answer: every post here is a new message",
  delete_original: "belongs to a slash command's answer: every post here is a new message",
  metadata: 'is Slack-only: messages carry no event metadata here',
  token: "is Slack's Web API credential: a webhook's URL is its only credential (rotate the token if it is real)",
  as_user: "belongs to Slack's Web API: the author is always the webhook",
};

const REPLACEMENT = new RegExp(UNSTORABLE.source, 'gu');

/** Calls `visit` with every string under `root` and its pointer. Iterative, so no nesting overflows the stack. */
function forEachString(root: Json, visit: (holder: Json, key: string, at: string, text: string) => void): void {
  const pending: [Json, string][] = [[root, '']];
  while (pending.length > 0) {
    const [holder, pointer] = pending.pop()!;
    for (const [key, value] of Object.entries(holder)) {
      const at = child(pointer, Array.isArray(holder) ? Number(key) : key);
      if (typeof value === 'string') visit(holder, key, at, value);
      else if (typeof value === 'object' && value !== null) pending.push([value as Json, at]);
    }
  }
}

/**
 * `payload`, or when a string in it holds U+0000 or an unpaired surrogate (which cannot be stored),
 * a copy with those replaced by U+FFFD.
 */
function storable(payload: Json, log: ChangeLog): Json {
  let unstorable = false;
  forEachString(payload, (_holder, _key, _at, text) => {
    unstorable ||= UNSTORABLE.test(text);
  });
  if (!unstorable) return payload;
  const copy = structuredClone(payload);
  forEachString(copy, (holder, key, at, text) => {
    if (!UNSTORABLE.test(text)) return;
    holder[key] = text.replace(REPLACEMENT, '\uFFFD');
    log.repaired(at, 'held U+0000 or an unpaired surrogate, which cannot be stored: each is now U+FFFD');
  });
  return copy;
}

/** `text` trimmed and cut to the most code points a text may have, when it has more. */
function fitText(text: string): { text: string; cut: boolean } {
  if (hasTrimmedLength(text, MAX_TEXT)) return { text, cut: false };
  return { text: [...text.trim()].slice(0, MAX_TEXT).join(''), cut: true };
}

const CUT = `cut to ${MAX_TEXT.toLocaleString('en-US')} characters, the most a text may have`;

function convertText(value: unknown, log: ChangeLog): string | undefined {
  if (typeof value !== 'string') {
    log.dropped('/text', 'must be a string');
    return undefined;
  }
  if (value.trim() === '') {
    log.dropped('/text', 'is blank: a text here shows something');
    return undefined;
  }
  const fitted = fitText(value);
  if (fitted.cut) log.changed('/text', '/text', CUT);
  return fitted.text;
}

/**
 * Converts a payload written for Slack's incoming webhooks into one this endpoint accepts, and
 * lists every part it dropped or changed with its JSON pointer. What it does:
 *
 * - section `fields` become lines of the section's mrkdwn text; a `plain_text` section text
 *   becomes mrkdwn (escaped, so that it reads the same);
 * - an `image` block, or a section's image `accessory`, becomes a `context` block with the image
 *   (shown small) where the contract allows one (an http(s) URL and an alt text), else a link;
 * - `actions` buttons, and a section's button `accessory`, become links reading their label (a
 *   button without a URL, its label); other interactive elements are dropped;
 * - legacy `attachments` become sections (title, text, a line per field), context blocks (author,
 *   images, footer) and links (buttons); the colour bar and the footer's icon (its text would
 *   repeat the footer's) are dropped; an attachment's `fallback` becomes the `text` when there is none;
 * - `text` is kept as the notification fallback; when there is none and the blocks show no text of
 *   their own (only mentions, emoji or dates), one is made from them;
 * - `username`, `icon_emoji`, `channel`, `thread_ts` and Slack's other message fields are dropped.
 *
 * A payload the endpoint already accepts comes back as it is, with no change. The endpoint itself
 * keeps refusing Slack-only fields: this conversion is the sender's. Web standards only.
 *
 * @param slack - a parsed JSON value: the body a sender posts to a Slack incoming webhook.
 * @returns `{ payload, changes }`: `payload` passes `validatePayload` (it is `null` when nothing
 *   usable is left, such as a lone divider); its size is not checked here.
 * @example
 * ```ts
 * import { fromSlackPayload } from 'channel-webhooks/send';
 *
 * const { payload, changes } = fromSlackPayload({
 *   text: 'Deploy 42 finished',
 *   username: 'ci-bot',
 *   blocks: [{ type: 'section', fields: [{ type: 'mrkdwn', text: '*Env*: prod' }, { type: 'mrkdwn', text: '*Build*: 42' }] }],
 * });
 * // payload: { text: 'Deploy 42 finished', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Env*: prod\n*Build*: 42' } }] }
 * for (const change of changes) console.error(change.action, change.pointer, change.message);
 * // dropped /username is Slack-only: the author is always the webhook, …
 * // changed /blocks/0/fields Slack's two columns of fields: each field is now a line of the section's mrkdwn text
 * ```
 */
export function fromSlackPayload(slack: unknown): SlackConversion {
  const log = createChangeLog();
  if (!isObject(slack)) {
    log.dropped('', 'is not a JSON object, as a Slack message payload is');
    return { payload: null, changes: log.list };
  }
  const input = storable(slack, log);
  const out: Output = { blocks: [], markdown: 0, log };
  const fallbacks: Fallback[] = [];
  let text: string | undefined;
  let eventId: string | undefined;
  for (const [key, value] of Object.entries(input)) {
    switch (key) {
      case 'text':
        text = convertText(value, log);
        break;
      case 'blocks':
        if (!Array.isArray(value)) log.dropped('/blocks', 'must be an array');
        else if (value.length === 0) log.dropped('/blocks', 'holds no block');
        else for (const [index, block] of value.entries()) convertBlock(block, `/blocks/${index}`, out);
        break;
      case 'attachments':
        // Slack shows attachments after the blocks, wherever the field is.
        break;
      case 'eventId':
        if (typeof value === 'string' && hasTrimmedLength(value, MAX_KEY)) eventId = value;
        else log.dropped('/eventId', `must be a string of 1 to ${MAX_KEY} characters after trimming`);
        break;
      default:
        log.dropped(
          child('', key),
          Object.hasOwn(SLACK_ONLY, key) ? SLACK_ONLY[key]! : 'is not a field of a message here',
        );
    }
  }
  if (Object.hasOwn(input, 'attachments')) {
    const { attachments } = input;
    if (!Array.isArray(attachments)) log.dropped('/attachments', 'must be an array');
    else if (attachments.length === 0) log.dropped('/attachments', 'holds no attachment');
    else
      for (const [index, attachment] of attachments.entries())
        convertAttachment(attachment, `/attachments/${index}`, out, fallbacks);
  }

  if (text !== undefined) {
    for (const fallback of fallbacks)
      log.dropped(fallback.at, "is not needed: the message's text is its notification fallback here");
  } else if (fallbacks.length > 0) {
    const fitted = fitText(fallbacks.map((fallback) => fallback.text).join('\n'));
    text = fitted.text;
    for (const fallback of fallbacks)
      log.changed(
        fallback.at,
        '/text',
        `is now the message's text, its notification fallback${fitted.cut ? ` (all of them ${CUT})` : ''}`,
      );
  }
  if (text === undefined && out.blocks.length > 0 && !showsText(out.blocks)) {
    const made = textFromBlocks(out.blocks);
    if (made !== '') {
      const fitted = fitText(made);
      text = fitted.text;
      log.added(
        '/blocks',
        '/text',
        `a text made from what the blocks show: without a text, some block here must show text of its own${fitted.cut ? ` (${CUT})` : ''}`,
      );
    }
  }
  if (text === undefined && !showsText(out.blocks)) return { payload: null, changes: log.list };
  if (log.list.length === 0) return { payload: slack as unknown as WebhookPayload, changes: [] };

  const payload: Json = {};
  if (text !== undefined) payload.text = text;
  if (out.blocks.length > 0) payload.blocks = out.blocks;
  if (eventId !== undefined) payload.eventId = eventId;
  return { payload: payload as unknown as WebhookPayload, changes: log.list };
}
