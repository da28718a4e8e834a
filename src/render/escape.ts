// Embedding, override and isolate controls can make a label read as something else (`‮gpj.exe`):
// no output of the renderers holds one.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
const HTML_UNSAFE = /[&<>"'\u202a-\u202e\u2066-\u2069]/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double-quoted attribute values alike, without its bidirectional controls, in one pass. */
export function escapeHtml(value: string): string {
  return value.replace(HTML_UNSAFE, (char) => HTML_ESCAPES[char] ?? '');
}

/** Removes the bidirectional controls that can disguise a link or mention label. */
export function stripBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/** Decodes the three entities Slack escapes in mrkdwn (`&amp;`, `&lt;`, `&gt;`), in one pass. */
export function decodeSlackEntities(value: string): string {
  return value.replace(/&(amp|lt|gt);/g, (_, name: string) => (name === 'amp' ? '&' : name === 'lt' ? '<' : '>'));
}
