import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshFile, startApp } from '../adapters/stores/sqlite/support.js';
import { send } from '../support/http.js';
import { freePort } from '../support/servers.js';
import { chromiumMissing, launchChromium } from './chromium.js';

const missing = chromiumMissing();

// `npm start` as a process on a SQLite file, stopped and started again on the same port while the
// page stays open: its EventSource reconnects with the last event id it got.
describe.skipIf(missing !== null)(
  `the demo page's message stream across a server restart${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let page: Page;
    const stops: Array<() => Promise<void>> = [];

    beforeAll(async () => {
      browser = await launchChromium();
      page = await browser.newPage();
      page.setDefaultTimeout(10_000);
    });
    afterEach(async () => {
      await Promise.all(stops.splice(0).map((stop) => stop()));
    });
    afterAll(async () => {
      await browser?.close();
    });

    const shown = () => page.locator('#messages .message .content').allInnerTexts();
    const post = async (url: string, text: string) => expect((await send(url, { body: { text } })).status).toBe(201);

    it('resumes after a restart without losing or repeating a message, the page never reloaded, its settings working on', async () => {
      const file = freshFile();
      const env = { PORT: String(await freePort()), HOST: '127.0.0.1', STORE_FILE: file };
      const first = await startApp('examples/express/server.js', env, stops);
      const origin = new URL(first.url).origin;
      await post(first.url, 'one');
      await page.goto(origin);
      await expect.poll(() => page.textContent('#live')).toBe('live');
      await page.evaluate(() => Object.assign(window, { notReloaded: true }));
      await post(first.url, 'two');
      await expect.poll(shown).toEqual(['one', 'two']);

      await first.stop();
      await expect.poll(() => page.textContent('#live')).toBe('reconnecting…');
      await startApp('examples/express/server.js', env, stops);
      // The webhook made before the restart posts on; the page learns of it by resuming.
      await post(first.url, 'three');
      await post(first.url, 'four');
      await expect.poll(shown, { timeout: 15_000 }).toEqual(['one', 'two', 'three', 'four']);
      expect(await page.textContent('#live')).toBe('live');

      // The settings element on the same page works on the new process: a webhook created in it
      // posts into the stream, and its list has each start's webhook, named by its start time.
      const settings = page.locator('channel-webhooks-settings');
      await settings.getByRole('button', { name: 'New webhook' }).first().click();
      await page.getByRole('dialog').getByLabel('Name').fill('After the restart');
      await page.getByRole('dialog').getByRole('button', { name: 'Create webhook' }).click();
      const url = await page.getByRole('dialog').getByLabel('Webhook URL').inputValue();
      await page.getByRole('dialog').getByRole('button', { name: 'Done', exact: true }).click();
      await post(url, 'five');
      await expect.poll(shown).toEqual(['one', 'two', 'three', 'four', 'five']);
      const names = await settings.getByRole('heading', { level: 3 }).allTextContents();
      expect(names.filter((name) => /^Demo, started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/.test(name))).toHaveLength(2);
      expect(names).toContain('After the restart');
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    }, 60_000);
  },
);
