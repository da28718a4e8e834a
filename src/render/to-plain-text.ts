import { checkArguments } from './check-arguments.js';
import { emitText } from './emit-text.js';
import { createRoom, TEXT_PER_CHARACTER } from './output-limit.js';
import { parseBlocks } from './parse-blocks.js';
import { parseMrkdwn } from './parse-mrkdwn.js';
import { TEXT_CUT_MARK } from './text-writer.js';
import type { RenderableMessage, RenderOptions } from './render-types.js';

/**
 * The text of a stored message for a notification, a search index or a screen reader.
 *
 * `body` (the contract's fallback text) when it holds more than blanks, otherwise the blocks in
 * order: headers, sections, markdown, context texts, rich_text sections, lists (`• ` or `1. `,
 * indented two spaces a level), quotes and preformatted text, one block a line. mrkdwn and markdown
 * syntax is reduced to its words, a link reads `label (url)`, an image its alt text, mentions go
 * through `options.mention` (default `@U123`, `#C123`, `@S123`, `@here`, or the sender's label),
 * dates through `options.date` (default: the sender's fallback, else the format applied in the
 * element's time zone, UTC without one). No direction override or isolate (U+202A–U+202E,
 * U+2066–U+2069) is written. Deterministic, and linear in the size of the message: at most 8
 * characters per character of the message (its body and its blocks as JSON) plus 8,192; what would
 * pass that ends in `…`.
 *
 * @param message - `body` and `blocks` of a stored {@link Message}.
 * @param options - resolvers for mentions, emoji and dates, and the locale of dates; all optional (`image` is not used).
 * @returns The text, trimmed; `""` for a message with nothing to show.
 * @throws ChannelWebhookError `invalid_argument` when `message` or `options` has the wrong shape.
 *
 * @example
 * ```ts
 * import { toPlainText } from 'channel-webhooks/render';
 *
 * toPlainText({ body: 'Deploy *done* <https://ci.example/42|#42> for <@U123>', blocks: [] });
 * // 'Deploy done #42 (https://ci.example/42) for @U123'
 * ```
 */
export function toPlainText(message: RenderableMessage, options: RenderOptions = {}): string {
  checkArguments(message, options);
  const body = message.body ?? '';
  const blocks = body.trim() !== '' ? parseMrkdwn(body) : parseBlocks(message.blocks);
  return emitText(blocks, options, createRoom(message, TEXT_PER_CHARACTER, TEXT_CUT_MARK.length)).trim();
}
