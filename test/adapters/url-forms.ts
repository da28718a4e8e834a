/** A way of writing a webhook URL's request target: `prefix` is the app's mount path (`''` or `/api`). */
export type UrlForm = (prefix: string, id: string, secret: string) => string;

/**
 * Request targets that some adapter answers 201, written otherwise than the URL given at creation:
 * the Fetch runtimes (Bun, Hono's Node server) resolve dot segments and Bun reads `\` as `/`
 * before the adapter sees the URL; Express and Koa match their mount path in any case. Each one
 * must come out of the redactor without its secret.
 */
export const ACCEPTED_FORMS: Array<[string, UrlForm]> = [
  ['the URL as given', (p, id, s) => `${p}/hooks/channels/${id}/${s}`],
  ['a dot segment', (p, id, s) => `${p}/hooks/channels/${id}/./${s}`],
  ['an encoded dot segment', (p, id, s) => `${p}/hooks/channels/${id}/%2e/${s}`],
  ['an upper-case encoded dot segment', (p, id, s) => `${p}/hooks/channels/${id}/%2E/${s}`],
  ['a segment and `..` before the id', (p, id, s) => `${p}/hooks/channels/x/../${id}/${s}`],
  ['a segment and an encoded `..`', (p, id, s) => `${p}/hooks/channels/x/%2E%2E/${id}/${s}`],
  ['a half-encoded `..`', (p, id, s) => `${p}/hooks/channels/x/.%2e/${id}/${s}`],
  ['`..` after the id', (p, id, s) => `${p}/hooks/channels/${id}/%2e%2e/${id}/${s}`],
  ['`..` between hooks and channels', (p, id, s) => `${p}/hooks/x/../channels/${id}/${s}`],
  ['a dot segment between hooks and channels', (p, id, s) => `${p}/hooks/./channels/${id}/${s}`],
  ['an encoded dot segment between hooks and channels', (p, id, s) => `${p}/hooks/%2e/channels/${id}/${s}`],
  ['`..` before hooks', (p, id, s) => `${p}/x/../hooks/channels/${id}/${s}`],
  ['a backslash before the secret', (p, id, s) => `${p}/hooks/channels/${id}\\${s}`],
  ['backslashes around `..`', (p, id, s) => `${p}/hooks\\x\\..\\channels/${id}/${s}`],
  ['a dot and a backslash', (p, id, s) => `${p}/hooks/channels/${id}/.\\${s}`],
  ['a raw quote removed by `..`', (p, id, s) => `${p}/hooks/channels/${id}/"/../${s}`],
  ['a raw quote as the id segment', (p, id, s) => `${p}/hooks/channels/"/../${id}/${s}`],
  ['a no-break space removed by `..`', (p, id, s) => `${p}/hooks/channels/${id}/\u00a0/../${s}`],
  ['a prefix in another case', (p, id, s) => `${p.toUpperCase()}/hooks/channels/${id}/${s}`],
  ['a doubled leading slash', (p, id, s) => `/${p}/hooks/channels/${id}/${s}`],
  ['a doubled slash before hooks', (p, id, s) => `${p}//hooks/channels/${id}/${s}`],
  ['an absolute URL', (p, id, s) => `http://127.0.0.1${p}/hooks/channels/${id}/${s}`],
  ['a fragment', (p, id, s) => `${p}/hooks/channels/${id}/${s}#top`],
];

/** Request targets that no adapter accepts but that still carry the live secret into an access log. */
export const NEAR_MISSES: Array<[string, UrlForm]> = [
  ['a trailing slash', (p, id, s) => `${p}/hooks/channels/${id}/${s}/`],
  ['a doubled slash before the secret', (p, id, s) => `${p}/hooks/channels/${id}//${s}`],
  ['a doubled slash before the id', (p, id, s) => `${p}/hooks/channels//${id}/${s}`],
  ['a doubled slash between hooks and channels', (p, id, s) => `${p}/hooks//channels/${id}/${s}`],
  ['an extra segment', (p, id, s) => `${p}/hooks/channels/${id}/${s}/extra`],
  ['Hooks capitalised', (p, id, s) => `${p}/Hooks/channels/${id}/${s}`],
  ['the route in capitals', (p, id, s) => `${p}/HOOKS/CHANNELS/${id}/${s}`],
  ['an encoded slash before the secret', (p, id, s) => `${p}/hooks/channels/${id}%2F${s}`],
  ['encoded slashes throughout', (p, id, s) => `${p}/hooks%2fchannels%2f${id}%2f${s}`],
  ['an encoded backslash', (p, id, s) => `${p}/hooks/channels/${id}%5C${s}`],
  ['backslashes throughout', (p, id, s) => `${p}\\hooks\\channels\\${id}\\${s}`],
  ['a trailing dot segment', (p, id, s) => `${p}/hooks/channels/${id}/${s}/.`],
  ['a secret with a semicolon parameter', (p, id, s) => `${p}/hooks/channels/${id}/${s};x=1`],
];
