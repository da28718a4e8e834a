import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { isFocused, openSettings, settingsEvents, shadowText, tabTo, tracesOf } from './element-page.js';
import { type ElementApp, startElementApp, type StoreKind } from './element-server.js';

// The whole life of a webhook through <channel-webhooks-settings>, by keyboard alone and by mouse,
// on a real server: the management API and the endpoint over one real store each.
const missing = chromiumMissing();
const { databaseUrl } = backends();
const SECRET_URL = /^(https?:\/\/[^/]+)\/hooks\/channels\/(wh_[\w-]{22})\/([\w-]{43})$/;

/** How a reader acts: a keyboard reader tabs to a control and presses Enter; a mouse reader clicks it. */
interface Reader {
  name: string;
  press(page: Page, target: Locator): Promise<void>;
  type(page: Page, target: Locator, text: string): Promise<void>;
  close(page: Page, dialog: Locator, button: string): Promise<void>;
}

const keyboard: Reader = {
  name: 'by keyboard alone',
  press: async (page, target) => {
    await tabTo(page, target);
    await page.keyboard.press('Enter');
  },
  type: async (page, target, text) => {
    await tabTo(page, target);
    await page.keyboard.type(text);
  },
  close: async (page) => page.keyboard.press('Escape'),
};

const mouse: Reader = {
  name: 'by mouse',
  press: (_page, target) => target.click(),
  type: async (_page, target, text) => {
    await target.click();
    await target.pressSequentially(text);
  },
  // The last: a dialog's title bar has its own close button too.
  close: (_page, dialog, button) => dialog.getByRole('button', { name: button, exact: true }).last().click(),
};

const stores: StoreKind[] = ['memory', 'sqlite', ...(databaseUrl === null ? [] : ['postgres' as const])];

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings> in Chromium${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    describe.each(stores)('on the %s store', (storeKind) => {
      let app: ElementApp;
      beforeAll(async () => {
        app = await startElementApp({ store: storeKind, databaseUrl });
      });
      afterAll(async () => {
        await app?.close();
      });

      it.each([keyboard, mouse])(
        'creates, copies, sends a test, rotates (the old URL answers 404), reads the history and revokes, $name',
        async (reader) => {
          const { context, page, log } = await openSettings(browser, app);
          const name = `Deploys ${reader.name.split(' ')[1]}`;
          const settings = page.locator('channel-webhooks-settings');
          const dialog = page.getByRole('dialog');
          // A dialog is gone once the element removed it, with what it showed: Escape hides a
          // <dialog> (and returns focus) at once, and its close event, which empties it, comes a task later.
          const dialogs = settings.locator('dialog');
          const row = settings.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
          const secrets: string[] = [];
          try {
            // Empty, the element says what an incoming webhook is and how a sender uses one.
            if ((await settings.getByRole('listitem').count()) === 0) {
              await expect.poll(() => shadowText(settings)).toContain('An incoming webhook lets another system');
              expect(await shadowText(settings)).toContain('Content-Type: application/json');
            }

            // Create: name, description and avatar.
            const newWebhook = settings.getByRole('button', { name: 'New webhook' }).first();
            await reader.press(page, newWebhook);
            await expect.poll(() => dialog.getAttribute('aria-labelledby')).not.toBeNull();
            expect(await dialog.getByRole('heading').textContent()).toBe('New webhook in #general');
            await expect.poll(() => isFocused(dialog.getByLabel('Name'))).toBe(true);
            await reader.type(page, dialog.getByLabel('Name'), name);
            await reader.type(page, dialog.getByLabel('Description'), 'Production deploys of checkout-service');
            await reader.type(page, dialog.getByLabel('Avatar URL'), 'https://avatars.invalid/deploys.png');
            await reader.press(page, dialog.getByRole('button', { name: 'Create webhook' }));

            // The URL, once, with the warning, the copy button, the curl line and the test message.
            await expect.poll(() => dialog.getByRole('heading').textContent()).toBe(`“${name}” is ready`);
            const url = await dialog.getByLabel('Webhook URL').inputValue();
            const [, origin, webhookId, secret] = SECRET_URL.exec(url) ?? [];
            expect(origin).toBe(app.webhookOrigin);
            secrets.push(secret!);
            expect(await dialog.textContent()).toContain('it will not be shown again');
            expect(await dialog.locator('pre').textContent()).toContain(`'${url}'`);
            await expect.poll(() => isFocused(dialog.getByRole('button', { name: 'Copy URL' }))).toBe(true);
            await reader.press(page, dialog.getByRole('button', { name: 'Copy URL' }));
            await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
            await reader.press(page, dialog.getByRole('button', { name: 'Send a test message' }));
            await expect
              .poll(() => dialog.getByRole('status').filter({ hasText: 'Sent' }).textContent())
              .toBe('Sent (201): the test message is in the channel.');
            const stored = await app.store.listMessages(app.channelId);
            expect(stored.at(-1)).toMatchObject({
              body: `Test message from the webhook settings: “${name}” works.`,
              author: { type: 'webhook', id: webhookId, name },
            });

            // Closed, the URL is gone from the page and focus is back on what opened the dialog.
            await reader.close(page, dialog, 'Done');
            await expect.poll(() => dialogs.count()).toBe(0);
            await expect.poll(() => isFocused(newWebhook)).toBe(true);
            expect(await tracesOf(page, log)).not.toContain(secret);

            // The row: name, description, avatar (its initial: the image does not load), active, dates.
            await expect.poll(() => row.textContent()).toContain('Last post');
            expect(await row.textContent()).toContain('Production deploys of checkout-service');
            expect(await row.textContent()).toContain('Active');
            expect(await row.locator('[part~="avatar"]').textContent()).toBe('D');

            // Rotate, after a confirmation: a new URL once, the old one answers 404 at once.
            await reader.press(page, row.getByRole('button', { name: 'Rotate URL' }));
            const confirm = page.getByRole('alertdialog');
            expect(await confirm.getByRole('heading').textContent()).toBe(`Rotate the URL of “${name}”?`);
            await expect.poll(() => isFocused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
            expect((await send(url, { body: { text: 'still the first URL' } })).status).toBe(201);
            await reader.press(page, confirm.getByRole('button', { name: 'Rotate URL' }));
            await expect.poll(() => dialog.getByRole('heading').textContent()).toBe(`New URL for “${name}”`);
            expect(await dialog.textContent()).toContain('The old URL now answers 404.');
            const rotated = await dialog.getByLabel('Webhook URL').inputValue();
            const [, , rotatedId, rotatedSecret] = SECRET_URL.exec(rotated) ?? [];
            expect(rotatedId).toBe(webhookId);
            expect(rotatedSecret).not.toBe(secret);
            secrets.push(rotatedSecret!);
            const old = await send(url, { body: { text: 'through the old URL' } });
            expect([old.status, (old.json as { code: string }).code]).toEqual([404, 'not_found']);
            await reader.press(page, dialog.getByRole('button', { name: 'Send a test message' }));
            await expect
              .poll(() => dialog.getByRole('status').filter({ hasText: 'Sent' }).textContent())
              .toBe('Sent (201): the test message is in the channel.');
            await reader.close(page, dialog, 'Done');
            await expect.poll(() => dialogs.count()).toBe(0);
            await expect.poll(() => isFocused(row.getByRole('button', { name: 'Rotate URL' }))).toBe(true);

            // A sender's refusal, in the history: status, code, pointer and what to send instead.
            const refused = await send(rotated, {
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
            expect(refused.status).toBe(400);
            // The history is written off the answer's path: the refusal is there a moment later.
            await expect
              .poll(async () => (await app.store.listPosts!(webhookId!, 5)).map((post) => post.status))
              .toContain(400);
            await reader.press(page, row.getByRole('button', { name: 'Recent posts' }));
            expect(await dialog.getByRole('heading').textContent()).toBe(`Recent posts to “${name}”`);
            const posts = dialog.getByRole('listitem').filter({ hasText: 'Refused' });
            await expect.poll(() => posts.count()).toBeGreaterThan(0);
            const refusal = await dialog.getByRole('list').first().getByRole('listitem').first().textContent();
            expect(refusal).toContain('400');
            expect(refusal).toContain('invalid_payload');
            expect(refusal).toContain('/blocks/0/fields');
            expect(refusal).toContain('Send instead: Section fields are Slack-only');
            expect(
              await dialog.getByRole('link', { name: 'how, with an example' }).first().getAttribute('href'),
            ).toMatch(/docs\/slack-differences\.md#section-fields$/);
            expect(await dialog.textContent()).toContain('Accepted: a new message.');
            await reader.close(page, dialog, 'Close');
            await expect.poll(() => dialogs.count()).toBe(0);
            await expect.poll(() => isFocused(row.getByRole('button', { name: 'Recent posts' }))).toBe(true);

            // Revoke, after a confirmation that says it cannot be undone.
            await reader.press(page, row.getByRole('button', { name: 'Revoke' }));
            expect(await confirm.textContent()).toContain('This cannot be undone.');
            await expect.poll(() => isFocused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
            await reader.press(page, confirm.getByRole('button', { name: 'Revoke for good' }));
            await expect.poll(() => confirm.count()).toBe(0);
            await expect.poll(() => row.locator('[part~="status"]').textContent()).toBe('Revoked');
            expect(await row.getByRole('button').allTextContents()).toEqual(['Recent posts']);
            // Focus moves to the row's one button once the list shows the revocation (the status may show first).
            await expect.poll(() => isFocused(row.getByRole('button', { name: 'Recent posts' }))).toBe(true);
            const revoked = await send(rotated, { body: { text: 'after the revocation' } });
            expect([revoked.status, (revoked.json as { code: string }).code]).toEqual([404, 'not_found']);

            // The app heard of each change, without the URL.
            const events = await settingsEvents(page);
            expect(events.map((event) => [event.type, event.bubbles, event.composed, event.target])).toEqual([
              ['webhook-created', true, true, 'channel-webhooks-settings'],
              ['webhook-rotated', true, true, 'channel-webhooks-settings'],
              ['webhook-revoked', true, true, 'channel-webhooks-settings'],
            ]);
            for (const event of events) {
              expect(JSON.parse(event.detail)).toMatchObject({
                webhook: { id: webhookId, name, channelId: app.channelId },
              });
              expect(event.detail).not.toMatch(/hooks\/channels|"url"/);
            }
            const traces = await tracesOf(page, log);
            for (const value of secrets) expect(traces).not.toContain(value);
          } finally {
            await context.close();
          }
        },
      );
    });
  },
);
