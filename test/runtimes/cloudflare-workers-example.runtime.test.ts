import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { installPackedLibrary } from '../support/pack.js';
import { freePort } from '../support/servers.js';
import { startMiniflare, type MiniflareLike } from './miniflare.js';
import { RUNTIME_BINARIES, runtimeSuiteTitle } from './runtime-install.js';

// examples/cloudflare-workers as `wrangler deploy` takes it: worker.js bundled with the packed
// package, run by workerd (through miniflare) with the Durable Object binding, the SQLite migration
// and the variables its wrangler.toml declares.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const example = join(root, 'examples', 'cloudflare-workers');

interface WranglerConfig {
  main: string;
  compatibilityDate: string;
  durableObjects: Record<string, string>;
  sqliteClasses: string[];
  vars: Record<string, string>;
}

/** The parts of wrangler.toml the example uses, read with the few TOML forms it is written in. */
function readWranglerToml(text: string): WranglerConfig {
  const value = (key: string, section: string) => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm').exec(section)?.[1];
  const sections = text.split(/^(?=\[)/m);
  const top = sections[0]!;
  const named = (header: string) => sections.filter((section) => section.startsWith(header));
  const durableObjects = Object.fromEntries(
    named('[[durable_objects.bindings]]').map((section) => [value('name', section)!, value('class_name', section)!]),
  );
  const sqliteClasses = named('[[migrations]]').flatMap((section) =>
    [.../new_sqlite_classes\s*=\s*\[([^\]]*)\]/.exec(section)![1]!.matchAll(/"([^"]+)"/g)].map((match) => match[1]!),
  );
  const vars = Object.fromEntries(
    [...(named('[vars]')[0] ?? '').matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((match) => [match[1]!, match[2]!]),
  );
  return {
    main: value('main', top)!,
    compatibilityDate: value('compatibility_date', top)!,
    durableObjects,
    sqliteClasses,
    vars,
  };
}

const title = (name: string) => runtimeSuiteTitle(name, RUNTIME_BINARIES.miniflare);

/** A worker and its wrangler.toml in a folder of the app, bundled with the packed package, served by miniflare. */
async function serveWorker(app: string, folder: string, persistDir: string) {
  const config = readWranglerToml(readFileSync(join(app, folder, 'wrangler.toml'), 'utf8'));
  const scriptPath = join(app, folder, 'worker.bundle.js');
  await build({
    entryPoints: [join(app, folder, config.main)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    outfile: scriptPath,
    absWorkingDir: app,
    logLevel: 'warning',
  });
  let miniflare: MiniflareLike | undefined;
  const served = {
    config,
    base: '',
    async start() {
      const port = await freePort();
      miniflare = await startMiniflare({
        scriptPath,
        persistDir,
        port,
        durableObjects: config.durableObjects,
        bindings: config.vars,
        compatibilityDate: config.compatibilityDate,
      });
      served.base = `http://127.0.0.1:${port}`;
    },
    stop: async () => miniflare?.dispose(),
  };
  await served.start();
  return served;
}

let app: string;
let persistDir: string;
beforeAll(async () => {
  if (!existsSync(RUNTIME_BINARIES.miniflare)) return;
  ({ app } = await installPackedLibrary(root));
  persistDir = mkdtempSync(join(tmpdir(), 'cw-example-objects-'));
}, 120_000);
afterAll(() => {
  if (app !== undefined) rmSync(app, { recursive: true, force: true });
  if (persistDir !== undefined) rmSync(persistDir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(RUNTIME_BINARIES.miniflare))(
  title('examples/cloudflare-workers on workerd with its Durable Objects'),
  () => {
    let served: Awaited<ReturnType<typeof serveWorker>>;
    beforeAll(async () => {
      mkdirSync(join(app, 'cloudflare-workers'));
      for (const file of ['worker.js', 'wrangler.toml'])
        copyFileSync(join(example, file), join(app, 'cloudflare-workers', file));
      served = await serveWorker(app, 'cloudflare-workers', join(persistDir, 'example'));
    }, 60_000);
    afterAll(() => served?.stop());

    it('declares its Durable Object as a SQLite-backed class bound as CHANNEL_WEBHOOKS', () => {
      expect(served.config.durableObjects).toEqual({ CHANNEL_WEBHOOKS: 'ChannelWebhooksObject' });
      expect(served.config.sqliteClasses).toEqual(['ChannelWebhooksObject']);
    });

    it('stores a post sent to the webhook URL it gives, answers its retry as a duplicate, also after a restart', async () => {
      const { url } = (await send(`${served.base}/demo/webhooks`, { body: '{}' })).json as { url: string };
      const path = new URL(url).pathname;
      const forged = 'line one\n\u001b[31mFAKE\u009b2J\u2028\u202eevil';
      const answer = await send(`${served.base}${path}`, {
        body: { text: forged },
        headers: { 'idempotency-key': 'example-1' },
      });
      expect(answer.status, answer.text).toBe(201);
      expect(answer.json).toMatchObject({
        duplicate: false,
        message: { body: forged, channelId: 'general', author: { type: 'webhook', name: 'Demo' } },
      });
      await served.stop();
      await served.start();
      const again = await send(`${served.base}${path}`, {
        body: { text: forged },
        headers: { 'idempotency-key': 'example-1' },
      });
      expect(again.status).toBe(200);
      expect(again.json).toEqual({ ...(answer.json as object), duplicate: true });
      const wrong = await send(`${served.base}${path.slice(0, -1)}x`, { body: { text: 'wrong secret' } });
      expect(wrong.status).toBe(404);
    });
  },
);

// docs/cloudflare-workers.md: its wrangler.toml and its worker, as a reader pastes them.
describe.skipIf(!existsSync(RUNTIME_BINARIES.miniflare))(title('docs/cloudflare-workers.md on workerd'), () => {
  let served: Awaited<ReturnType<typeof serveWorker>>;
  beforeAll(async () => {
    const page = readFileSync(join(root, 'docs', 'cloudflare-workers.md'), 'utf8');
    const toml = /^```toml\n([\s\S]*?)^```$/m.exec(page)![1]!;
    const worker =
      /^<!-- not run: [^\n]*cloudflare-workers-example\.runtime\.test\.ts[^\n]* -->\n```js\n([\s\S]*?)^```$/m.exec(
        page,
      )![1]!;
    mkdirSync(join(app, 'docs-worker'));
    writeFileSync(join(app, 'docs-worker', 'wrangler.toml'), toml);
    writeFileSync(join(app, 'docs-worker', 'worker.js'), worker);
    served = await serveWorker(app, 'docs-worker', join(persistDir, 'docs'));
  }, 60_000);
  afterAll(() => served?.stop());

  it('creates a webhook through its management route, stores a post to its URL, and passes other paths to the fallback', async () => {
    const created = await send(`${served.base}/channels`, { body: { id: 'deploys' }, headers: { 'x-user-id': 'u1' } });
    expect(created.status, created.text).toBe(200);
    const { url } = created.json as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/channels\/wh_[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-]{43}$/);
    const answer = await send(`${served.base}${new URL(url).pathname}`, { body: { text: 'Deploy 42 finished' } });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({
      duplicate: false,
      message: { body: 'Deploy 42 finished', channelId: 'deploys', author: { name: 'CI' } },
    });
    const other = await send(`${served.base}/elsewhere`, { method: 'GET' });
    expect(other.status).toBe(404);
    expect(other.text).toBe('chat');
  });
});
