const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and for double-quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

// Embedding, override and isolate controls can make a label read as something else (`‮gpj.exe`).
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Removes the bidirectional controls that can disguise a link or mention label. */
export function stripBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/** Decodes the three entities Slack escapes in mrkdwn (`&amp;`, `&lt;`, `&gt;`), in one pass. */
export function decodeSlackEntities(value: string): string {
  return value.replace(/&(amp|lt|gt);/g, (_, name: string) => (name === 'amp' ? '&' : name === 'lt' ? '<' : '>'));
}
