// The one way the examples print what a sender chose (message text, webhook names). Printed raw, a
// newline or a terminal escape in it forges log lines or rewrites the terminal; a line separator
// breaks a log viewer's line; a bidi override makes text read as something else. Copy this file
// beside an example you take into your app.

// JSON.stringify escapes C0 controls, quotes, backslashes and lone surrogates. Left for here: DEL,
// the C1 controls (U+009B is a CSI that terminals act on), U+2028/U+2029, and the bidi marks,
// embeddings, overrides and isolates.
const UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` as one double-quoted line that holds no character a terminal or log viewer acts on; the
 * rest is kept, so the line stays readable.
 *
 * @param {string} text
 * @returns {string}
 * @example
 * escapeForLog('ok\n\u001b[31mFAKE'); // '"ok\\n\\u001b[31mFAKE"'
 */
export function escapeForLog(text) {
  return JSON.stringify(String(text)).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Prints one line per message: `#channel "author": "text"`.
 *
 * @param {import('channel-webhooks').Message} message
 * @example
 * createWebhookHandler({ store, onMessage: logMessage });
 */
export function logMessage(message) {
  console.log(
    `#${message.channelId} ${escapeForLog(message.author.name)}: ${message.body === '' ? '(blocks only)' : escapeForLog(message.body)}`,
  );
}
