// Writing plain text and links into a section's mrkdwn, as Slack reads it: `&`, `<` and `>` are the
// only characters with a meaning to escape; a link is `<url|label>`.

/** `text` as mrkdwn that reads as the text itself. */
export const escapeMrkdwn = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A mrkdwn link to `url` reading `label` (plain text); the URL alone when the label is blank. */
export function mrkdwnLink(url: string, label: string): string {
  // `|` ends the URL part of a link: written percent-encoded, it is the same URL.
  const target = escapeMrkdwn(url).replace(/\|/g, '%7C');
  return label.trim() === '' ? `<${target}>` : `<${target}|${escapeMrkdwn(label)}>`;
}

/** The text of a Slack text object as mrkdwn: a `mrkdwn` one as it is, a `plain_text` one escaped. */
export function textObjectAsMrkdwn(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, text } = value as { type?: unknown; text?: unknown };
  if (typeof text !== 'string') return undefined;
  if (type === 'mrkdwn') return text;
  if (type === 'plain_text') return escapeMrkdwn(text);
  return undefined;
}

/** The text of a Slack `plain_text` object (a button's label, an image's title), or of a bare string. */
export function plainTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const { text } = value as { text?: unknown };
  return typeof text === 'string' ? text : undefined;
}
