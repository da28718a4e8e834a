import { writeFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MESSAGES } from '../../examples/express/demo/demo-messages.js';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { createWebhookFromPage, startDemo } from './demo-server.js';

const missing = chromiumMissing();

/** Set DEMO_SCREENSHOT=docs/demo.png to refresh the README's picture. */
const SAVE_TO = process.env.DEMO_SCREENSHOT;

describe.skipIf(missing !== null)(`the demo page's picture${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let browser: Browser;
  let demo: Awaited<ReturnType<typeof startDemo>>;

  beforeAll(async () => {
    [browser, demo] = await Promise.all([launchChromium(), startDemo()]);
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('shows a message of every block type, rendered, with the settings element beside it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.setDefaultTimeout(5_000);
    await page.goto(demo.origin);
    await expect.poll(() => page.textContent('#live')).toBe('live');

    for (const { from, payload } of DEMO_MESSAGES) {
      const { url } = await createWebhookFromPage(page, from);
      expect((await send(url, { body: payload })).status).toBe(201);
    }
    const settings = page.locator('channel-webhooks-settings');
    await settings.getByRole('button', { name: 'New webhook' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill('Deploys');
    await page.getByRole('dialog').getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send a test message' }).click();
    await expect
      .poll(() => page.getByRole('dialog').getByRole('status').filter({ hasText: 'Sent' }).textContent())
      .toMatch(/^Sent \(201\)/);
    await page.getByRole('dialog').getByRole('button', { name: 'Done', exact: true }).click();
    await expect.poll(() => page.locator('#messages .message').count()).toBe(DEMO_MESSAGES.length + 1);
    await expect
      .poll(() => settings.getByRole('listitem').filter({ hasText: 'Deploys' }).textContent())
      .toContain('Last post');

    for (const selector of [
      '.cw-header',
      '.cw-section',
      '.cw-markdown',
      '.cw-divider',
      '.cw-context',
      '.cw-rich-text',
      '.cw-quote',
      '.cw-pre',
      'ul',
      'a[href^="https://"]',
    ]) {
      expect(await page.locator(`#messages .content ${selector}`).count(), selector).toBeGreaterThan(0);
    }
    const picture = await page.screenshot({ fullPage: false });
    expect(picture.length).toBeGreaterThan(10_000);
    if (SAVE_TO) await writeFile(SAVE_TO, picture);
  });
});
