import type { Json } from './field-rules.js';
import { escapeMrkdwn } from './mrkdwn.js';

// The endpoint's rule for a payload without `text` (some block shows text that is not blank), and
// the text to add when Slack blocks show none: mentions, emoji and dates that Slack shows and that
// the rule does not count, written as the mrkdwn that shows them.

const shows = (text: unknown): boolean => typeof text === 'string' && text.trim() !== '';

/** The inline elements of a rich_text block, lists' items included. */
function inlineElements(block: Json): Json[] {
  return (block.elements as Json[]).flatMap((container) =>
    container.type === 'rich_text_list'
      ? (container.elements as Json[]).flatMap((item) => item.elements as Json[])
      : (container.elements as Json[]),
  );
}

/** Whether `blocks` (as the endpoint takes them) show text, as the endpoint counts it. */
export function showsText(blocks: Json[]): boolean {
  return blocks.some((block) => {
    switch (block.type) {
      case 'header':
      case 'section':
        return shows((block.text as Json).text);
      case 'markdown':
        return shows(block.text);
      case 'context':
        return (block.elements as Json[]).some((element) => element.type !== 'image' && shows(element.text));
      case 'rich_text':
        return inlineElements(block).some((inline) =>
          inline.type === 'text' ? shows(inline.text) : inline.type === 'link' && shows(inline.text ?? inline.url),
        );
      default:
        return false;
    }
  });
}

/** An inline element as mrkdwn. */
function inlineText(inline: Json): string {
  const value = (key: string): string => escapeMrkdwn(String(inline[key]));
  switch (inline.type) {
    case 'text':
      return value('text');
    case 'link':
      return shows(inline.text) ? `<${value('url')}|${value('text')}>` : `<${value('url')}>`;
    case 'emoji':
      return `:${value('name')}:`;
    case 'user':
      return `<@${value('user_id')}>`;
    case 'channel':
      return `<#${value('channel_id')}>`;
    case 'usergroup':
      return `<!subteam^${value('usergroup_id')}>`;
    case 'broadcast':
      return `<!${value('range')}>`;
    case 'date': {
      // Slack's date token: the date in the reader's time zone, the fallback where it cannot be formatted.
      const format = value('format').replace(/\|/g, '');
      return `<!date^${inline.timestamp}^${format}${shows(inline.fallback) ? `|${value('fallback')}` : ''}>`;
    }
    case 'color':
      return value('value');
    default:
      return '';
  }
}

function blockText(block: Json): string {
  switch (block.type) {
    case 'context':
      return (block.elements as Json[])
        .map((element) => escapeMrkdwn(String(element.type === 'image' ? element.alt_text : element.text)))
        .join(' ');
    case 'rich_text':
      return (block.elements as Json[])
        .map((container) =>
          container.type === 'rich_text_list'
            ? (container.elements as Json[])
                .map((item) => (item.elements as Json[]).map(inlineText).join(''))
                .join('\n')
            : (container.elements as Json[]).map(inlineText).join(''),
        )
        .join('\n');
    default:
      return '';
  }
}

/** A mrkdwn `text` that shows what `blocks` show without text of their own; `""` when they show nothing. */
export function textFromBlocks(blocks: Json[]): string {
  return blocks
    .map(blockText)
    .filter((text) => text.trim() !== '')
    .join('\n')
    .trim();
}
