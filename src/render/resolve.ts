import type { Inline, MentionKind } from './ast.js';
import { emojiByName } from './emoji-names.js';
import { formatSlackDate, isKnownTimeZone } from './format-date.js';
import type { MessageDate, RenderOptions, ResolvedEmoji, ResolvedMention } from './render-types.js';

const PREFIX = { user: '@', channel: '#', usergroup: '@', broadcast: '@' } as const;

// The shapes of Slack's ids and emoji names. Resolvers often build a URL or a file name from what
// they receive, so anything else (`../../account/delete?confirm=1`) never reaches them: it shows as
// the inert default.
const ID_SHAPE: Record<MentionKind, RegExp> = {
  user: /^[UW][A-Z0-9]{1,20}$/,
  channel: /^[CGD][A-Z0-9]{1,20}$/,
  usergroup: /^[SG][A-Z0-9]{1,20}$/,
  broadcast: /^(?:here|channel|everyone)$/,
};
const EMOJI_NAME = /^[a-z0-9_+'-]{1,100}(?:::skin-tone-[2-6])?$/;

/** Whether a resolver may be given this mention's id: it has the shape of a Slack id of its kind. */
export const isMentionId = (kind: MentionKind, id: string): boolean => ID_SHAPE[kind].test(id);

/** Whether a resolver may be given this emoji name: lowercase letters, digits and `_+'-`, as Slack names them. */
export const isEmojiName = (name: string): boolean => EMOJI_NAME.test(name);

/** The mention as the app resolves it, or its inert default. */
export function resolveMention(node: Inline & { t: 'mention' }, options: RenderOptions): ResolvedMention {
  const { kind, id, label } = node;
  const resolved = isMentionId(kind, id)
    ? options.mention?.(label === undefined ? { kind, id } : { kind, id, label })
    : undefined;
  if (resolved !== undefined) return { text: String(resolved.text), url: resolved.url };
  return { text: `${PREFIX[kind]}${label ?? id}` };
}

// Code points as hex joined by `-`, as rich_text gives them (`1f44d-1f3fb`).
const CODE_POINTS = /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9}$/i;

function unicodeOf(hex: string): string | undefined {
  const points = hex.split('-').map((part) => Number.parseInt(part, 16));
  return points.every((point) => point <= 0x10ffff && (point < 0xd800 || point > 0xdfff))
    ? String.fromCodePoint(...points)
    : undefined;
}

/**
 * The emoji as the app resolves it, or the Unicode form the message gives, or the one Slack's name
 * stands for, or `:name:`. Code points not in hex are not passed on.
 */
export function resolveEmoji(node: Inline & { t: 'emoji' }, options: RenderOptions): ResolvedEmoji & { text: string } {
  const { name } = node;
  const unicode = node.unicode !== undefined && CODE_POINTS.test(node.unicode) ? node.unicode : undefined;
  const known = isEmojiName(name);
  const fallback =
    (unicode === undefined ? undefined : unicodeOf(unicode)) ?? (known ? emojiByName(name) : undefined) ?? `:${name}:`;
  const answer = known ? options.emoji?.(name, unicode === undefined ? { name } : { name, unicode }) : undefined;
  const resolved: ResolvedEmoji | undefined = typeof answer === 'string' ? { text: answer } : answer;
  return { text: resolved?.text === undefined ? fallback : String(resolved.text), url: resolved?.url };
}

/**
 * The date as the app formats it, or the sender's fallback, or the format applied in its time zone.
 * A zone the runtime does not know is not passed on: the app's `Intl` call would throw on it.
 */
export function resolveDate(node: Inline & { t: 'date' }, options: RenderOptions): string {
  const { timestamp, format, fallback } = node;
  const timezone = node.timezone !== undefined && isKnownTimeZone(node.timezone) ? node.timezone : undefined;
  const date: MessageDate = { timestamp, format };
  if (fallback !== undefined) date.fallback = fallback;
  if (timezone !== undefined) date.timezone = timezone;
  const resolved = options.date?.(date);
  if (resolved !== undefined) return String(resolved);
  if (fallback !== undefined && fallback !== '') return fallback;
  return formatSlackDate(timestamp, format, { timeZone: timezone, locale: options.locale }) ?? String(timestamp);
}
