import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IncomingWebhook } from '@slack/webhook';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { type PageLog, seriousViolations, tracesOf } from './element-page.js';
import { createWebhookFromPage, startDemo } from './demo-server.js';

// The demo page as `npm start` serves it: the channel's live messages beside
// <channel-webhooks-settings>, on the management API behind the demo's loopback sign-in.
const missing = chromiumMissing();
const SCREENSHOTS = fileURLToPath(new URL('../../.tmp/screenshots/', import.meta.url));
const SECRET_URL = /^(https?:\/\/[^/]+)\/hooks\/channels\/(wh_[\w-]{22})\/([\w-]{43})$/;

describe.skipIf(missing !== null)(`the demo page in Chromium${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let browser: Browser;
  let demo: Awaited<ReturnType<typeof startDemo>>;
  let context: BrowserContext;
  let page: Page;
  const log: PageLog = { lines: [] };
  /** The URLs the page showed, in order: each must leave the page once its dialog closed. */
  const secrets: string[] = [];

  beforeAll(async () => {
    [browser, demo] = await Promise.all([launchChromium(), startDemo()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.origin });
    // Before the page's scripts, through the DevTools protocol: the page's CSP allows no inline script.
    await context.addInitScript(() => {
      const violations: string[] = [];
      Object.assign(window, { cspViolations: violations });
      document.addEventListener('securitypolicyviolation', (event) =>
        violations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    page = await context.newPage();
    page.setDefaultTimeout(5_000);
    page.on('console', (message) => log.lines.push(`${message.type()} ${message.text()}`));
    page.on('pageerror', (error) => log.lines.push(`pageerror ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  const settings = () => page.locator('channel-webhooks-settings');
  const dialog = () => page.getByRole('dialog');
  const row = (name: string) =>
    settings()
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name, exact: true }) });
  const messages = () => page.locator('#messages .message');

  /** Waits for the message with `text` in the channel view and says how long it took. */
  async function arrival(text: string, post: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    await post();
    await messages().filter({ hasText: text }).waitFor({ timeout: 1_000 });
    return performance.now() - started;
  }

  /** Creates a webhook in the element, as a reader does, and gives the URL its dialog shows. */
  async function createInElement(name: string): Promise<string> {
    await settings().getByRole('button', { name: 'New webhook' }).first().click();
    await dialog().getByLabel('Name').fill(name);
    await dialog().getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => dialog().getByRole('heading').textContent()).toBe(`“${name}” is ready`);
    const url = await dialog().getByLabel('Webhook URL').inputValue();
    secrets.push(url);
    return url;
  }

  async function closeDialog(): Promise<void> {
    await dialog().getByRole('button', { name: 'Done', exact: true }).click();
    await expect.poll(() => dialog().count()).toBe(0);
  }

  it('serves the element under its strict CSP, with the webhook that npm start made, named by its start time', async () => {
    const answer = await page.goto(demo.origin);
    const csp = answer?.headers()['content-security-policy'] ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' https:"])
      expect(csp).toContain(directive);
    await expect.poll(() => page.textContent('#live')).toBe('live');
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    const started = row(demo.startupName);
    await started.waitFor();
    expect(demo.startupName).toMatch(/^Demo, started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await started.textContent()).toContain('Active');
    // Its styles are a constructed stylesheet: nothing inline for the CSP to refuse.
    expect(await settings().evaluate((element) => element.shadowRoot!.adoptedStyleSheets.length)).toBeGreaterThan(0);
    expect(await settings().evaluate((element) => element.shadowRoot!.querySelectorAll('[style], style').length)).toBe(
      0,
    );
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });

  it('creates a webhook in the element: its URL once, copied, a test message and posts through it appear in the stream', async () => {
    const url = await createInElement('Deploys');
    const [, origin, , secret] = SECRET_URL.exec(url) ?? [];
    expect(origin).toBe(demo.origin);
    expect(await dialog().textContent()).toContain('it will not be shown again');
    expect(await dialog().locator('pre').textContent()).toContain(`'${url}'`);

    await dialog().getByRole('button', { name: 'Copy URL' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    const test = 'Test message from the webhook settings: “Deploys” works.';
    expect(
      await arrival(test, () => dialog().getByRole('button', { name: 'Send a test message' }).click()),
    ).toBeLessThan(1_000);
    await expect
      .poll(() => dialog().getByRole('status').filter({ hasText: 'Sent' }).textContent())
      .toBe('Sent (201): the test message is in the channel.');
    await closeDialog();

    expect(
      await arrival('Sent with Slack’s own client', () =>
        new IncomingWebhook(url).send({ text: 'Sent with Slack’s own client' }),
      ),
    ).toBeLessThan(1_000);
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    expect(
      await arrival(
        'Sent over raw HTTP',
        async () => (answer = await send(url, { body: { text: 'Sent over raw HTTP' } })),
      ),
    ).toBeLessThan(1_000);
    expect(answer!.status).toBe(201);
    const message = messages().filter({ hasText: 'Sent over raw HTTP' });
    expect(await message.locator('.author').textContent()).toBe('Deploys');
    expect(await message.locator('.badge').textContent()).toBe('webhook');
    expect(await messages().last().textContent()).toContain('Sent over raw HTTP');

    // The row learns of the posts: the page asks the element to load its list again.
    await expect.poll(() => row('Deploys').textContent()).toContain('Last post');
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(demo.logs.join('\n')).not.toContain(secret);
    expect(await tracesOf(page, log)).not.toContain(secret);
  });

  it('rotates after a confirmation: the dialog says the old URL is dead, which answers 404, and the new one posts', async () => {
    const old = secrets.at(-1)!;
    await row('Deploys').getByRole('button', { name: 'Rotate URL' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate URL' }).click();
    await expect.poll(() => dialog().getByRole('heading').textContent()).toBe('New URL for “Deploys”');
    expect(await dialog().locator('[part~="notice"]').textContent()).toBe('The old URL now answers 404.');
    const fresh = await dialog().getByLabel('Webhook URL').inputValue();
    secrets.push(fresh);
    expect(SECRET_URL.exec(fresh)?.[2]).toBe(SECRET_URL.exec(old)?.[2]);
    expect(fresh).not.toBe(old);
    await closeDialog();
    await expect.poll(() => row('Deploys').locator('[part~="meta"]').textContent()).toMatch(/URL rotated /);

    const refused = await send(old, { body: { text: 'through the old URL' } });
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([404, 'not_found']);
    expect(
      await arrival('through the new URL', () => send(fresh, { body: { text: 'through the new URL' } })),
    ).toBeLessThan(1_000);
  });

  it('revokes after a confirmation that says it cannot be undone: the row says "Revoked" and when, and the URL answers 404', async () => {
    const url = secrets.at(-1)!;
    await row('Deploys').getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('This cannot be undone.');
    expect((await send(url, { body: { text: 'still active' } })).status).toBe(201);
    await confirm.getByRole('button', { name: 'Revoke for good' }).click();
    await expect.poll(() => row('Deploys').locator('[part~="status"]').textContent()).toBe('Revoked');
    // Its dates: when it was revoked, not only when it was rotated.
    const meta = (await row('Deploys').locator('[part~="meta"]').textContent()) ?? '';
    expect(meta).toMatch(/Revoked [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(await row('Deploys').getByRole('button').allTextContents()).toEqual(['Recent posts']);
    const refused = await send(url, { body: { text: 'after revoke' } });
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([404, 'not_found']);
    const traces = await tracesOf(page, log);
    for (const secret of secrets) expect(traces).not.toContain(SECRET_URL.exec(secret)?.[3]);
  });

  it('shows :tada: and other common emoji names as emoji', async () => {
    const { url } = await createWebhookFromPage(page, 'Party');
    const text = 'Release :tada: :rocket: :white_check_mark: :thumbsup: :no_such_emoji:';
    await arrival('Release', () =>
      send(url, { body: { text: 'Release', blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] } }),
    );
    const content = messages().filter({ hasText: 'Release' }).locator('.content');
    expect(await content.textContent()).toBe('Release 🎉 🚀 ✅ 👍 :no_such_emoji:');
  });

  it('wraps an 80-character name without spaces instead of widening the page', async () => {
    const name = 'W'.repeat(80);
    const url = await createInElement(name);
    await closeDialog();
    await arrival('from the long name', () => send(url, { body: { text: 'from the long name' } }));
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    for (const target of [
      row(name).getByRole('heading', { name }),
      messages().last().locator('.author'),
    ] as Locator[]) {
      const box = await target.boundingBox();
      expect(box!.x + box!.width, String(target)).toBeLessThanOrEqual(widths.viewport);
    }
  });

  it('shows the history again, oldest first, and the webhooks with it, after a reload', async () => {
    await page.reload();
    await messages().filter({ hasText: 'still active' }).waitFor({ timeout: 1_000 });
    const texts = await page.locator('#messages .message .content').allTextContents();
    expect(texts[0]).toContain('Test message from the webhook settings');
    const later = ['Sent with Slack’s own client', 'still active', 'Release', 'from the long name'].map((text) =>
      texts.findIndex((shown) => shown.includes(text)),
    );
    expect(later).toEqual([...later].sort((a, b) => a - b));
    expect(texts.at(-1)).toContain('from the long name');
    await row('Deploys').waitFor();
    expect(await row('Deploys').locator('[part~="status"]').textContent()).toBe('Revoked');
  });

  it('has no serious or critical axe-core violation: the page, a dialog open, light and dark, desktop and phone; and saves their screenshots', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const [size, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const other = await browser.newContext({ viewport, colorScheme });
        try {
          const shown = await other.newPage();
          shown.setDefaultTimeout(5_000);
          await shown.goto(demo.origin);
          await expect.poll(() => shown.textContent('#live')).toBe('live');
          await shown.locator('channel-webhooks-settings').getByRole('heading', { name: demo.startupName }).waitFor();
          await shown.locator('#messages .message').last().waitFor();
          expect(await seriousViolations(shown), `${size} ${colorScheme}`).toEqual([]);
          await shown.screenshot({ path: `${SCREENSHOTS}demo-${size}-${colorScheme}.png` });

          await shown.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).first().click();
          await shown.getByRole('dialog').getByLabel('Name').waitFor();
          // Past its opening animation: axe reads colours as they are drawn.
          await shown
            .getByRole('dialog')
            .evaluate((element) =>
              Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
            );
          expect(await seriousViolations(shown), `${size} ${colorScheme}, create dialog`).toEqual([]);
          await shown.screenshot({ path: `${SCREENSHOTS}demo-${size}-${colorScheme}-create.png` });
        } finally {
          await other.close();
        }
      }
    }
  });

  it('refuses the management API and the stream to a client on this machine that is not the page (as through a same-host proxy)', async () => {
    const { url, webhook } = await createWebhookFromPage(page, 'Kept');
    const api = `${demo.origin}/demo/api/manage`;
    // What curl sends through nginx on the same machine: a loopback peer, a loopback Host, no Origin
    // and no Sec-Fetch-Site. The demo's sign-in does not know it: signed out.
    const signedOut = [
      send(`${api}/channels/general/webhooks`, { method: 'GET' }),
      send(`${api}/channels/general/webhooks`, { body: { name: 'curl' } }),
      send(`${api}/webhooks/${webhook.id}/rotate`, { body: {} }),
      send(`${api}/webhooks/${webhook.id}/revoke`, { body: {} }),
      send(`${api}/webhooks/${webhook.id}/posts`, { method: 'GET' }),
    ];
    for (const answer of await Promise.all(signedOut))
      expect([answer.status, (answer.json as { code: string }).code]).toEqual([401, 'unauthenticated']);
    // A page of another site, or another origin on this machine, is refused by the API itself.
    const crossSite = [
      send(`${api}/channels/general/webhooks`, { method: 'GET', headers: { 'sec-fetch-site': 'same-site' } }),
      send(`${api}/channels/general/webhooks`, { body: { name: 'curl' }, headers: { origin: 'http://localhost:1' } }),
      send(`${api}/channels/general/webhooks`, {
        body: { name: 'x' },
        headers: { origin: 'https://attacker.example' },
      }),
    ];
    for (const answer of await Promise.all(crossSite)) expect(answer.status).toBe(403);
    const stream = await send(`${demo.origin}/demo/api/events`, { method: 'GET' });
    expect([stream.status, (stream.json as { code: string }).code]).toEqual([403, 'forbidden']);

    expect((await send(url, { body: { text: 'still works' } })).status).toBe(201);
    const listed = (
      await send(`${api}/channels/general/webhooks`, { method: 'GET', headers: { 'sec-fetch-site': 'same-origin' } })
    ).json as {
      webhooks: { name: string; status: string }[];
    };
    expect(listed.webhooks.filter((hook) => hook.name === 'curl' || hook.name === 'x')).toEqual([]);
    expect(listed.webhooks.find((hook) => hook.name === 'Kept')?.status).toBe('active');
  });

  it('answers a bad Host header, or a body that is not JSON, with a 4xx that shows no internals', async () => {
    const answers = await Promise.all([
      ...['[', 'a b', '[::1', 'localhost:99999x', 'local\\host'].flatMap((host) =>
        ['/', '/demo/api/manage/channels/general/webhooks', '/demo/assets/demo.js', '/demo/element.js'].map((path) =>
          send(`${demo.origin}${path}`, { method: 'GET', headers: { host } }),
        ),
      ),
      send(`${demo.origin}/demo/api/manage/channels/general/webhooks`, {
        body: '{',
        headers: { 'sec-fetch-site': 'same-origin' },
      }),
      send(`${demo.origin}/demo/api/manage/channels/general/webhooks`, {
        body: 'name=x',
        headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      }),
      send(`${demo.origin}/anything`, { body: '{' }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toMatch(/ at |\/work\/|node_modules|\.js:\d|Error/);
    }
  });

  it('refuses the page, its files and its API to a foreign Host name', async () => {
    for (const path of ['/', '/demo/element.js', '/demo/api/manage/channels/general/webhooks']) {
      const rebound = await send(`${demo.origin}${path}`, {
        method: 'GET',
        headers: { host: 'attacker.example:80', 'sec-fetch-site': 'same-origin' },
      });
      expect(rebound.status, path).toBe(403);
    }
    const served = await send(`${demo.origin}/`, { method: 'GET' });
    expect(served.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(served.text).not.toMatch(/\sstyle=/);
  });
});
