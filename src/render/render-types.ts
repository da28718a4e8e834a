import type { Message } from '../ports.js';

/**
 * What `toHtml` and `toPlainText` read from a message: its text and its blocks, as stored. A
 * {@link Message} is one; the blocks are typed loosely on purpose, since a renderer reads what a
 * store hands back and treats any block it does not know as nothing to show.
 *
 * @example
 * ```ts
 * const message: RenderableMessage = { body: 'Deploy *done*', blocks: [] };
 * ```
 */
export interface RenderableMessage {
  readonly body: string;
  readonly blocks: readonly unknown[];
}

/**
 * A mention in a message: `<@U1>`, `<#C1|general>`, `<!subteam^S1|@ops>`, `<!here>` or a rich_text one.
 *
 * @example
 * ```ts
 * const mention: Mention = { kind: 'channel', id: 'C1', label: 'general' }; // from <#C1|general>
 * ```
 */
export interface Mention {
  kind: 'user' | 'channel' | 'usergroup' | 'broadcast';
  /** The user, channel or user group id; for `broadcast`, `here`, `channel` or `everyone`. */
  id: string;
  /** The label the sender wrote after `|`, without its leading `@` or `#`: any text, so never part of a URL. */
  label?: string;
}

/**
 * How the app shows a mention: the text (with its `@` or `#`), and a link when it has a page for it.
 *
 * @example
 * ```ts
 * const shown: ResolvedMention = { text: '@ana', url: 'https://chat.example.com/people/U1' };
 * ```
 */
export interface ResolvedMention {
  text: string;
  /** Used only when it is an `http:`, `https:` or `mailto:` URL. */
  url?: string;
}

/**
 * An emoji in a message: `:name:` in mrkdwn or plain text, or a rich_text `emoji` element.
 *
 * @example
 * ```ts
 * const emoji: Emoji = { name: 'thumbsup', unicode: '1f44d' };
 * ```
 */
export interface Emoji {
  name: string;
  /** The rich_text element's code points, as hex joined by `-` (`1f44d-1f3fb`); left out when not in that form. */
  unicode?: string;
}

/**
 * How the app shows an emoji: as text (its Unicode form), or as an image from its own server.
 *
 * @example
 * ```ts
 * const shown: ResolvedEmoji = { text: ':partyparrot:', url: '/emoji/partyparrot.gif' };
 * ```
 */
export interface ResolvedEmoji {
  text?: string;
  /** An `http(s)` URL or a same-origin path; `toHtml` shows it as an `img`. */
  url?: string;
}

/**
 * A date in a message: `<!date^…>` in mrkdwn or a rich_text `date` element.
 *
 * @example
 * ```ts
 * const date: MessageDate = { timestamp: 1392734382, format: '{date_short}', fallback: 'Feb 18' }; // <!date^1392734382^{date_short}|Feb 18>
 * ```
 */
export interface MessageDate {
  /** Unix time in seconds. */
  timestamp: number;
  /** Slack's format string, with tokens such as `{date_short} {time}`. */
  format: string;
  /** The sender's text for clients that cannot format the date. */
  fallback?: string;
  /** The rich_text element's IANA time zone, when it names one the runtime knows (so `Intl` accepts it). */
  timezone?: string;
}

/**
 * Options of `toHtml` and `toPlainText`. Each is a resolver the app supplies; without one the
 * renderers use the inert defaults below.
 *
 * @example
 * ```ts
 * const options: RenderOptions = {
 *   mention: ({ kind, id }) => (kind === 'user' ? { text: `@${names.get(id) ?? id}`, url: `https://chat.example.com/people/${id}` } : undefined),
 *   locale: reader.locale,
 *   image: (url) => `/image-proxy?url=${encodeURIComponent(url)}`,
 * };
 * ```
 */
export interface RenderOptions {
  /**
   * Shows a mention. Default: `@U123`, `#C123`, `@S123` (or the sender's label), `@here`, as inert text.
   * Called only for ids of Slack's shape (`U…`/`W…` users, `C…`/`G…`/`D…` channels, `S…`/`G…` user
   * groups: an uppercase letter and up to 20 uppercase letters and digits; `here`, `channel`,
   * `everyone`); any other id shows as the default, so a URL built from `id` stays on its page.
   */
  mention?: (mention: Mention) => ResolvedMention | undefined;
  /**
   * Shows an emoji, by name (`tada` for `:tada:`): a string is the text to show, `undefined` the
   * default. Default: its Unicode form when the message gives it, else the one Slack shows for the
   * name (`:tada:` 🎉, `:+1::skin-tone-2:` 👍🏻; the names of emoji-datasource, the data set Slack's
   * names come from), else `:name:` (a workspace's own emoji). Called only for names of Slack's shape
   * (lowercase letters, digits and `_+'-`, up to 100, optionally `::skin-tone-2` … `6`); any other
   * name shows as the default.
   */
  emoji?: (name: string, emoji: Emoji) => ResolvedEmoji | string | undefined;
  /**
   * Formats a date. Default: the sender's fallback text, else the format applied (`formatSlackDate`)
   * in the element's `timezone` (UTC when it has none or the runtime does not know it) and `locale`.
   */
  date?: (date: MessageDate) => string | undefined;
  /** The BCP 47 locale dates are formatted in when `date` does not format them. Default: `en-US`. */
  locale?: string;
  /**
   * Maps an image URL from the message to the URL the page may load (typically the app's image
   * proxy); `undefined` leaves the image out. Default: none, so images show as their alt text and the
   * reader's browser never fetches a sender's URL. Only `toHtml` uses it.
   */
  image?: (url: string) => string | undefined;
}
