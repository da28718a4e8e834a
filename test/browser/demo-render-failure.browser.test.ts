import { createServer, type RequestListener } from 'node:http';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryStore, createWebhookHandler, createWebhookManager } from 'channel-webhooks';
import { createExpressMiddleware } from 'channel-webhooks/express';
import { toHtml } from 'channel-webhooks/render';
import { listen, send, type Listening } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';

type Demo = { router: RequestListener };
type CreateDemo = (options: {
  store: unknown;
  manager: unknown;
  actor: unknown;
  channelId: string;
  render: typeof toHtml;
}) => Demo;

const missing = chromiumMissing();
const ACTOR = { userId: 'u-demo', role: 'member' } as const;

// A message whose rendering throws, as a deeply nested one did (RangeError from the recursion).
const render: typeof toHtml = (message, options) => {
  if (message.body.startsWith('POISON')) throw new RangeError('Maximum call stack size exceeded');
  return toHtml(message, options);
};

describe.skipIf(missing !== null)(
  `the demo page with a message that fails to render${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let server: Listening;
    let page: Page;
    let url: string;
    const errors: string[] = [];

    beforeAll(async () => {
      vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
      // Plain JavaScript: imported through a path typed as a string, since it ships no declarations.
      const { createDemo } = (await import('../../examples/express/demo/create-demo.js' as string)) as {
        createDemo: CreateDemo;
      };
      let app: RequestListener = (_req, res) => res.end();
      server = await listen(createServer((req, res) => app(req, res)));
      const store = createMemoryStore();
      store.putChannel({ id: 'general', ownerId: ACTOR.userId, archived: false });
      const manager = createWebhookManager({ store, baseUrl: server.origin });
      const demo = createDemo({ store, manager, actor: ACTOR, channelId: 'general', render });
      const handle = createWebhookHandler({ store });
      app = express().use(createExpressMiddleware(handle)).use(demo.router);
      url = (await manager.create(ACTOR, { channelId: 'general', name: 'Nested' })).url;
      browser = await launchChromium();
      page = await browser.newPage();
      page.setDefaultTimeout(5_000);
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await browser?.close();
      await server?.close();
    });

    const post = async (text: string) => expect((await send(url, { body: { text } })).status).toBe(201);
    const shown = () => page.locator('#messages .message .content').allInnerTexts();
    const PLACEHOLDER = 'This message could not be shown.';

    it('replays the history past it, with a placeholder in its place', async () => {
      for (const text of ['first', 'POISON one', 'second']) await post(text);
      await page.goto(server.origin);
      await expect.poll(shown).toEqual(['first', PLACEHOLDER, 'second']);
      expect(await page.locator('#messages .message').nth(1).locator('.author').textContent()).toBe('Nested');
    });

    it('keeps the live stream going past it', async () => {
      await expect.poll(() => page.textContent('#live')).toBe('live');
      for (const text of ['POISON two', 'third']) await post(text);
      await expect.poll(shown).toEqual(['first', PLACEHOLDER, 'second', PLACEHOLDER, 'third']);
      await page.reload();
      await expect.poll(shown).toEqual(['first', PLACEHOLDER, 'second', PLACEHOLDER, 'third']);
      expect(await page.textContent('#live')).not.toBe('reconnecting…');
    });

    it('says on the server which message failed, in one line without a stack', () => {
      expect(errors.length).toBeGreaterThanOrEqual(3);
      for (const line of errors)
        expect(line).toMatch(/^demo: message \S+ could not be rendered: "Maximum call stack size exceeded"$/);
    });
  },
);
