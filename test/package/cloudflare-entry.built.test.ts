import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// channel-webhooks/cloudflare runs in Workers, but a Node app (its tests, a build step, a server
// rendering the same code) must be able to load it: the entry imports nothing of the Workers
// runtime. Its object class is plain (no `cloudflare:workers` base class), so it loads in Node as
// ESM and as CJS, and only workerd ever runs it.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

const EXPORTS = {
  ChannelWebhooksObject: 'function',
  OBJECT_SCHEMA_VERSION: 'number',
  createDurableObjectFetchHandler: 'function',
  createDurableObjectRateLimiter: 'function',
  createDurableObjectStore: 'function',
};

const describeExports = `Object.fromEntries(Object.entries(mod).filter(([name]) => name !== 'default' && name !== '__esModule').map(([name, value]) => [name, typeof value]))`;
// What Node makes of the store with a binding that is only the shape of one: options checked, no call made.
const useInNode = `
const calls = [];
const namespace = { idFromName: (name) => name, get: (id) => ({ fetch: async () => { calls.push(id); throw new Error('not in workerd'); } }) };
const store = mod.createDurableObjectStore({ namespace });
let refused;
try { mod.createDurableObjectStore({ namespace: {} }); } catch (error) { refused = error.code; }
const id = store.newWebhookId('general');
let failed;
try { await store.getChannel('general'); } catch (error) { failed = error.code; }
process.stdout.write(JSON.stringify({ exports: ${describeExports}, refused, idShape: /^wh_[A-Za-z0-9_-]{22}$/.test(id), sameShard: id.slice(3, 8) === store.newWebhookId('general').slice(3, 8), failed, calls: calls.length }));
`;

async function node(args: string[]): Promise<unknown> {
  const { stdout } = await run(process.execPath, args, { cwd: root, timeout: 20_000 });
  return JSON.parse(stdout);
}

describe('channel-webhooks/cloudflare in Node', () => {
  const expected = {
    exports: EXPORTS,
    refused: 'invalid_argument',
    idShape: true,
    sameShard: true,
    failed: 'store_failed',
    calls: 1,
  };

  it('loads as ESM and makes ids that carry their channel’s shard', async () => {
    expect(
      await node([
        '--input-type=module',
        '-e',
        `const mod = await import('channel-webhooks/cloudflare');\n${useInNode}`,
      ]),
    ).toEqual(expected);
  });

  it('loads as CJS the same', async () => {
    expect(
      await node([
        '-e',
        `(async () => {\nconst mod = require('channel-webhooks/cloudflare');\n${useInNode}\n})().catch((error) => { console.error(error); process.exit(1); });`,
      ]),
    ).toEqual(expected);
  });

  it('imports no module of the Workers runtime (cloudflare:*) in any built file', () => {
    const dist = join(root, 'dist');
    const importing = readdirSync(dist).filter(
      (file) =>
        /\.(c?js)$/.test(file) &&
        /\bfrom\s*["']cloudflare:|require\(["']cloudflare:|import\(["']cloudflare:/.test(
          readFileSync(join(dist, file), 'utf8'),
        ),
    );
    expect(importing).toEqual([]);
  });
});
