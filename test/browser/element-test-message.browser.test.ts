import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from './chromium.js';
import { openSettings } from './element-page.js';
import { type ElementApp, startElementApp } from './element-server.js';

// Webhook URLs on another origin than the page (localhost for a page on 127.0.0.1): the browser
// cannot post to them, so the test message goes through the management API's test route.
const missing = chromiumMissing();

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings> with webhook URLs on another origin${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let app: ElementApp;
    beforeAll(async () => {
      [browser, app] = await Promise.all([
        launchChromium(),
        startElementApp({ store: 'sqlite', webhooks: 'other-origin' }),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('sends the test message through the management API, which posts it with the URL the dialog holds', async () => {
      const { context, page } = await openSettings(browser, app);
      const dialog = page.getByRole('dialog');
      const calls: string[] = [];
      page.on('request', (request) =>
        calls.push(
          `${request.method()} ${new URL(request.url()).origin}${new URL(request.url()).pathname.replace(/\/wh_[\w-]+/, '/wh_…')}`,
        ),
      );
      try {
        await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).first().click();
        await dialog.getByLabel('Name').fill('Elsewhere');
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        const url = await dialog.getByLabel('Webhook URL').inputValue();
        expect(new URL(url).origin).toBe(app.webhookOrigin);
        expect(app.webhookOrigin).not.toBe(app.origin);
        await dialog.getByRole('button', { name: 'Send a test message' }).click();
        await expect
          .poll(() => dialog.getByRole('status').filter({ hasText: 'Sent' }).textContent())
          .toBe('Sent (201): the test message is in the channel.');
        expect((await app.store.listMessages(app.channelId)).at(-1)).toMatchObject({
          body: 'Test message from the webhook settings: “Elsewhere” works.',
        });
        expect(calls).toContain(`POST ${app.origin}/api/manage/webhooks/wh_…/test`);
        expect(calls.filter((call) => call.includes(app.webhookOrigin))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);

// A reader who double-clicks the button (or clicks again while it says "Sending…") sends one test
// message: the second click lands while the first is under way.
describe.skipIf(missing !== null)(
  `<channel-webhooks-settings>: a double click on "Send a test message"${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it.each([
      ['the page’s origin', 'same-origin'],
      ['another origin', 'other-origin'],
    ] as const)('posts one message, webhook URLs on %s', async (_, webhooks) => {
      const app = await startElementApp({ store: 'memory', webhooks });
      const { context, page } = await openSettings(browser, app);
      const dialog = page.getByRole('dialog');
      try {
        await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).first().click();
        await dialog.getByLabel('Name').fill('Twice');
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        await dialog.getByRole('button', { name: 'Send a test message' }).dblclick();
        await expect
          .poll(() => dialog.getByRole('status').filter({ hasText: 'Sent' }).textContent())
          .toBe('Sent (201): the test message is in the channel.');
        // Long enough for a second post, had one gone out with the first, to be stored too.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const tests = (await app.store.listMessages(app.channelId)).filter(
          (message) => message.body === 'Test message from the webhook settings: “Twice” works.',
        );
        expect(tests).toHaveLength(1);
      } finally {
        await context.close();
        await app.close();
      }
    });
  },
);
