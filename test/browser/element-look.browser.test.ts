import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { openSettings } from './element-page.js';
import { type ElementApp, startElementApp } from './element-server.js';

// What an app changes without touching the element's code: colours and shapes (custom properties
// and ::part), every text (`strings`), the locale of dates; what follows the reader: the colour
// scheme and reduced motion; and the page's strict Content-Security-Policy, which its styles obey.
const missing = chromiumMissing();

/** The JavaScript block under `heading` in docs/settings-element.md. */
function docsBlock(heading: string): string {
  const page = readFileSync(new URL('../../docs/settings-element.md', import.meta.url), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(page.slice(page.indexOf(`\n${heading}\n`)))?.[1];
  expect(block, `no js block under ${heading}`).toBeDefined();
  return block!;
}

/** A computed style of the first node matching `selector` in the element's shadow root. */
function styleOf(page: Page, selector: string, property: string): Promise<string> {
  return page.evaluate(
    ([selector, property]) => {
      const node = document.querySelector('channel-webhooks-settings')!.shadowRoot!.querySelector(selector)!;
      return getComputedStyle(node).getPropertyValue(property);
    },
    [selector, property] as const,
  );
}

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings>: theming, texts, locale, motion and CSP${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let app: ElementApp;
    beforeAll(async () => {
      [browser, app] = await Promise.all([launchChromium(), startElementApp({ store: 'memory' })]);
      const created = await send(`${app.origin}/api/manage/channels/${app.channelId}/webhooks`, {
        body: { name: 'CI' },
        headers: { cookie: 'session=owner' },
      });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('applies its styles under the page CSP (style-src self, no inline style), which reports no violation', async () => {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'session', value: 'owner', url: app.origin }]);
      // Before the page's own scripts, through the DevTools protocol: the CSP allows no inline script.
      await context.addInitScript(() => {
        const violations: string[] = [];
        Object.assign(window, { cspViolations: violations });
        document.addEventListener('securitypolicyviolation', (event) =>
          violations.push(`${event.violatedDirective} ${event.blockedURI}`),
        );
      });
      const page = await context.newPage();
      try {
        const answer = await page.goto(app.origin);
        expect(answer?.headers()['content-security-policy']).toContain("style-src 'self'");
        await page.locator('channel-webhooks-settings').getByRole('heading', { name: 'CI' }).waitFor();
        await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).click();
        await page.getByRole('dialog').getByLabel('Name').waitFor();
        expect(await styleOf(page, '[part~="new"]', 'background-color')).toBe('rgb(9, 105, 218)');
        expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
        expect(
          await page
            .locator('channel-webhooks-settings')
            .evaluate((element) => element.shadowRoot!.querySelectorAll('[style], style').length),
        ).toBe(0);
      } finally {
        await context.close();
      }
    });

    it('sets the notice that the old URL is dead apart from the field labels, and writes the names a hint asks for in the text colour', async () => {
      const own = await startElementApp({ store: 'memory' });
      try {
        const created = await send(`${own.origin}/api/manage/channels/${own.channelId}/webhooks`, {
          body: { name: 'Looked at' },
          headers: { cookie: 'session=owner' },
        });
        const { url, webhook } = created.json as { url: string; webhook: { id: string } };
        expect((await send(url, { body: { text: 'old style', attachments: [{ text: 'x' }] } })).status).toBe(400);
        await expect.poll(async () => (await own.store.listPosts!(webhook.id, 5)).length).toBe(1);
        for (const colorScheme of ['light', 'dark'] as const) {
          const { context, page } = await openSettings(browser, own, { colorScheme });
          try {
            const row = page
              .locator('channel-webhooks-settings')
              .getByRole('listitem')
              .filter({ hasText: 'Looked at' });
            await row.getByRole('button', { name: 'Recent posts' }).click();
            await page.getByRole('dialog').locator('[part~="hint"] code').first().waitFor();
            const text = await styleOf(page, '.base', 'color');
            expect(await styleOf(page, '[part~="hint"] code', 'color'), colorScheme).toBe(text);
            expect(await styleOf(page, '[part~="hint"]', 'color'), colorScheme).not.toBe(text);
            await page.keyboard.press('Escape');

            await row.getByRole('button', { name: 'Rotate URL' }).click();
            await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate URL' }).click();
            await page.getByRole('dialog').locator('[part~="notice"]').waitFor();
            expect(await styleOf(page, '[part~="notice"]', 'border-left-width')).toBe('4px');
            expect(await styleOf(page, '[part~="notice"]', 'font-weight')).not.toBe(
              await styleOf(page, '.label', 'font-weight'),
            );
          } finally {
            await context.close();
          }
        }
      } finally {
        await own.close();
      }
    });

    it('follows prefers-color-scheme', async () => {
      for (const [colorScheme, color] of [
        ['light', 'rgb(31, 35, 40)'],
        ['dark', 'rgb(230, 237, 243)'],
      ] as const) {
        const { context, page } = await openSettings(browser, app, { colorScheme });
        try {
          expect(
            await page.locator('channel-webhooks-settings').evaluate((element) => getComputedStyle(element).color),
          ).toBe(color);
        } finally {
          await context.close();
        }
      }
    });

    it('opens its dialogs without motion for a reader who asks for reduced motion', async () => {
      for (const [reducedMotion, animation] of [
        ['no-preference', 'cw-enter'],
        ['reduce', 'none'],
      ] as const) {
        const { context, page } = await openSettings(browser, app, { reducedMotion });
        try {
          await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).click();
          expect(await page.getByRole('dialog').evaluate((dialog) => getComputedStyle(dialog).animationName)).toBe(
            animation,
          );
        } finally {
          await context.close();
        }
      }
    });

    it('takes its colours from --cw-* custom properties and its shapes from ::part()', async () => {
      const { context, page } = await openSettings(browser, app);
      try {
        await page.evaluate(() => {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(
            'channel-webhooks-settings { --cw-accent: rgb(120, 0, 80); } channel-webhooks-settings::part(button) { border-radius: 0px; }',
          );
          document.adoptedStyleSheets = [sheet];
        });
        expect(await styleOf(page, '[part~="new"]', 'background-color')).toBe('rgb(120, 0, 80)');
        expect(await styleOf(page, '[data-focus^="rotate:"]', 'border-top-left-radius')).toBe('0px');
      } finally {
        await context.close();
      }
    });

    it('shows the texts it is given and keeps the others; dates follow its locale, else the reader’s (the block of docs/settings-element.md, run in the page)', async () => {
      const { context, page, log } = await openSettings(browser, app, { locale: 'en-US' });
      try {
        const settings = page.locator('channel-webhooks-settings');
        expect(await settings.locator('time').first().textContent()).toMatch(
          /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/,
        );
        await page.evaluate(docsBlock('## Strings and locale'));
        expect(await settings.getByRole('heading', { level: 2 }).textContent()).toBe('Webhooks entrants');
        expect(await settings.getByRole('button', { name: 'Nouveau webhook' }).count()).toBe(1);
        expect(await settings.getByRole('button', { name: 'Rotate URL' }).count()).toBe(1);
        expect(await settings.locator('[part~="meta"]').first().textContent()).toMatch(
          /^Créé le \d{1,2} [a-zéû.]+ \d{4}(,| à) \d{2}:\d{2}/,
        );
        await settings.getByRole('button', { name: 'Nouveau webhook' }).click();
        await page.getByRole('dialog').getByLabel('Name').fill('Traduit');
        await page.getByRole('dialog').getByRole('button', { name: 'Create webhook' }).click();
        await expect.poll(() => log.lines).toContainEqual(expect.stringMatching(/^info created Traduit @ /));
      } finally {
        await context.close();
      }
    });
  },
);
