import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from './chromium.js';
import { openSettings, seriousViolations } from './element-page.js';
import { type ElementApp, startElementApp } from './element-server.js';

// The calm state of a reader who may not manage the channel: a sentence where the list would be,
// at desktop and phone width, light and dark, axe-clean, with screenshots in .tmp/screenshots.
const missing = chromiumMissing();
const SCREENSHOTS = new URL('../../.tmp/screenshots/', import.meta.url);
const LAYOUTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings> for a reader who may not manage the channel${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let app: ElementApp;
    beforeAll(async () => {
      [browser, app] = await Promise.all([launchChromium(), startElementApp({ store: 'memory' })]);
      mkdirSync(SCREENSHOTS, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    for (const layout of LAYOUTS) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`shows one sentence, no alert and no controls: ${layout.name}, ${colorScheme}`, async () => {
          const { context, page } = await openSettings(browser, app, {
            session: 'stranger',
            viewport: layout.viewport,
            colorScheme,
          });
          try {
            const settings = page.locator('channel-webhooks-settings');
            const sentence = settings.locator('[part~="not-allowed"]');
            await sentence.waitFor();
            expect(await sentence.textContent()).toBe(
              'You may not manage the webhooks of #general, or it no longer exists. Ask its owner or an organization admin.',
            );
            expect(await settings.locator('[role="alert"]').textContent()).toBe('');
            expect(await settings.getByRole('button').count()).toBe(0);
            expect(await seriousViolations(page)).toEqual([]);
            await page.screenshot({
              path: new URL(`not-allowed-${layout.name}-${colorScheme}.png`, SCREENSHOTS).pathname,
              animations: 'disabled',
            });
          } finally {
            await context.close();
          }
        });
      }
    }
  },
);
