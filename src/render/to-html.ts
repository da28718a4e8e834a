import { blocks as emitHtml } from './emit-html.js';
import { checkArguments } from './check-arguments.js';
import { parseBlocks } from './parse-blocks.js';
import { parseMrkdwn } from './parse-mrkdwn.js';
import type { RenderableMessage, RenderOptions } from './render-types.js';

/**
 * Renders a stored message as an HTML fragment for a web client, safe by construction: every string
 * from the message is escaped, only the tags and attributes of {@link RENDER_ALLOW_LIST} are
 * written, no HTML in the message passes through, links are only `http:`, `https:` or `mailto:`
 * (others show as text) and carry `rel="noopener noreferrer nofollow"`, and images are shown only
 * through `options.image` (otherwise their alt text).
 *
 * The blocks are rendered when there are any (`header`, `section`, `markdown`, `divider`, `context`,
 * `rich_text`, in order; unknown types are left out), otherwise `body` as Slack mrkdwn. Mentions,
 * emoji and dates go through the resolvers in `options`; without them mentions are inert
 * `span.cw-mention` text. Deterministic: the same message and options give the same HTML.
 *
 * @param message - `body` and `blocks` of a stored {@link Message}.
 * @param options - resolvers for mentions, emoji, dates and images; all optional.
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
 *   mention: ({ kind, id }) => (kind === 'user' ? { text: `@${users.get(id)?.name ?? id}`, url: `/u/${id}` } : undefined),
 *   image: (url) => `/image-proxy?url=${encodeURIComponent(url)}`,
 * });
 * ```
 */
export function toHtml(message: RenderableMessage, options: RenderOptions = {}): string {
  checkArguments(message, options);
  const blocks = parseBlocks(message.blocks);
  return emitHtml(blocks.length > 0 ? blocks : parseMrkdwn(message.body ?? ''), options);
}
