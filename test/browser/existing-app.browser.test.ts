import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../adapters/stores/sqlite/support.js';
import { backends } from '../support/backends.js';
import { send } from '../support/http.js';
import { freePort } from '../support/servers.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { seriousViolations } from './element-page.js';

// examples/existing-app as a process, on SQLite and on PostgreSQL, in Chromium: people's posts and a
// webhook's reach the room page through the app's own stream of its own messages table, in order,
// and are there again after the process restarts. The element on the app's settings page, for the
// channel's owner and in its calm state for a plain member, is axe-clean at desktop and phone
// width, light and dark, with screenshots in .tmp/screenshots (git-ignored) for a person to look at.
const missing = chromiumMissing();
const { databaseUrl, skipped } = backends();
const SCRIPT = 'examples/existing-app/server.js';
const SCREENSHOTS = new URL('../../.tmp/screenshots/', import.meta.url);
const LAYOUTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** The app's database: where the process is pointed, and SQL of the app's own run against it. */
interface AppDatabase {
  env: Record<string, string>;
  sql(statement: string): Promise<void>;
  drop(): Promise<void>;
}

async function sqliteDatabase(): Promise<AppDatabase> {
  const folder = mkdtempSync(join(tmpdir(), 'cw-existing-app-'));
  const file = join(folder, 'app.sqlite');
  return {
    env: { DATABASE_FILE: file },
    sql: async (statement) => {
      const database = new Database(file);
      try {
        database.exec(statement);
      } finally {
        database.close();
      }
    },
    drop: async () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** A database of its own on the run's PostgreSQL, so the app's `users`, `channels` and `messages` meet no other test's. */
async function postgresDatabase(): Promise<AppDatabase> {
  const name = `cw_existing_app_${Math.random().toString(36).slice(2, 10)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl! });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl!);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href },
    sql: async (statement) => {
      const client = new pg.Client({ connectionString: url.href });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

const DATABASES = [
  { name: 'SQLite', open: sqliteDatabase, skip: null },
  {
    name: 'PostgreSQL',
    open: postgresDatabase,
    skip: databaseUrl === null ? `PostgreSQL: ${skipped.join('; ')}` : null,
  },
] as const;

describe.skipIf(missing !== null)(`examples/existing-app in Chromium${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  let browser: Browser;
  const stops: Array<() => Promise<void>> = [];
  const contexts: BrowserContext[] = [];
  const drops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await Promise.all(stops.splice(0).map((stop) => stop()));
    for (const drop of drops.splice(0)) await drop();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The example as a process on `database`, on `port`; answers its origin. */
  const run = async (database: AppDatabase, port: number) => {
    const started = await startApp(SCRIPT, { PORT: String(port), ...database.env }, stops);
    return { origin: new URL(started.url).origin, stop: started.stop };
  };

  /** A browser signed in as one of the app's users (its session cookie). */
  const signedIn = async (
    origin: string,
    token: string,
    options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
  ) => {
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1280, height: 800 },
      colorScheme: options.colorScheme ?? 'light',
    });
    contexts.push(context);
    await context.addCookies([{ name: 'session', value: token, url: origin }]);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    return page;
  };

  /** The room page's posts as its reader sees them: author, then text. */
  const shown = (page: Page) =>
    page
      .locator('#posts li')
      .evaluateAll((items) =>
        items.map(
          (item) => `${item.querySelector('.author')?.textContent}: ${item.querySelector('.text')?.textContent}`,
        ),
      );

  const openRoom = async (page: Page, origin: string) => {
    await page.goto(`${origin}/channels/general`);
    await expect.poll(() => page.textContent('#live')).toBe('live');
  };

  const say = async (page: Page, text: string) => {
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  };

  /** Creates a webhook with the element on the settings page, as the channel's owner; answers its URL. */
  const createWithElement = async (page: Page, origin: string, name: string) => {
    await page.goto(`${origin}/channels/general/settings`);
    const settings = page.locator('channel-webhooks-settings');
    await settings.getByRole('button', { name: 'New webhook' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const url = await dialog.getByLabel('Webhook URL').inputValue();
    await dialog.getByRole('button', { name: 'Done', exact: true }).click();
    return url;
  };

  for (const database of DATABASES) {
    it.skipIf(database.skip !== null)(
      `${database.name}: a person's post, a webhook's, another person's, in order through the app's own stream, and again after a restart${database.skip ? ` (SKIPPED: ${database.skip})` : ''}`,
      async () => {
        const db = await database.open();
        drops.push(db.drop);
        const port = await freePort();
        const first = await run(db, port);

        const bob = await signedIn(first.origin, 'bob-token');
        await openRoom(bob, first.origin);
        await say(bob, 'Is the deploy out?');
        await expect.poll(() => shown(bob)).toEqual(['Bob: Is the deploy out?']);

        const ada = await signedIn(first.origin, 'ada-token');
        const url = await createWithElement(ada, first.origin, 'CI');
        expect((await send(url, { body: { text: 'Deploy finished' } })).status).toBe(201);
        await expect.poll(() => shown(bob)).toEqual(['Bob: Is the deploy out?', 'CI: Deploy finished']);
        expect(await bob.locator('#posts li.webhook .badge').textContent()).toBe('webhook');

        await openRoom(ada, first.origin);
        await say(ada, 'Thanks!');
        const three = ['Bob: Is the deploy out?', 'CI: Deploy finished', 'Ada: Thanks!'];
        await expect.poll(() => shown(bob)).toEqual(three);
        await expect.poll(() => shown(ada)).toEqual(three);

        // The process stops and starts again on the same database and port; the open page's
        // stream resumes after the last post it had, the webhook posts on, and a fresh load of
        // the room has the whole history from the app's table.
        await first.stop();
        await expect.poll(() => bob.textContent('#live')).toBe('reconnecting…');
        const second = await run(db, port);
        await expect.poll(() => bob.textContent('#live'), { timeout: 15_000 }).toBe('live');
        expect((await send(url, { body: { text: 'Deploy 2 finished' } })).status).toBe(201);
        const four = [...three, 'CI: Deploy 2 finished'];
        await expect.poll(() => shown(bob)).toEqual(four);
        const fresh = await signedIn(second.origin, 'bob-token');
        await openRoom(fresh, second.origin);
        await expect.poll(() => shown(fresh)).toEqual(four);
      },
      90_000,
    );
  }

  it('the settings page: the element for the owner, its calm state for a plain member, and the room, at each width and scheme, axe-clean', async () => {
    const db = await sqliteDatabase();
    drops.push(db.drop);
    const { origin } = await run(db, await freePort());
    const created = await send(`${origin}/api/manage/channels/general/webhooks`, {
      headers: { authorization: 'Bearer ada-token' },
      body: { name: 'Deploys' },
    });
    expect(created.status).toBe(201);
    const { url } = created.json as { url: string };
    await send(`${origin}/channels/general/messages`, {
      headers: { authorization: 'Bearer bob-token' },
      body: { text: 'Is the deploy out?' },
    });
    await send(url, { body: { text: 'Deploy 43 finished' } });
    await send(`${origin}/channels/general/messages`, {
      headers: { authorization: 'Bearer ada-token' },
      body: { text: 'Thanks!' },
    });

    const found: string[] = [];
    for (const layout of LAYOUTS) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const shoot = async (page: Page, name: string) => {
          await page.waitForTimeout(250);
          for (const violation of await seriousViolations(page))
            found.push(`${name} ${layout.name} ${colorScheme}: ${violation}`);
          await page.screenshot({
            path: new URL(`existing-app-${name}-${layout.name}-${colorScheme}.png`, SCREENSHOTS).pathname,
            animations: 'disabled',
          });
        };
        const options = { viewport: layout.viewport, colorScheme };

        const room = await signedIn(origin, 'bob-token', options);
        await openRoom(room, origin);
        await expect.poll(() => shown(room)).toHaveLength(3);
        await shoot(room, 'room');

        // Bob, a plain member, gets the app's own sentence: canManage said no, so no element.
        await room.goto(`${origin}/channels/general/settings`);
        expect(await room.locator('channel-webhooks-settings').count()).toBe(0);
        expect(await room.locator('main p').textContent()).toBe(
          "Only the owner of #general and the organization's admins manage its webhooks.",
        );

        const owner = await signedIn(origin, 'ada-token', options);
        await owner.goto(`${origin}/channels/general/settings`);
        const settings = owner.locator('channel-webhooks-settings');
        await settings.getByRole('heading', { level: 3, name: 'Deploys' }).waitFor();
        expect(await settings.getByRole('button', { name: 'New webhook' }).count()).toBeGreaterThan(0);
        await shoot(owner, 'settings-owner');

        // The app hands #general to Bob while Ada's page is open: Ada is now a plain member, and
        // the element made again on that page (as a client-side router does when she comes back
        // to the settings) says so calmly, with no alert and no controls.
        await db.sql("UPDATE channels SET owner_id = 'u-bob' WHERE id = 'general'");
        await settings.evaluate((element) => element.replaceWith(element.cloneNode()));
        const sentence = settings.locator('[part~="not-allowed"]');
        await sentence.waitFor();
        expect(await sentence.textContent()).toBe(
          'You may not manage the webhooks of #general, or it no longer exists. Ask its owner or an organization admin.',
        );
        expect(await settings.locator('[role="alert"]').textContent()).toBe('');
        expect(await settings.getByRole('button').count()).toBe(0);
        await shoot(owner, 'settings-member');

        // And Bob, the owner now, gets the element on his next load.
        await room.reload();
        await room.locator('channel-webhooks-settings').getByRole('heading', { level: 3, name: 'Deploys' }).waitFor();
        await db.sql("UPDATE channels SET owner_id = 'u-ada' WHERE id = 'general'");
      }
    }
    expect(found).toEqual([]);
  }, 120_000);
});
