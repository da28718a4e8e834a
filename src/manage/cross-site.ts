import type { HeaderValue } from '../http/http-types.js';

const one = (value: HeaderValue): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Whether a request comes from a page of another site, which the API refuses (403) whatever its
 * method: the browser's own `Sec-Fetch-Site` when it sends one (every current browser does), else
 * its `Origin` against the request's `Host`. A request with neither is no browser's cross-site
 * request (a command-line client, a server): it is answered, and its sign-in decides. An origin of
 * `trusted` is answered too.
 *
 * @param url - the request's URL: its host stands in for a missing `Host` when it is absolute.
 */
export function isCrossSite(
  headers: Readonly<Record<string, HeaderValue>>,
  url: string,
  trusted: ReadonlySet<string>,
): boolean {
  const origin = one(headers.origin);
  if (origin !== undefined && trusted.has(origin)) return false;
  const site = one(headers['sec-fetch-site']);
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  if (origin === undefined) return false;
  // `null` (a sandboxed frame, a redirect across sites, a file) and anything else that is no URL
  // cannot be told to be this site.
  let from: string;
  try {
    from = new URL(origin).host;
  } catch {
    return true;
  }
  return from !== (one(headers.host) ?? hostOf(url));
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
