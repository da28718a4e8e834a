// Any control, format, separator or space character anywhere in a URL is refused: browsers strip some
// of them before reading the scheme (`jav\tascript:`), and they can disguise where a link goes.
const UNSAFE_CHARS = /[\p{Cc}\p{Cf}\p{Cs}\p{Z}\s\\]/u;
const LINK_SCHEME = /^(?:https?:\/\/[^/]|mailto:[^/])/i;
const IMAGE_SCHEME = /^https?:\/\/[^/]/i;
const MAX_URL_LENGTH = 3000;

function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** Whether the URL is a path on the page's own origin (`/people/U1`), never `//host` or `/\\host`. */
function isSamePath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/**
 * The URL when it may be a link target: `http:`, `https:` or `mailto:`, or with `samePath` also a
 * same-origin path (what the app's own `mention` resolver answers with, `/people/U1`); `undefined`
 * otherwise. A sender's own links never get `samePath`: a relative link in a message would point into
 * the app that shows it.
 */
export function safeLinkUrl(url: unknown, samePath = false): string | undefined {
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH || UNSAFE_CHARS.test(url)) return undefined;
  if (samePath && isSamePath(url)) return url;
  return LINK_SCHEME.test(url) && parses(url) ? url : undefined;
}

/**
 * The URL when it may be an image source: `http(s)`, or with `samePath` also a same-origin path
 * (`/img?u=…`, what an image proxy usually answers with); `undefined` otherwise.
 */
export function safeImageUrl(url: unknown, samePath: boolean): string | undefined {
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH || UNSAFE_CHARS.test(url)) return undefined;
  if (samePath && isSamePath(url)) return url;
  return IMAGE_SCHEME.test(url) && parses(url) ? url : undefined;
}
