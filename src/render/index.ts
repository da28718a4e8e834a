export { toHtml } from './to-html.js';
export { toPlainText } from './to-plain-text.js';
export { LINK_REL, RENDER_ALLOW_LIST } from './allow-list.js';
export { formatSlackDate, type SlackDateOptions } from './format-date.js';
export type {
  Emoji,
  Mention,
  MessageDate,
  RenderableMessage,
  RenderOptions,
  ResolvedEmoji,
  ResolvedMention,
} from './render-types.js';
