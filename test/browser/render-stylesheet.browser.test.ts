import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RenderOptions, toHtml } from '../../src/render/index.js';
import { fromSlackPayload } from '../../src/send/index.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { seriousViolations } from './element-page.js';

// channel-webhooks/render.css as an app serves it: a file of the page's origin, under a CSP that
// allows no inline style, beside messages toHtml rendered with its defaults (the two alerting tools'
// payloads through the converter, and a message of every block type). Screenshots of each width
// and scheme go to .tmp/screenshots (git-ignored) for a person to look at.
const missing = chromiumMissing();
const SCREENSHOTS = fileURLToPath(new URL('../../.tmp/screenshots/', import.meta.url));
const CSS = readFileSync(new URL('../../src/render/render.css', import.meta.url), 'utf8');
const ORIGIN = 'http://render.test';
const notifier = (file: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/slack-notifiers/${file}`, import.meta.url), 'utf8')) as unknown;

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const TOUR = {
  body: '',
  blocks: [
    { type: 'header', text: { type: 'plain_text', text: 'Deploy 142 finished :rocket:' } },
    section(
      '*checkout-service* is live on `production` for <@U024BE7LH> <!here>\nDetails: https://ci.example.com/runs/142\n>12 instances healthy\n```kubectl rollout status deploy/checkout```',
    ),
    { type: 'divider' },
    {
      type: 'markdown',
      text: '**Build #981 passed** on `main`\n\n- 1,204 tests, 0 failures\n- coverage 94.1 %\n\n[Open the run](https://ci.example.com/runs/981)',
    },
    {
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_list',
          style: 'bullet',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Ship the dashboard' }] }],
        },
        {
          type: 'rich_text_list',
          style: 'bullet',
          indent: 1,
          elements: [{ type: 'rich_text_section', elements: [{ type: 'color', value: '#36a64f' }] }],
        },
        {
          type: 'rich_text_quote',
          border: 1,
          elements: [{ type: 'text', text: 'Quoted from the incident channel' }],
        },
      ],
    },
    {
      type: 'context',
      elements: [
        { type: 'image', image_url: 'https://ci.example.com/avatar.png', alt_text: 'CI' },
        { type: 'mrkdwn', text: 'Posted <!date^1733068800^{date_short_pretty} at {time}|2024-12-01 16:00 UTC>' },
        { type: 'image', image_url: 'https://ci.example.com/graph.png', alt_text: 'Latency, last hour' },
      ],
    },
  ],
};

function converted(file: string) {
  const { payload } = fromSlackPayload(notifier(file));
  return { body: payload?.text ?? '', blocks: payload?.blocks ?? [] };
}

// One image through the app's `image` option (a local one, so the page loads nothing from outside):
// the avatar shows as an image, every other one as its alt text.
const AVATAR =
  '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="#2f7d5b"/></svg>';
const options: RenderOptions = {
  image: (url) => (url.endsWith('/avatar.png') ? '/avatar.svg' : undefined),
};
const messages = [
  ['Grafana', toHtml(converted('grafana-11.3.0.json'), options)],
  ['Alertmanager', toHtml(converted('alertmanager-0.27.json'), options)],
  ['Releases', toHtml(TOUR, options)],
] as const;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rendered messages</title>
<link rel="stylesheet" href="/page.css">
<link rel="stylesheet" href="/render.css">
</head>
<body>
<main>
<h1>Rendered messages</h1>
<ol class="messages">
${messages.map(([from, html]) => `<li class="message"><h2 class="from">${from}</h2><div class="content">${html}</div></li>`).join('\n')}
</ol>
</main>
</body>
</html>`;

// The page's own look, as an app has one: the background and the type, nothing for the cw-* classes.
const PAGE_CSS = `:root { color-scheme: light dark; font: 15px/1.5 system-ui, sans-serif; }
body { margin: 0; padding: 1rem; background: #fff; color: #1d1c1d; }
@media (prefers-color-scheme: dark) { body { background: #0d1117; color: #e6edf3; } }
h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
.messages { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem; max-width: 46rem; }
.message { padding: 0.75rem 1rem; border: 1px solid #8884; border-radius: 8px; }
.from { font-size: 0.9rem; margin: 0 0 0.25rem; }`;

const CSP = "default-src 'none'; style-src 'self'; img-src 'self'";
const LAYOUTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

describe.skipIf(missing !== null)(`render.css in Chromium${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());

  async function open(layout: (typeof LAYOUTS)[number], colorScheme: 'light' | 'dark') {
    const context = await browser.newContext({ viewport: layout.viewport, colorScheme });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      const files: Record<string, [string, string]> = {
        '/': ['text/html', PAGE],
        '/page.css': ['text/css', PAGE_CSS],
        '/render.css': ['text/css', CSS],
        '/avatar.svg': ['image/svg+xml', AVATAR],
      };
      const file = files[path];
      return file === undefined
        ? route.fulfill({ status: 404 })
        : route.fulfill({
            status: 200,
            contentType: file[0],
            body: file[1],
            headers: { 'content-security-policy': CSP },
          });
    });
    await page.goto(`${ORIGIN}/`);
    return { context, page, violations };
  }

  for (const layout of LAYOUTS) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`styles the rendered classes with no serious axe-core violation: ${layout.name}, ${colorScheme}`, async () => {
        const { context, page, violations } = await open(layout, colorScheme);
        try {
          expect(await seriousViolations(page)).toEqual([]);
          // Applied, not just loaded: the context row is a flex row in the scheme's muted colour.
          const look = await page.evaluate(() => {
            const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
            return {
              context: style('.cw-context').display,
              muted: style('.cw-context').color,
              caption: style('.cw-image-alt').borderTopStyle,
              pre: style('.cw-pre').whiteSpace,
              avatar: (document.querySelector('img.cw-image') as HTMLImageElement | null)?.naturalWidth,
              wider: document.documentElement.scrollWidth > window.innerWidth,
            };
          });
          expect(look).toEqual({
            context: 'flex',
            muted: colorScheme === 'light' ? 'rgb(94, 93, 96)' : 'rgb(164, 171, 180)',
            caption: 'dashed',
            pre: 'pre-wrap',
            avatar: 20,
            wider: false,
          });
          expect(violations).toEqual([]);
          await page.screenshot({ path: `${SCREENSHOTS}render-${layout.name}-${colorScheme}.png`, fullPage: true });
        } finally {
          await context.close();
        }
      }, 60_000);
    }
  }

  it("takes the app's colours through the custom properties the settings element reads, set on any ancestor", async () => {
    const { context, page } = await open(LAYOUTS[0], 'light');
    try {
      const colours = await page.evaluate(() => {
        document.querySelector<HTMLElement>('.messages')!.style.setProperty('--cw-link', 'rgb(200, 0, 100)');
        document.querySelector<HTMLElement>('.messages')!.style.setProperty('--cw-muted', 'rgb(1, 2, 3)');
        return {
          link: getComputedStyle(document.querySelector('.cw-section a')!).color,
          muted: getComputedStyle(document.querySelector('.cw-context')!).color,
        };
      });
      expect(colours).toEqual({ link: 'rgb(200, 0, 100)', muted: 'rgb(1, 2, 3)' });
    } finally {
      await context.close();
    }
  }, 60_000);
});
