// The API reference: one module per entry point of the package, taken from tsup.config.ts so that a
// new entry point is documented (and checked) as soon as it is built, and named as users import it
// (`channel-webhooks/express`). `npm run docs` writes it to docs/api (git-ignored); `npm test` runs
// the same with nothing written and every warning an error: an exported function, class, interface,
// type, constant or interface method without documentation, a link that leads nowhere. Its front
// page is docs/api-index.md, with a line per entry point (test/docs/api-front-page.test.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const tsup = readFileSync(new URL('./tsup.config.ts', import.meta.url), 'utf8');
// Every `name: 'source.ts'` of the file: the shared build's entries and the element's build of its own.
const sources = new Map(
  [...tsup.matchAll(/['"]?([\w-]+)['"]?:\s*['"]([^'"]+\.ts)['"]/g)].map(([, name, path]) => [name, path]),
);
const entries = [...sources].map(([name, path]) => ({
  name: name === 'index' ? 'channel-webhooks' : `channel-webhooks/${name}`,
  path: resolve(path),
}));
const manifest = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
// The modules; `./package.json` and `./render.css` are files.
const exported = Object.entries(manifest.exports)
  .filter(([, conditions]) => typeof conditions !== 'string')
  .map(([subpath]) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
const missing = exported.filter((name) => !entries.some((entry) => entry.name === name));
if (missing.length > 0) throw new Error(`typedoc.config.mjs: no entry in tsup.config.ts for ${missing.join(', ')}`);

/**
 * Names each entry point's module by its import path instead of its source folder.
 *
 * @param {import('typedoc').Application} app
 */
export function load(app) {
  app.converter.on('createDeclaration', (context, reflection) => {
    if (reflection.parent !== context.project) return;
    const source = reflection.sources?.[0]?.fullFileName ?? context.program.getSourceFile(reflection.name)?.fileName;
    const entry = entries.find(({ path }) => path === resolve(source ?? ''));
    if (entry !== undefined) reflection.name = entry.name;
  });
}

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'channel-webhooks',
  // Only what the package exports is its API: a built file that is not exported (the command) is not.
  entryPoints: entries.filter(({ name }) => exported.includes(name)).map(({ path }) => path),
  plugin: [fileURLToPath(import.meta.url)],
  out: 'docs/api',
  highlightLanguages: [
    'bash',
    'console',
    'css',
    'html',
    'http',
    'javascript',
    'json',
    'jsonc',
    'json5',
    'sh',
    'sql',
    'tsx',
    'typescript',
    'yaml',
  ],
  // The front page: what the library is, how to install it, where to start, and a line per entry.
  readme: 'docs/api-index.md',
  excludePrivate: true,
  excludeInternal: true,
  requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias'],
  // Call members of the shapes a client library or driver already has (node-postgres, ioredis, a Koa
  // context, a synchronous SQLite driver): the interface's own comment says what is expected of them.
  intentionallyNotDocumented: [
    'channel-webhooks/koa.KoaLikeContext.set',
    'channel-webhooks/postgres.PostgresQueryable.query',
    'channel-webhooks/redis.RedisCallClient.call',
    'channel-webhooks/sqlite.SqliteDatabase.prepare',
    'channel-webhooks/sqlite.SqliteDatabase.exec',
    'channel-webhooks/sqlite.SqliteStatement.run',
    'channel-webhooks/sqlite.SqliteStatement.get',
    'channel-webhooks/sqlite.SqliteStatement.all',
    'channel-webhooks/deno-kv.DenoKv.get',
    'channel-webhooks/deno-kv.DenoKv.getMany',
    'channel-webhooks/deno-kv.DenoKv.list',
    'channel-webhooks/deno-kv.DenoKv.atomic',
    'channel-webhooks/deno-kv.DenoKv.watch',
    'channel-webhooks/deno-kv.DenoKv.commitVersionstamp',
    'channel-webhooks/deno-kv.DenoKvAtomicOperation.check',
    'channel-webhooks/deno-kv.DenoKvAtomicOperation.set',
    'channel-webhooks/deno-kv.DenoKvAtomicOperation.delete',
    'channel-webhooks/deno-kv.DenoKvAtomicOperation.commit',
  ],
  // A type may name an internal one (`Static<typeof schema>`): the reference shows its name, which
  // is not a broken link, so only missing documentation and links that lead nowhere fail.
  validation: {
    notExported: false,
    invalidLink: true,
    notDocumented: true,
    rewrittenLink: true,
    unusedMergeModuleWith: true,
  },
  treatWarningsAsErrors: true,
  externalSymbolLinkMappings: { '@types/node': { '*': 'https://nodejs.org/api/' } },
  // tsc type-checks the project (npm run typecheck); this only documents it.
  skipErrorChecking: true,
  sourceLinkTemplate: 'https://github.com/channel-webhooks/channel-webhooks/blob/main/{path}#L{line}',
};
