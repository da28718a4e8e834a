import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
import { existsSync } from 'node:fs';

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
  const durableObjects = Object.fromEntries(named('[[durable_objects.bindings]]').map((section) => [value('name', section)!, value('class_name', section)!]));
  const sqliteClasses = named('[[migrations]]').flatMap((section) =>
    [.../new_sqlite_classes\s*=\s*\[([^\]]*)\]/.exec(section)![1]!.matchAll(/"([^"]+)"/g)].map((match) => match[1]!),
  );
  const vars = Object.fromEntries([...(named('[vars]')[0] ?? '').matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((match) => [match[1]!, match[2]!]));
  return { main: value('main', top)!, compatibilityDate: value('compatibility_date', top)!, durableObjects, sqliteClasses, vars };
}

describe.skipIf(!existsSync(RUNTIME_BINARIES.miniflare))(
  runtimeSuiteTitle('examples/cloudflare-workers on workerd with its Durable Objects', RUNTIME_BINARIES.miniflare),
  () => {
    let app: string;
    let persistDir: string;
    let scriptPath: string;
    let config: WranglerConfig;
    let miniflare: MiniflareLike | undefined;
    let base: string;

    const start = async () => {
      const port = await freePort();
      miniflare = await startMiniflare({
        scriptPath,
        persistDir,
        port,
        durableObjects: config.durableObjects,
        bindings: config.vars,
        compatibilityDate: config.compatibilityDate,
      });
      base = `http://127.0.0.1:${port}`;
    };

    beforeAll(async () => {
      ({ app } = await installPackedLibrary(root));
      mkdirSync(join(app, 'cloudflare-workers'));
      for (const file of ['worker.js', 'wrangler.toml']) copyFileSync(join(example, file), join(app, 'cloudflare-workers', file));
      config = readWranglerToml(readFileSync(join(app, 'cloudflare-workers', 'wrangler.toml'), 'utf8'));
      scriptPath = join(app, 'cloudflare-workers', 'worker.bundle.js');
      await build({
        entryPoints: [join(app, 'cloudflare-workers', config.main)],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        conditions: ['workerd', 'worker', 'browser'],
        mainFields: ['module', 'main'],
        outfile: scriptPath,
        absWorkingDir: app,
        logLevel: 'warning',
      });
      persistDir = mkdtempSync(join(tmpdir(), 'cw-example-objects-'));
      await start();
    }, 120_000);

    afterAll(async () => {
      await miniflare?.dispose();
      if (app !== undefined) rmSync(app, { recursive: true, force: true });
      if (persistDir !== undefined) rmSync(persistDir, { recursive: true, force: true });
    });

    it('declares its Durable Object as a SQLite-backed class bound as CHANNEL_WEBHOOKS', () => {
      expect(config.durableObjects).toEqual({ CHANNEL_WEBHOOKS: 'ChannelWebhooksObject' });
      expect(config.sqliteClasses).toEqual(['ChannelWebhooksObject']);
    });

    it('stores a post sent to the webhook URL it gives, answers its retry as a duplicate, also after a restart', async () => {
      const { url } = (await send(`${base}/demo/webhooks`, { body: '{}' })).json as { url: string };
      const path = new URL(url).pathname;
      const forged = 'line one\n\u001b[31mFAKE\u009b2J\u2028\u202eevil';
      const answer = await send(`${base}${path}`, { body: { text: forged }, headers: { 'idempotency-key': 'example-1' } });
      expect(answer.status, answer.text).toBe(201);
      expect(answer.json).toMatchObject({ duplicate: false, message: { body: forged, channelId: 'general', author: { type: 'webhook', name: 'Demo' } } });
      await miniflare!.dispose();
      await start();
      const again = await send(`${base}${path}`, { body: { text: forged }, headers: { 'idempotency-key': 'example-1' } });
      expect(again.status).toBe(200);
      expect(again.json).toEqual({ ...(answer.json as object), duplicate: true });
      const wrong = await send(`${base}${path.slice(0, -1)}x`, { body: { text: 'wrong secret' } });
      expect(wrong.status).toBe(404);
    });
  },
);
