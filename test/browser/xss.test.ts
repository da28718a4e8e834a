import type { Browser, Page } from 'playwright-core';
import { RENDER_ALLOW_LIST } from 'channel-webhooks/render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { startDemo } from './demo-server.js';

const missing = chromiumMissing();

// Each vector, if it ever ran, would set window.pwned or fetch from a foreign host.
const VECTORS: Array<{ name: string; payload: Record<string, unknown> }> = [
  { name: 'script tag in text', payload: { text: '<script>window.pwned = 1</script>' } },
  { name: 'img onerror in text', payload: { text: '<img src=x onerror="window.pwned = 1">' } },
  { name: 'javascript: link in mrkdwn', payload: { text: '<javascript:window.pwned=1|click me>' } },
  { name: 'attribute break-out in a header', payload: { blocks: [{ type: 'header', text: { type: 'plain_text', text: '"><svg onload="window.pwned=1">' } }] } },
  { name: 'iframe and image in markdown', payload: { blocks: [{ type: 'markdown', text: '<iframe src="javascript:window.pwned=1"></iframe> ![x](http://pixel.example/x.png) [y](javascript:window.pwned=1)' }] } },
  { name: 'remote image in context', payload: { text: 'image', blocks: [{ type: 'context', elements: [{ type: 'image', image_url: 'http://pixel.example/c.png', alt_text: 'tracker' }] }] } },
  { name: 'attribute break-out in a rich_text link', payload: { blocks: [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://x.example/"><script>window.pwned=1</script>', text: 'rich link' }] }] }] } },
];

// Inside each message's `.content` the page puts toHtml's output and nothing else.
const ALLOWED = RENDER_ALLOW_LIST;

describe.skipIf(missing !== null)(`the demo page against hostile messages${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let browser: Browser;
  let demo: Awaited<ReturnType<typeof startDemo>>;
  let page: Page;
  const seen = { console: [] as string[], dialogs: [] as string[], foreign: [] as string[] };

  beforeAll(async () => {
    [browser, demo] = await Promise.all([launchChromium(), startDemo()]);
    page = await browser.newPage();
    page.setDefaultTimeout(5_000);
    page.on('console', (message) => seen.console.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => seen.console.push(`pageerror: ${error.message}`));
    page.on('dialog', (dialog) => {
      seen.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      if (new URL(request.url()).hostname !== '127.0.0.1') seen.foreign.push(request.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('shows every vector as inert text: no script runs, nothing is fetched elsewhere, only allowed elements', async () => {
    await page.goto(demo.origin);
    await expect.poll(() => page.textContent('#live')).toBe('live');
    const created = await fetch(`${demo.origin}/demo/api/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '<img src=x onerror="window.pwned=1">' }),
    });
    const { url } = (await created.json()) as { url: string };

    for (const vector of VECTORS) {
      const answer = await send(url, { body: vector.payload });
      expect(answer.status, vector.name).toBe(201);
    }
    await expect.poll(() => page.locator('#messages .message').count()).toBe(VECTORS.length);
    const protocols = await page.locator('#messages a').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).protocol));
    expect(protocols.filter((protocol) => !['http:', 'https:', 'mailto:'].includes(protocol))).toEqual([]);

    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    expect(seen).toEqual({ console: [], dialogs: [], foreign: [] });
    expect(await page.textContent('#messages')).toContain('window.pwned = 1'); // shown as text
    expect(await page.locator('#messages .author').first().textContent()).toBe('<img src=x onerror="window.pwned=1">');

    const found = await page.locator('#messages .content').evaluateAll((contents) =>
      contents.flatMap((content) => Array.from(content.querySelectorAll('*'), (node) => [node.localName, node.getAttributeNames()] as const)),
    );
    const disallowed = found.filter(([tag, attributes]) => !(tag in ALLOWED) || attributes.some((name) => !ALLOWED[tag]!.includes(name)));
    expect(disallowed).toEqual([]);
    expect(found.length).toBeGreaterThan(0);
  });
});
