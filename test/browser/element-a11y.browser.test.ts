import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PART_NAMES } from '../../src/element/part-names.js';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { openSettings, seriousViolations } from './element-page.js';
import { type ElementApp, startElementApp } from './element-server.js';

// axe-core in every state of the element, at desktop and phone width, light and dark, with a
// screenshot of each in .tmp/screenshots (git-ignored) for a person to look at. Across the states,
// the markup gives every part name the element lists, and no other.
const missing = chromiumMissing();
const SCREENSHOTS = new URL('../../.tmp/screenshots/', import.meta.url);

const LAYOUTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings> with axe-core, and its screenshots${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
      mkdirSync(SCREENSHOTS, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
    });

    for (const layout of LAYOUTS) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`has no serious or critical violation in any state: ${layout.name}, ${colorScheme}`, async () => {
          const app = await startElementApp({ store: 'memory' });
          const { context, page } = await openSettings(browser, app, { viewport: layout.viewport, colorScheme });
          const found: string[] = [];
          const parts = new Set<string>();
          let shots = 0;
          const state = async (name: string) => {
            // Past the opening animation, whatever the reader's motion setting.
            await page.waitForTimeout(250);
            for (const violation of await seriousViolations(page)) found.push(`${name}: ${violation}`);
            const shown = await page
              .locator('channel-webhooks-settings')
              .evaluate((element) =>
                Array.from(element.shadowRoot?.querySelectorAll('[part]') ?? [], (node) => node.getAttribute('part')),
              );
            for (const names of shown) for (const part of names?.split(' ') ?? []) parts.add(part);
            await page.screenshot({
              path: new URL(
                `${layout.name}-${colorScheme}-${String(++shots).padStart(2, '0')}-${name}.png`,
                SCREENSHOTS,
              ).pathname,
              animations: 'disabled',
            });
          };
          try {
            await walkThroughEveryState(page, app, state);
            expect(found).toEqual([]);
            expect(shots).toBe(11);
            expect([...parts].sort()).toEqual([...PART_NAMES].sort());
          } finally {
            await context.close();
            await app.close();
          }
        }, 60_000);
      }
    }
  },
);

/** Every state the element can be in, from empty to a list with an active, a rotated and a revoked webhook. */
async function walkThroughEveryState(
  page: Page,
  app: ElementApp,
  state: (name: string) => Promise<void>,
): Promise<void> {
  const settings = page.locator('channel-webhooks-settings');
  const dialog = page.getByRole('dialog');
  await state('empty');

  await settings.getByRole('button', { name: 'New webhook' }).first().click();
  await dialog.getByLabel('Name').fill('  ');
  await dialog.getByLabel('Description').fill('Deploys of checkout-service to production, from the release pipeline.');
  await dialog.getByRole('button', { name: 'Create webhook' }).click();
  await dialog.locator('#field-name-error:not(:empty)').waitFor();
  await state('create-refused-name');
  await dialog.getByLabel('Name').fill('Deploys');
  await dialog.getByRole('button', { name: 'Create webhook' }).click();
  await dialog.getByRole('button', { name: 'Send a test message' }).click();
  await dialog.getByRole('status').filter({ hasText: 'Sent' }).waitFor();
  await state('url-shown-once');
  const url = await dialog.getByLabel('Webhook URL').inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Two more webhooks through the API, one with an 80-character name, one then revoked.
  const owner = { headers: { cookie: 'session=owner' } };
  await send(`${app.origin}/api/manage/channels/${app.channelId}/webhooks`, {
    ...owner,
    body: { name: `Nightly-${'W'.repeat(72)}` },
  });
  const uptime = (
    await send(`${app.origin}/api/manage/channels/${app.channelId}/webhooks`, { ...owner, body: { name: 'Uptime' } })
  ).json as {
    webhook: { id: string };
  };
  await send(`${app.origin}/api/manage/webhooks/${uptime.webhook.id}/revoke`, { ...owner, body: {} });
  await send(url, {
    body: {
      text: 'Deploy 43',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Deploy 43' },
          fields: [{ type: 'mrkdwn', text: '*env* prod' }],
        },
      ],
    },
  });
  await send(url, { body: { text: 'Deploy 43', attachments: [{ text: 'legacy' }], icon_emoji: ':rocket:' } });
  await settings.evaluate((element) => (element as unknown as { refresh(): Promise<void> }).refresh());
  await state('list');

  const deploys = settings
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Deploys', exact: true }) });
  await deploys.getByRole('button', { name: 'Rotate URL' }).click();
  await state('rotate-confirmation');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate URL' }).click();
  await dialog.getByLabel('Webhook URL').waitFor();
  await state('url-after-rotation');
  await page.keyboard.press('Escape');

  await deploys.getByRole('button', { name: 'Recent posts' }).click();
  await dialog.getByRole('listitem').filter({ hasText: 'Refused' }).first().waitFor();
  await state('recent-posts');
  await page.keyboard.press('Escape');

  await deploys.getByRole('button', { name: 'Revoke' }).click();
  await state('revoke-confirmation');
  await page.keyboard.press('Escape');

  await page.route('**/api/manage/**', (route) => route.abort('connectionrefused'));
  await settings.evaluate((element) => (element as unknown as { refresh(): Promise<void> }).refresh());
  await state('network-failure');
  await page.unroute('**/api/manage/**');

  await page.context().clearCookies();
  await settings.evaluate((element) => (element as unknown as { refresh(): Promise<void> }).refresh());
  await state('signed-out');

  await page.context().addCookies([{ name: 'session', value: 'stranger', url: app.origin }]);
  await page.reload();
  await settings.locator('.not-allowed').waitFor();
  await state('not-allowed');
}
