import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../browser/chromium.js';
import { installPackedLibrary } from '../support/pack.js';

// A CommonJS app with the packed package installed: it requires the library, and serves the settings
// element from the file `require.resolve('channel-webhooks/element')` names, as `res.sendFile` or a
// static route would. Chromium must get a module it can run, whatever the app's module system.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const missing = chromiumMissing();

const SERVER = `const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');
const { createMemoryStore, createWebhookHandler, createWebhookManager } = require('channel-webhooks');
const { createManagementApi } = require('channel-webhooks/manage');
const { createNodeListener, createNodeManagementListener } = require('channel-webhooks/node');

const elementFile = require.resolve('channel-webhooks/element');
const owner = { userId: 'u-owner', role: 'member' };
const page = \`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Integrations</title><link rel="icon" href="data:,"><script type="module" src="/element.js"></script></head>
<body><channel-webhooks-settings api="/api/manage" channel-id="general" channel-name="#general"></channel-webhooks-settings></body>
</html>\`;

const store = createMemoryStore();
const server = createServer();
server.listen(0, '127.0.0.1', async () => {
  const origin = 'http://127.0.0.1:' + server.address().port;
  await store.putChannel({ id: 'general', ownerId: owner.userId, archived: false });
  const manager = createWebhookManager({ store, baseUrl: origin });
  await manager.create(owner, { channelId: 'general', name: 'Deploy bot' });
  const handle = createWebhookHandler({ store });
  const api = createManagementApi({ manager, handle, basePath: '/api/manage', authenticate: () => owner });
  const files = (req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (req.url === '/element.js') {
      return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(elementFile));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
  server.on('request', createNodeManagementListener(api, { fallback: createNodeListener(handle, { fallback: files }) }));
  console.log(JSON.stringify({ origin, element: elementFile }));
});
`;

describe.skipIf(missing !== null)(
  `the element in a CommonJS app's page${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let app: string;
    let server: ChildProcess;
    let browser: Browser;
    let started: { origin: string; element: string };
    beforeAll(async () => {
      ({ app } = await installPackedLibrary(root));
      writeFileSync(join(app, 'server.cjs'), SERVER);
      server = spawn(process.execPath, ['server.cjs'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      [started, browser] = await Promise.all([
        new Promise<{ origin: string; element: string }>((resolve, reject) => {
          server.stdout?.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const line = /^\{.*\}$/m.exec(output);
            if (line !== null) resolve(JSON.parse(line[0]) as { origin: string; element: string });
          });
          server.once('exit', (code) => reject(new Error(`the app exited with ${code}:\n${output}`)));
        }),
        launchChromium(),
      ]);
    }, 120_000);
    afterAll(async () => {
      server?.kill('SIGKILL');
      await browser?.close();
      if (app !== undefined) rmSync(app, { recursive: true, force: true });
    });

    it('require.resolve gives the ES module, which defines the element and lists the channel’s webhooks', async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.goto(started.origin);
        const settings = page.locator('channel-webhooks-settings');
        await expect.poll(() => settings.getByText('Deploy bot', { exact: true }).count()).toBe(1);
        expect(await page.evaluate(() => customElements.get('channel-webhooks-settings')?.name)).toBe(
          'ChannelWebhooksSettings',
        );
        expect(errors).toEqual([]);
        expect(started.element).toBe(join(app, 'node_modules', 'channel-webhooks', 'dist', 'element.js'));
      } finally {
        await context.close();
      }
    });
  },
);
