import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ElementApp, SESSIONS } from './element-server.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the page logged, with where each line came from, and any script error. */
export interface PageLog {
  lines: string[];
}

export interface OpenOptions {
  session?: keyof typeof SESSIONS | null;
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  reducedMotion?: 'reduce' | 'no-preference';
  locale?: string;
}

/** A fresh context on the app's page, signed in as `session` (default the channel's owner), the element's list loaded. */
export async function openSettings(
  browser: Browser,
  app: ElementApp,
  options: OpenOptions = {},
): Promise<{ context: BrowserContext; page: Page; log: PageLog }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    locale: options.locale ?? 'en-US',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  const session = options.session === undefined ? 'owner' : options.session;
  if (session !== null) await context.addCookies([{ name: 'session', value: session, url: app.origin }]);
  const page = await context.newPage();
  page.setDefaultTimeout(5_000);
  const log: PageLog = { lines: [] };
  page.on('console', (message) => log.lines.push(`${message.type()} ${message.text()} @ ${message.location().url}`));
  page.on('pageerror', (error) => log.lines.push(`pageerror ${error.message}`));
  await page.goto(app.origin);
  await page.evaluate(() => {
    const events: { type: string; detail: string; bubbles: boolean; composed: boolean; target: string }[] = [];
    Object.assign(window, { settingsEvents: events });
    for (const type of ['webhook-created', 'webhook-rotated', 'webhook-revoked']) {
      document.addEventListener(type, (event) => {
        events.push({
          type,
          detail: JSON.stringify((event as CustomEvent).detail),
          bubbles: event.bubbles,
          composed: event.composed,
          target: (event.target as Element).localName,
        });
      });
    }
  });
  await page.locator('channel-webhooks-settings .content:not([aria-busy])').waitFor({ state: 'attached' });
  return { context, page, log };
}

/** The text of a shadow host's shadow tree, which the host's own `textContent` does not hold. */
export function shadowText(host: Locator): Promise<string> {
  return host.evaluate((element) => element.shadowRoot?.textContent ?? '');
}

/** The events the element dispatched so far. */
export function settingsEvents(
  page: Page,
): Promise<{ type: string; detail: string; bubbles: boolean; composed: boolean; target: string }[]> {
  return page.evaluate(() => (window as unknown as { settingsEvents: never[] }).settingsEvents);
}

/** Whether `target` has the focus, through shadow roots. */
export function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });
}

/** Presses Tab (or Shift+Tab) until `target` has the focus: it is reachable by keyboard, or this fails. */
export async function tabTo(page: Page, target: Locator, { backwards = false, max = 20 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  expect(await isFocused(target), `${target} is not reachable with ${backwards ? 'Shift+Tab' : 'Tab'}`).toBe(true);
}

/**
 * Everywhere a secret could linger once its dialog closed: the page's DOM and every shadow root in
 * it (markup and the values of inputs), local and session storage, cookies, and what was logged.
 */
export async function tracesOf(page: Page, log: PageLog): Promise<string> {
  const inPage = await page.evaluate(() => {
    const parts: string[] = [document.documentElement.outerHTML, document.cookie];
    const visit = (root: Document | ShadowRoot) => {
      for (const element of Array.from(root.querySelectorAll('*'))) {
        if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) parts.push(element.value);
        if (element.shadowRoot) {
          parts.push(element.shadowRoot.innerHTML);
          visit(element.shadowRoot);
        }
      }
    };
    visit(document);
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) parts.push(`${storage.key(i)}=${storage.getItem(storage.key(i)!)}`);
    }
    return parts.join('\n');
  });
  return `${inPage}\n${log.lines.join('\n')}`;
}

/** axe-core's violations of `serious` or `critical` impact on the page as it is (shadow roots included). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol, not a <script>: the page's CSP allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[];
          }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`).join('; ')}`,
      );
  });
}
