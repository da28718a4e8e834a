import { writeFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { createWebhookFromPage, startDemo } from './demo-server.js';

const missing = chromiumMissing();

/** Set DEMO_SCREENSHOT=docs/demo.png to refresh the README's picture. */
const SAVE_TO = process.env.DEMO_SCREENSHOT;

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const MESSAGES: Array<{ from: string; payload: Record<string, unknown> }> = [
  {
    from: 'Releases',
    payload: {
      text: 'Deploy 142 finished: checkout-service is live',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Deploy 142 finished' } },
        section('*checkout-service* is live on `production`, 12 instances healthy'),
      ],
    },
  },
  { from: 'Uptime', payload: { text: 'checkout-api answered 5xx for 3 min; recovered at 14:02 UTC.' } },
  {
    from: 'CI',
    payload: {
      blocks: [
        {
          type: 'markdown',
          text: '**Build #981 passed** on `main`\n\n- 1,204 tests, 0 failures\n- coverage 94.1 % (+0.3)\n\n[Open the run](https://ci.example.com/runs/981)',
        },
      ],
    },
  },
  {
    from: 'Standup',
    payload: {
      blocks: [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Today', style: { bold: true } },
                { type: 'text', text: ' for ' },
                { type: 'user', user_id: 'U024BE7LH' },
              ],
            },
            {
              type: 'rich_text_list',
              style: 'bullet',
              elements: [
                { type: 'rich_text_section', elements: [{ type: 'text', text: 'Ship the rate-limit dashboard' }] },
                {
                  type: 'rich_text_section',
                  elements: [
                    { type: 'text', text: 'Review ' },
                    { type: 'link', url: 'https://git.example.com/pr/77', text: 'PR #77' },
                  ],
                },
              ],
            },
            {
              type: 'rich_text_quote',
              elements: [{ type: 'text', text: 'Blocked on the staging database migration.' }],
            },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'npm run migrate -- --to 0042' }] },
          ],
        },
      ],
    },
  },
  {
    from: 'Alerts',
    payload: {
      text: 'Disk 91 % full on db-2',
      blocks: [
        section(':warning: *Disk 91 % full* on `db-2`'),
        { type: 'divider' },
        {
          type: 'context',
          elements: [
            { type: 'image', image_url: 'https://grafana.example.com/disk.png', alt_text: 'disk usage graph' },
            { type: 'mrkdwn', text: 'threshold 90 % · <https://grafana.example.com/d/disk|dashboard>' },
          ],
        },
      ],
    },
  },
];

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

    for (const { from, payload } of MESSAGES) {
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
    await expect.poll(() => page.locator('#messages .message').count()).toBe(MESSAGES.length + 1);
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
