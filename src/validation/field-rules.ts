// The contract's numbers and URL rules, in a module of their own so that code which must stay light
// (the sender's `fromSlackPayload`) follows the very rules the validator applies without loading TypeBox.

/** Most code points in `text`, after trimming. */
export const MAX_TEXT = 10_000;
/** Most code points in `eventId` or `Idempotency-Key`, after trimming. */
export const MAX_KEY = 200;
/** Most code points of all markdown blocks of one request together. */
export const MAX_MARKDOWN_TOTAL = 12_000;
/** Most code points in a `block_id`. */
export const MAX_BLOCK_ID = 255;
/** Most blocks in one request. */
export const MAX_BLOCKS = 50;
/** Most elements of a `context` block. */
export const MAX_CONTEXT_ELEMENTS = 10;
/** Most UTF-16 units of an image or link URL. */
export const MAX_URL = 3000;
/** Most UTF-16 units of an image's `alt_text`. */
export const MAX_ALT_TEXT = 2000;

/** An image URL, or an emoji's or a date's: http(s) only. */
export const WEB_URL = /^https?:\/\/\S+$/i;
/** A rich_text link's URL: http(s) or mailto. */
export const LINK_URL = /^(?:https?:\/\/|mailto:)\S+$/i;
/** NUL and lone surrogates cannot be stored as text by every database, nor encoded as UTF-8. */
export const UNSTORABLE = /[\0\p{Cs}]/u;
/** Most UTF-16 units of a user, channel or usergroup id. */
export const MAX_ID = 255;
/** Most UTF-16 units of an emoji's name or code points, a date's time zone, a code block's language. */
export const MAX_NAME = 100;
/** Most UTF-16 units of a date's format. */
export const MAX_DATE_FORMAT = 255;
/** Most UTF-16 units of a color's value. */
export const MAX_COLOR = 32;
/** Deepest indent of a rich_text list. */
export const MAX_INDENT = 8;
