import { checkArguments } from './check-arguments.js';
import { emitHtml } from './emit-html.js';
import { HTML_CUT_MARK } from './html-writer.js';
import { createRoom, HTML_PER_CHARACTER } from './output-limit.js';
import { parseBlocks } from './parse-blocks.js';
import { parseMrkdwn } from './parse-mrkdwn.js';
import type { RenderableMessage, RenderOptions } from './render-types.js';

/**
 * Renders a stored message as an HTML fragment for a web client, safe by construction: every string
 * from the message is escaped, only the tags and attributes of {@link RENDER_ALLOW_LIST} are
 * written, no HTML in the message passes through, links are only `http:`, `https:` or `mailto:`
 * (others show as text) and carry `rel="noopener noreferrer nofollow"`, images are shown only
 * through `options.image` (otherwise their alt text), and no direction override or isolate
 * (U+202A–U+202E, U+2066–U+2069) is written.
 *
 * The blocks are rendered when there are any (`header`, `section`, `markdown`, `divider`, `context`,
 * `rich_text`, in order; unknown types are left out), otherwise `body` as Slack mrkdwn. Mentions,
 * emoji and dates go through the resolvers in `options`; without them mentions are inert
 * `span.cw-mention` text. Deterministic: the same message and options give the same HTML.
 *
 * Bounded: markdown nested deeper than a few levels reads as text at the deepest level, and the
 * HTML has at most 16 characters per character of the message (its body and its blocks as JSON)
 * plus 8,192; what would pass that ends in `<p class="cw-truncated">…</p>`.
 *
 * @param message - `body` and `blocks` of a stored {@link Message}.
 * @param options - resolvers for mentions, emoji, dates and images, and the locale of dates; all optional.
 * @returns The HTML fragment; `""` for a message with nothing to show.
 * @throws ChannelWebhookError `invalid_argument` when `message` or `options` has the wrong shape.
 *
 * @example
 * ```ts
 * import { toHtml } from 'channel-webhooks/render';
 *
 * toHtml({ body: 'Deploy *done* <https://ci.example/42|#42>', blocks: [] });
 * // '<p>Deploy <strong>done</strong> <a href="https://ci.example/42" rel="noopener noreferrer nofollow">#42</a></p>'
 *
 * toHtml(message, {
 *   mention: ({ kind, id }) => (kind === 'user' ? { text: `@${users.get(id)?.name ?? id}`, url: `https://chat.example.com/u/${id}` } : undefined),
 *   image: (url) => `/image-proxy?url=${encodeURIComponent(url)}`,
 * });
 * ```
 */
export function toHtml(message: RenderableMessage, options: RenderOptions = {}): string {
  checkArguments(message, options);
  const blocks = parseBlocks(message.blocks);
  const room = createRoom(message, HTML_PER_CHARACTER, HTML_CUT_MARK.length);
  return emitHtml(blocks.length > 0 ? blocks : parseMrkdwn(message.body ?? ''), options, room);
}
