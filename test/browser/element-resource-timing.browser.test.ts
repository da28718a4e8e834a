import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from './chromium.js';
import { openSettings } from './element-page.js';
import { type ElementApp, startElementApp } from './element-server.js';

// The browser records every request of the page by its full URL in the Resource Timing buffer,
// which any script of the page reads, and hands it to every PerformanceObserver as it happens (what
// real-user-monitoring agents collect and ship away): a test message of a URL of the page's own
// origin must never be such a request.
const missing = chromiumMissing();
const SECRET_URL = /^https?:\/\/[^/]+\/hooks\/channels\/(wh_[\w-]{22})\/([\w-]{43})$/;

/** Installs an observer of every resource entry, and of those already buffered. */
async function observeResources(page: Page): Promise<void> {
  await page.evaluate(() => {
    const observed: string[] = [];
    Object.assign(window, { observedResources: observed });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) observed.push(entry.name);
    }).observe({ type: 'resource', buffered: true });
  });
}

/** Every entry name the page's script could learn: observed as they came, and all that are buffered. */
function entryNames(page: Page): Promise<{ observed: string[]; buffered: string[] }> {
  return page.evaluate(() => ({
    observed: [...(window as unknown as { observedResources: string[] }).observedResources],
    buffered: performance.getEntries().map((entry) => entry.name),
  }));
}

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings> and Resource Timing${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let app: ElementApp;
    beforeAll(async () => {
      [browser, app] = await Promise.all([
        launchChromium(),
        startElementApp({ store: 'sqlite', webhooks: 'same-origin' }),
      ]);
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it("a test message with a URL of the page's own origin is stored (201) and no Resource Timing entry, buffered or observed, names its secret", async () => {
      const { context, page } = await openSettings(browser, app);
      const dialog = page.getByRole('dialog');
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      try {
        await observeResources(page);
        await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).first().click();
        await dialog.getByLabel('Name').fill('Timed');
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        const url = await dialog.getByLabel('Webhook URL').inputValue();
        const [, webhookId, secret] = SECRET_URL.exec(url) ?? [];
        expect(new URL(url).origin).toBe(app.origin);
        await dialog.getByRole('button', { name: 'Send a test message' }).click();
        await expect
          .poll(() => dialog.getByRole('status').filter({ hasText: 'Sent' }).textContent())
          .toBe('Sent (201): the test message is in the channel.');
        expect((await app.store.listMessages(app.channelId)).at(-1)).toMatchObject({
          body: 'Test message from the webhook settings: “Timed” works.',
          author: { id: webhookId },
        });
        await dialog.getByRole('button', { name: 'Done' }).click();
        await expect.poll(() => dialog.count()).toBe(0);

        // Once the observer has been handed the test message's request, whichever it was.
        const test = `${app.origin}/api/manage/webhooks/${webhookId}/test`;
        await expect
          .poll(async () => (await entryNames(page)).observed.some((name) => name === test || name.includes(secret!)))
          .toBe(true);
        const { observed, buffered } = await entryNames(page);
        expect(observed.filter((name) => name.includes(secret!))).toEqual([]);
        expect(buffered.filter((name) => name.includes(secret!))).toEqual([]);
        expect(requested.filter((name) => name.includes(secret!))).toEqual([]);
        // It went through the management API, the URL in its body.
        expect(observed).toContain(test);
        expect(buffered).toContain(test);
      } finally {
        await context.close();
      }
    });
  },
);
