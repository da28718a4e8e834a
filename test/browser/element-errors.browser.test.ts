import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { isFocused, openSettings } from './element-page.js';
import { type ElementApp, SESSIONS, startElementApp } from './element-server.js';

// The management API's refusals and failures, in words, and the element working again after each.
const missing = chromiumMissing();

describe.skipIf(missing !== null)(
  `<channel-webhooks-settings> after a refusal or a failure${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let app: ElementApp;
    beforeAll(async () => {
      [browser, app] = await Promise.all([launchChromium(), startElementApp({ store: 'memory' })]);
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('signed out: says so, offers nothing to create, and loads the list after signing in and Retry', async () => {
      const { context, page } = await openSettings(browser, app, { session: null });
      try {
        const settings = page.locator('channel-webhooks-settings');
        expect(await settings.getByRole('alert').textContent()).toBe(
          'You are signed out. Sign in again, then retry.Retry',
        );
        expect(await settings.getByRole('button', { name: 'New webhook' }).count()).toBe(0);
        await context.addCookies([{ name: 'session', value: 'owner', url: app.origin }]);
        await settings.getByRole('button', { name: 'Retry' }).click();
        await expect.poll(() => settings.locator('[role="alert"]').textContent()).toBe('');
        expect(await settings.getByRole('button', { name: 'New webhook' }).first().isVisible()).toBe(true);
        expect(await isFocused(settings.getByRole('button', { name: 'New webhook' }).first())).toBe(true);
      } finally {
        await context.close();
      }
    });

    it('not allowed: a member who does not own the channel is told in a plain sentence, with no alert, Retry or New webhook', async () => {
      const { context, page } = await openSettings(browser, app, { session: 'stranger' });
      try {
        const settings = page.locator('channel-webhooks-settings');
        const sentence = settings.locator('[part~="not-allowed"]');
        await sentence.waitFor();
        expect(await sentence.textContent()).toBe(
          'You may not manage the webhooks of #general, or it no longer exists. Ask its owner or an organization admin.',
        );
        expect(await settings.locator('[role="alert"]').textContent()).toBe('');
        expect(await settings.getByRole('button', { name: 'Retry' }).count()).toBe(0);
        expect(await settings.getByRole('button', { name: 'New webhook' }).count()).toBe(0);
        // A refusal the reader can act on (signed out) still gets the alert and its Retry.
        await context.clearCookies();
        await page.reload();
        await settings.getByRole('button', { name: 'Retry' }).waitFor();
        expect(await settings.locator('[part~="not-allowed"]').count()).toBe(0);
      } finally {
        await context.close();
      }
    });

    it('archived channel: the form says so and stays open; once unarchived, the same form creates the webhook', async () => {
      const { context, page } = await openSettings(browser, app);
      const dialog = page.getByRole('dialog');
      try {
        await app.store.putChannel({ id: app.channelId, ownerId: SESSIONS.owner.userId, archived: true });
        await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).first().click();
        await dialog.getByLabel('Name').fill('Archived');
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        await expect
          .poll(() => dialog.getByRole('alert').textContent())
          .toBe('#general is archived: it takes no new webhook. Unarchive it first.');
        await app.store.putChannel({ id: app.channelId, ownerId: SESSIONS.owner.userId, archived: false });
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        await expect.poll(() => dialog.getByRole('heading').textContent()).toBe('“Archived” is ready');
      } finally {
        await app.store.putChannel({ id: app.channelId, ownerId: SESSIONS.owner.userId, archived: false });
        await context.close();
      }
    });

    it('a refused name is shown at its field, which gets the focus', async () => {
      const { context, page } = await openSettings(browser, app);
      const dialog = page.getByRole('dialog');
      try {
        await page.locator('channel-webhooks-settings').getByRole('button', { name: 'New webhook' }).first().click();
        await dialog.getByLabel('Name').fill('   ');
        await dialog.getByLabel('Avatar URL').fill('http://not-https.example/a.png');
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        await expect.poll(() => dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
        expect(await isFocused(dialog.getByLabel('Name'))).toBe(true);
        expect(await dialog.getByLabel('Name').evaluate((input) => input.getAttribute('aria-describedby'))).toContain(
          'field-name-error',
        );
        expect(await dialog.locator('#field-name-error').textContent()).toBe(
          'Give it a name of 1 to 80 characters, without control characters.',
        );
        await dialog.getByLabel('Name').fill('Good name');
        await dialog.getByRole('button', { name: 'Create webhook' }).click();
        await expect.poll(() => dialog.getByLabel('Avatar URL').getAttribute('aria-invalid')).toBe('true');
        expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBeNull();
        expect(await dialog.locator('#field-avatarUrl-error').textContent()).toBe(
          'Give an image address that starts with https://, without a user name or password.',
        );
      } finally {
        await context.close();
      }
    });

    it('network down: says the server could not be reached, and Retry works once it is back', async () => {
      const { context, page } = await openSettings(browser, app);
      const settings = page.locator('channel-webhooks-settings');
      try {
        await page.route('**/api/manage/**', (route) => route.abort('connectionrefused'));
        await settings.evaluate((element) => (element as unknown as { refresh(): Promise<void> }).refresh());
        expect(await settings.getByRole('alert').textContent()).toContain('The server could not be reached.');
        await page.unroute('**/api/manage/**');
        await settings.getByRole('button', { name: 'Retry' }).click();
        await expect.poll(() => settings.locator('[role="alert"]').textContent()).toBe('');
        expect(await settings.getByRole('listitem').count()).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    });

    it('a webhook revoked elsewhere meanwhile: rotating it says so in the dialog, and the list shows it revoked', async () => {
      const { context, page } = await openSettings(browser, app);
      const settings = page.locator('channel-webhooks-settings');
      try {
        const created = await send(`${app.origin}/api/manage/channels/${app.channelId}/webhooks`, {
          body: { name: 'Revoked elsewhere' },
          headers: { cookie: 'session=admin' },
        });
        expect(created.status).toBe(201);
        const { webhook } = created.json as { webhook: { id: string } };
        await settings.evaluate((element) => (element as unknown as { refresh(): Promise<void> }).refresh());
        const row = settings.getByRole('listitem').filter({ hasText: 'Revoked elsewhere' });
        expect(
          (
            await send(`${app.origin}/api/manage/webhooks/${webhook.id}/revoke`, {
              body: {},
              headers: { cookie: 'session=admin' },
            })
          ).status,
        ).toBe(200);
        await row.getByRole('button', { name: 'Rotate URL' }).click();
        const confirm = page.getByRole('alertdialog');
        await confirm.getByRole('button', { name: 'Rotate URL' }).click();
        await expect
          .poll(() => confirm.getByRole('alert').textContent())
          .toContain('This webhook was revoked or removed meanwhile');
        await expect.poll(() => row.locator('[part~="status"]').textContent()).toBe('Revoked');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        expect(await isFocused(row.getByRole('button', { name: 'Recent posts' }))).toBe(true);
      } finally {
        await context.close();
      }
    });

    it('shows names and descriptions as text, never as markup', async () => {
      const name = '<img src=x onerror="document.title=\'pwned\'">';
      const created = await send(`${app.origin}/api/manage/channels/${app.channelId}/webhooks`, {
        body: { name, description: '<script>document.title="pwned"</script>' },
        headers: { cookie: 'session=owner' },
      });
      expect(created.status).toBe(201);
      const { context, page } = await openSettings(browser, app);
      try {
        const row = page.locator('channel-webhooks-settings').getByRole('listitem').filter({ hasText: name });
        expect(await row.getByRole('heading').textContent()).toBe(name);
        expect(await row.locator('img, script').count()).toBe(0);
        expect(await page.title()).not.toBe('pwned');
      } finally {
        await context.close();
      }
    });
  },
);
