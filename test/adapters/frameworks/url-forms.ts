/** A way of writing a webhook URL's request target: `prefix` is the app's mount path (`''` or `/api`). */
export type UrlForm = (prefix: string, id: string, secret: string) => string;

/** Where a webhook can be posted: a Node adapter on its framework, or the Fetch adapter on a runtime. */
export type Server = 'node:http' | 'express' | 'koa' | 'fastify' | 'hono' | 'bun' | 'deno' | 'workerd';

const ALL: Server[] = ['node:http', 'express', 'koa', 'fastify', 'hono', 'bun', 'deno', 'workerd'];
// The servers that resolve dot segments before the adapter sees the URL.
const RESOLVING: Server[] = ['hono', 'bun'];

/**
 * Request targets that some adapter answers 201, written otherwise than the URL given at creation,
 * with the servers that answer them 201 (measured; mounted under `/api`): Bun and Hono's Node server
 * resolve dot segments and Bun reads `\` as `/` before the adapter sees the URL; Express matches
 * its mount path in any case, and every adapter but Fastify's router takes any prefix. Each one must
 * come out of the redactor without its secret.
 */
export const ACCEPTED_FORMS: Array<[string, UrlForm, Server[]]> = [
  ['the URL as given', (p, id, s) => `${p}/hooks/channels/${id}/${s}`, ALL],
  ['a dot segment', (p, id, s) => `${p}/hooks/channels/${id}/./${s}`, RESOLVING],
  ['an encoded dot segment', (p, id, s) => `${p}/hooks/channels/${id}/%2e/${s}`, RESOLVING],
  ['an upper-case encoded dot segment', (p, id, s) => `${p}/hooks/channels/${id}/%2E/${s}`, RESOLVING],
  ['a segment and `..` before the id', (p, id, s) => `${p}/hooks/channels/x/../${id}/${s}`, RESOLVING],
  ['a segment and an encoded `..`', (p, id, s) => `${p}/hooks/channels/x/%2E%2E/${id}/${s}`, RESOLVING],
  ['a half-encoded `..`', (p, id, s) => `${p}/hooks/channels/x/.%2e/${id}/${s}`, RESOLVING],
  ['`..` after the id', (p, id, s) => `${p}/hooks/channels/${id}/%2e%2e/${id}/${s}`, RESOLVING],
  ['`..` between hooks and channels', (p, id, s) => `${p}/hooks/x/../channels/${id}/${s}`, RESOLVING],
  ['a dot segment between hooks and channels', (p, id, s) => `${p}/hooks/./channels/${id}/${s}`, RESOLVING],
  ['an encoded dot segment between hooks and channels', (p, id, s) => `${p}/hooks/%2e/channels/${id}/${s}`, RESOLVING],
  [
    '`..` before hooks',
    (p, id, s) => `${p}/x/../hooks/channels/${id}/${s}`,
    ['node:http', 'express', 'koa', 'hono', 'bun', 'deno', 'workerd'],
  ],
  ['a backslash before the secret', (p, id, s) => `${p}/hooks/channels/${id}\\${s}`, ['bun']],
  ['backslashes around `..`', (p, id, s) => `${p}/hooks\\x\\..\\channels/${id}/${s}`, ['bun']],
  ['a dot and a backslash', (p, id, s) => `${p}/hooks/channels/${id}/.\\${s}`, ['bun']],
  ['backslashes throughout', (p, id, s) => `${p}\\hooks\\channels\\${id}\\${s}`, ['bun']],
  ['a raw quote removed by `..`', (p, id, s) => `${p}/hooks/channels/${id}/"/../${s}`, RESOLVING],
  ['a raw quote as the id segment', (p, id, s) => `${p}/hooks/channels/"/../${id}/${s}`, RESOLVING],
  ['a no-break space removed by `..`', (p, id, s) => `${p}/hooks/channels/${id}/\u00a0/../${s}`, ['bun']],
  [
    'a prefix in another case',
    (p, id, s) => `${p.toUpperCase()}/hooks/channels/${id}/${s}`,
    ['node:http', 'express', 'koa', 'bun', 'deno', 'workerd'],
  ],
  [
    'a doubled leading slash',
    (p, id, s) => `/${p}/hooks/channels/${id}/${s}`,
    ['node:http', 'koa', 'bun', 'deno', 'workerd'],
  ],
  [
    'a doubled slash before hooks',
    (p, id, s) => `${p}//hooks/channels/${id}/${s}`,
    ['node:http', 'express', 'koa', 'bun', 'deno', 'workerd'],
  ],
  ['an absolute URL', (p, id, s) => `http://127.0.0.1${p}/hooks/channels/${id}/${s}`, ALL],
  ['a fragment', (p, id, s) => `${p}/hooks/channels/${id}/${s}#top`, ALL],
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
  ['a trailing dot segment', (p, id, s) => `${p}/hooks/channels/${id}/${s}/.`],
  ['a secret with a semicolon parameter', (p, id, s) => `${p}/hooks/channels/${id}/${s};x=1`],
];
