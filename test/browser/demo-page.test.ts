import { IncomingWebhook } from '@slack/webhook';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { createWebhookFromPage, startDemo } from './demo-server.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)(`the demo page in Chromium${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let browser: Browser;
  let demo: Awaited<ReturnType<typeof startDemo>>;
  let page: Page;

  beforeAll(async () => {
    [browser, demo] = await Promise.all([launchChromium(), startDemo()]);
    page = await browser.newPage();
    page.setDefaultTimeout(5_000);
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  /** Waits for the message with `text` in the channel view and says how long it took. */
  async function arrival(text: string, post: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    await post();
    await page.locator('#messages .message', { hasText: text }).waitFor({ timeout: 1_000 });
    return performance.now() - started;
  }

  it('creates a webhook, shows its URL once, and messages posted through it appear live', async () => {
    await page.goto(demo.origin);
    await expect.poll(() => page.textContent('#live')).toBe('live');
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    await page.fill('#name', 'Deploys');
    await page.click('#create button[type=submit]');
    await page.locator('#secret').waitFor();
    const url = await page.inputValue('#secret-url');
    expect(url).toMatch(new RegExp(`^${demo.origin}/hooks/channels/wh_[\\w-]{22}/[\\w-]{43}$`));
    expect(await page.textContent('#curl')).toContain(`'${url}'`);
    // The list is reloaded after the URL is shown: wait for it, as a reader would.
    await expect.poll(() => page.textContent('#webhooks')).toMatch(/Deploys\s*active/);
    const secret = url.split('/').pop()!;
    expect(demo.logs.join('\n')).not.toContain(secret);

    expect(await arrival('Sent with Slack’s own client', () => new IncomingWebhook(url).send({ text: 'Sent with Slack’s own client' }))).toBeLessThan(1_000);
    let answer: Awaited<ReturnType<typeof send>> | undefined;
    expect(await arrival('Sent over raw HTTP', async () => (answer = await send(url, { body: { text: 'Sent over raw HTTP' } })))).toBeLessThan(1_000);
    expect(answer!.status).toBe(201);

    const message = page.locator('#messages .message', { hasText: 'Sent over raw HTTP' });
    expect(await message.locator('.author').textContent()).toBe('Deploys');
    expect(await message.locator('.badge').textContent()).toBe('webhook');
    expect(await page.locator('#messages .message').last().textContent()).toContain('Sent over raw HTTP');

    await page.click('#sample');
    await expect.poll(() => page.textContent('#result')).toBe('201 Created');
    await page.locator('#messages .message', { hasText: 'Deploy 142 finished' }).waitFor({ timeout: 1_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(demo.logs.join('\n')).not.toContain(secret);
  });

  it('rotates: the new URL is shown once and the old one answers 404 at once', async () => {
    const old = await page.inputValue('#secret-url');
    await page.locator('.webhook', { hasText: 'Deploys' }).locator('button.rotate').click();
    await expect.poll(() => page.inputValue('#secret-url')).not.toBe(old);
    const fresh = await page.inputValue('#secret-url');
    expect(new URL(fresh).pathname.split('/')[3]).toBe(new URL(old).pathname.split('/')[3]);
    // The list is reloaded after the new URL is shown: wait for it, as a reader would.
    await expect.poll(() => page.textContent('#webhooks')).toMatch(/Deploys\s*active\s*rotated/);

    const refused = await send(old, { body: { text: 'through the old URL' } });
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([404, 'not_found']);
    expect(await arrival('through the new URL', () => send(fresh, { body: { text: 'through the new URL' } }))).toBeLessThan(1_000);
  });

  it('archives the channel: a post answers 409, shown on the page; unarchiving lets posts in again', async () => {
    await page.click('#archive');
    await expect.poll(() => page.textContent('#channel-state')).toBe('archived');
    await page.click('#sample');
    await expect.poll(() => page.textContent('#result')).toMatch(/^409 channel_archived: /);
    const refused = await send(await page.inputValue('#secret-url'), { body: { text: 'into the archive' } });
    expect(refused.status).toBe(409);

    await page.click('#archive');
    await expect.poll(() => page.textContent('#channel-state')).toBe('active');
    await page.click('#sample');
    await expect.poll(() => page.textContent('#result')).toBe('201 Created');
  });

  it('revokes only after a confirmation; the URL then answers 404 and leaves the screen with its sample button', async () => {
    const url = await page.inputValue('#secret-url');
    const row = page.locator('.webhook', { hasText: 'Deploys' });
    await row.locator('button.revoke').click();
    expect(await row.textContent()).toContain('for good?');
    expect((await send(url, { body: { text: 'still active' } })).status).toBe(201);

    await row.locator('button.confirm-revoke').click();
    await expect.poll(() => row.locator('.pill').textContent()).toBe('revoked');
    expect(await row.locator('button').count()).toBe(0);
    const refused = await send(url, { body: { text: 'after revoke' } });
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([404, 'not_found']);

    expect(await page.locator('#secret').isVisible()).toBe(false);
    expect(await page.locator('#sample').isVisible()).toBe(false);
    expect(await page.locator('body').textContent()).not.toContain(url);
    expect(await page.inputValue('#secret-url')).toBe('');
    expect(await page.textContent('#notice')).toBe('“Deploys” is revoked: its URL now answers 404.');
  });

  it('shows :tada: and other common emoji names as emoji', async () => {
    const { url } = await createWebhookFromPage(page, 'Party');
    const text = 'Release :tada: :rocket: :white_check_mark: :thumbsup: :no_such_emoji:';
    await arrival('Release', () => send(url, { body: { text: 'Release', blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] } }));
    const content = page.locator('#messages .message', { hasText: 'Release' }).locator('.content');
    expect(await content.textContent()).toBe('Release 🎉 🚀 ✅ 👍 :no_such_emoji:');
  });

  it('wraps an 80-character name without spaces instead of widening the page', async () => {
    const name = 'W'.repeat(80);
    await page.fill('#name', name);
    await page.click('#create button[type=submit]');
    await expect.poll(() => page.textContent('#secret-name')).toBe(name);
    const url = await page.inputValue('#secret-url');
    await arrival('from the long name', () => send(url, { body: { text: 'from the long name' } }));
    const row = page.locator('.webhook', { hasText: name });
    await row.locator('button.revoke').click();

    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    for (const selector of ['#secret-name', '.webhook-name', '.confirm span', '#messages .message:last-child .author']) {
      const box = await page.locator(selector).last().boundingBox();
      expect(box!.x + box!.width, selector).toBeLessThanOrEqual(widths.viewport);
    }
    await row.locator('button.confirm-revoke').click();
    await expect.poll(() => page.locator('#secret').isVisible()).toBe(false);
  });

  it('shows the history again, oldest first, after a reload', async () => {
    await page.reload();
    await page.locator('#messages .message', { hasText: 'still active' }).waitFor({ timeout: 1_000 });
    const texts = await page.locator('#messages .message .content').allTextContents();
    expect(texts[0]).toContain('Sent with Slack’s own client');
    const later = ['still active', 'Release', 'from the long name'].map((text) => texts.findIndex((shown) => shown.includes(text)));
    expect(later).toEqual([...later].sort((a, b) => a - b));
    expect(later[0]).toBeGreaterThan(0);
    expect(texts.at(-1)).toContain('from the long name');
  });

  it('refuses every management route to a client on this machine that is not the page (as through a same-host proxy)', async () => {
    const { url, webhook } = await createWebhookFromPage(page, 'Kept');
    // What curl sends through nginx on the same machine: a loopback peer, a loopback Host, no Origin
    // and no Sec-Fetch-Site.
    const api = `${demo.origin}/demo/api`;
    const attempts = [
      send(`${api}/state`, { method: 'GET' }),
      send(`${api}/events`, { method: 'GET' }),
      send(`${api}/webhooks`, { body: { name: 'curl' } }),
      send(`${api}/webhooks/${webhook.id}/rotate`, { body: {} }),
      send(`${api}/webhooks/${webhook.id}/revoke`, { body: {} }),
      send(`${api}/channel`, { body: { archived: true } }),
      send(`${api}/state`, { method: 'GET', headers: { 'sec-fetch-site': 'same-site' } }),
      send(`${api}/webhooks`, { body: { name: 'curl' }, headers: { origin: 'http://localhost:1' } }),
    ];
    for (const answer of await Promise.all(attempts)) expect([answer.status, (answer.json as { code: string }).code]).toEqual([403, 'forbidden']);
    expect((await send(url, { body: { text: 'still works' } })).status).toBe(201);
    expect(await page.evaluate(async () => (await fetch('/demo/api/state')).status)).toBe(200);
    const state = (await send(`${api}/state`, { method: 'GET', headers: { 'sec-fetch-site': 'same-origin' } })).json as {
      channel: { archived: boolean };
      webhooks: { name: string; status: string }[];
    };
    expect(state.channel.archived).toBe(false);
    expect(state.webhooks.filter((hook) => hook.name === 'curl')).toEqual([]);
    expect(state.webhooks.find((hook) => hook.name === 'Kept')?.status).toBe('active');
  });

  it('answers a bad Host header, or a body that is not JSON, with a 4xx that shows no internals', async () => {
    const answers = await Promise.all([
      ...['[', 'a b', '[::1', 'localhost:99999x', 'local\\host'].flatMap((host) =>
        ['/', '/demo/api/state', '/demo/assets/demo.js'].map((path) => send(`${demo.origin}${path}`, { method: 'GET', headers: { host } })),
      ),
      send(`${demo.origin}/demo/api/webhooks`, { body: '{', headers: { 'sec-fetch-site': 'same-origin' } }),
      send(`${demo.origin}/anything`, { body: '{' }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toMatch(/ at |\/work\/|node_modules|\.js:\d|Error/);
    }
  });

  it('refuses the demo routes to a foreign Host name and to cross-site requests', async () => {
    const rebound = await send(`${demo.origin}/`, { method: 'GET', headers: { host: 'attacker.example:80' } });
    expect(rebound.status).toBe(403);
    const crossSite = await send(`${demo.origin}/demo/api/webhooks`, { body: { name: 'x' }, headers: { origin: 'https://attacker.example' } });
    expect(crossSite.status).toBe(403);
    const form = await send(`${demo.origin}/demo/api/webhooks`, { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(403);
    const page = await send(`${demo.origin}/`, { method: 'GET' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
