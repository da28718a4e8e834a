import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

// The built package is imported by its own name from the repository root, so Node resolves it
// through the `exports` map exactly as it would for a user.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

interface Conditions {
  types: string;
  default: string;
}
/** An entry's conditions: its ES module and its CommonJS entry, or one module for both (the element). */
type ExportEntry = { import: Conditions; require: Conditions } | Conditions | string;

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  main: string;
  module: string;
  types: string;
  exports: Record<string, ExportEntry>;
};
const subpaths = Object.entries(manifest.exports).filter(
  (entry): entry is [string, Exclude<ExportEntry, string>] => typeof entry[1] !== 'string',
);
const specifier = (subpath: string) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`);
/** Every set of conditions that ends in files: `{ types, default }`. */
const leaves = (entry: Exclude<ExportEntry, string>): Conditions[] =>
  'default' in entry ? [entry] : [entry.import, entry.require];

async function node(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, args, { cwd: root, timeout: 20_000 });
  return JSON.parse(stdout);
}
const esm = (source: string) => node(['--input-type=module', '-e', source]);
const cjs = (source: string) =>
  node(['-e', `(async () => {\n${source}\n})().catch((error) => { console.error(error); process.exit(1); });`]);

/** Posts one message end to end; `lib` is the main entry point and `fetchAdapter` the `/fetch` one. */
const endToEnd = `
const names = ['createWebhookHandler', 'createWebhookManager', 'createMemoryStore', 'createMemoryRateLimiter',
  'createFakeClock', 'isChannelWebhookError', 'matchWebhookPath', 'ChannelWebhookError'];
const kinds = Object.fromEntries(names.map((name) => [name, typeof lib[name]]));
const clock = lib.createFakeClock(Date.UTC(2026, 0, 1));
const store = lib.createMemoryStore();
await store.putChannel({ id: 'general', ownerId: 'u1', archived: false });
const manager = lib.createWebhookManager({ store, baseUrl: 'https://chat.example.com', clock });
const { url } = await manager.create({ userId: 'u1', role: 'member' }, { channelId: 'general', name: 'CI' });
const handle = lib.createWebhookHandler({ store, clock, rateLimiter: lib.createMemoryRateLimiter() });
const direct = await handle({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"text":"direct"}' });
const viaFetch = await fetchAdapter.createFetchHandler(handle)(
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"via fetch"}' }),
);
const fetchBody = await viaFetch.json();
let forbidden;
try {
  await manager.create({ userId: 'u2', role: 'member' }, { channelId: 'general', name: 'CI' });
} catch (error) {
  forbidden = { code: error.code, isError: lib.isChannelWebhookError(error, 'forbidden') };
}
process.stdout.write(JSON.stringify({
  kinds,
  systemClock: typeof lib.systemClock.now,
  direct: { status: direct.status, body: direct.body.message.body, author: direct.body.message.author.name },
  viaFetch: { status: viaFetch.status, body: fetchBody.message.body, contentType: viaFetch.headers.get('content-type') },
  stored: (await store.listMessages('general')).map((message) => message.body),
  forbidden,
}));
`;

const expectedEndToEnd = {
  kinds: {
    createWebhookHandler: 'function',
    createWebhookManager: 'function',
    createMemoryStore: 'function',
    createMemoryRateLimiter: 'function',
    createFakeClock: 'function',
    isChannelWebhookError: 'function',
    matchWebhookPath: 'function',
    ChannelWebhookError: 'function',
  },
  systemClock: 'function',
  direct: { status: 201, body: 'direct', author: 'CI' },
  viaFetch: { status: 201, body: 'via fetch', contentType: 'application/json' },
  stored: ['direct', 'via fetch'],
  forbidden: { code: 'forbidden', isError: true },
};

/** The type of each export of a module, by name. */
const exportKinds =
  'Object.fromEntries(Object.entries(mod).filter(([name]) => name !== "default" && name !== "__esModule").map(([name, value]) => [name, typeof value]))';

describe('the built package', () => {
  beforeAll(() => {
    expect(existsSync(join(root, manifest.module)), `${manifest.module} is missing: run npm run build first`).toBe(
      true,
    );
  });

  it('every file named in package.json exists in dist, types included', () => {
    const named = [manifest.main, manifest.module, manifest.types];
    for (const [, entry] of subpaths) for (const leaf of leaves(entry)) named.push(leaf.types, leaf.default);
    const missing = named.filter((file) => !existsSync(join(root, file)));
    expect(missing).toEqual([]);
  });

  it('lists types first in every condition, as TypeScript requires', () => {
    for (const [, entry] of subpaths) for (const leaf of leaves(entry)) expect(Object.keys(leaf)[0]).toBe('types');
  });

  it('imported as ESM, posts a message end to end', async () => {
    const result = await esm(
      `const lib = await import('${manifest.name}');\nconst fetchAdapter = await import('${manifest.name}/fetch');\n${endToEnd}`,
    );
    expect(result).toEqual(expectedEndToEnd);
  });

  it('required as CJS, posts a message end to end', async () => {
    const result = await cjs(
      `const lib = require('${manifest.name}');\nconst fetchAdapter = require('${manifest.name}/fetch');\n${endToEnd}`,
    );
    expect(result).toEqual(expectedEndToEnd);
  });

  // The CommonJS entries require() the ES modules: an app (or two of its dependencies) that both
  // requires and imports the package gets one error class, one clock, one memory store.
  it('required and imported in one process, gives the very same functions and classes', async () => {
    const result = await cjs(`
const required = require('${manifest.name}');
const imported = await import('${manifest.name}');
const error = new required.ChannelWebhookError('forbidden', 'no');
process.stdout.write(JSON.stringify({
  sameFunction: required.createWebhookHandler === imported.createWebhookHandler,
  sameClass: required.ChannelWebhookError === imported.ChannelWebhookError,
  instanceOfImported: error instanceof imported.ChannelWebhookError,
  file: require.resolve('${manifest.name}').slice(${JSON.stringify(root.length + 1)}),
}));`);
    expect(result).toEqual({ sameFunction: true, sameClass: true, instanceOfImported: true, file: 'dist/index.cjs' });
  });

  it.each(subpaths.map(([subpath]) => specifier(subpath)).filter((name) => name !== manifest.name))(
    '%s loads as ESM and as CJS with the same function exports',
    async (name) => {
      const fromEsm = (await esm(
        `const mod = await import('${name}');\nprocess.stdout.write(JSON.stringify(${exportKinds}));`,
      )) as Record<string, string>;
      const fromCjs = (await cjs(
        `const mod = require('${name}');\nprocess.stdout.write(JSON.stringify(${exportKinds}));`,
      )) as Record<string, string>;
      expect(Object.values(fromEsm)).toContain('function');
      expect(fromCjs).toEqual(fromEsm);
    },
  );
});
