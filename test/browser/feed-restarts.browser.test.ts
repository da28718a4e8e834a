import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../adapters/stores/sqlite/index.js';
import { createWebhookHandler } from '../../src/index.js';
import { freshFile, post as postThrough, startApp } from '../adapters/stores/sqlite/support.js';
import { backends } from '../support/backends.js';
import { isCi } from '../support/global-setup.js';
import { send } from '../support/http.js';
import { startInstance, type Instance, type InstanceExit } from '../support/instance.js';
import { freePort, HAPROXY, NGINX, type ProxyServer, startHaproxy, startNginx } from '../support/servers.js';
import { chromiumMissing, launchChromium } from './chromium.js';

const missing = chromiumMissing();

// A page follows a channel while the process that serves its stream stops as a restart or a
// rolling deploy stops it (Ctrl-C or SIGTERM: the streams' signal aborts, then server.close()).
// The stream must end with its connection, or Chromium's EventSource reconnects over the same
// kept-alive connection, the stopping process serves it again, and it never exits.
describe.skipIf(missing !== null)(
  `a page following a channel across restarts${missing ? ` (SKIPPED: ${missing})` : ''}`,
  () => {
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });
    beforeAll(async () => {
      page = await browser.newPage();
      page.setDefaultTimeout(10_000);
    });

    describe('npm start on a SQLite file, stopped and started again on the same port and file', () => {
      const stops: Array<() => Promise<void>> = [];
      afterEach(async () => {
        await Promise.all(stops.splice(0).map((stop) => stop()));
      });

      const shown = () => page.locator('#messages .message .content').allInnerTexts();

      it('exits within 5 s of Ctrl-C with the page open, and the page resumes on the next start: every message once, in order', async () => {
        const file = freshFile();
        const env = { PORT: String(await freePort()), HOST: '127.0.0.1', STORE_FILE: file };
        const first = await startApp('examples/express/server.js', env, stops);
        const origin = new URL(first.url).origin;
        const post = async (text: string) => expect((await send(first.url, { body: { text } })).status).toBe(201);
        await post('before 1');
        await page.goto(origin);
        await expect.poll(() => page.textContent('#live')).toBe('live');
        await post('before 2');
        await expect.poll(shown).toEqual(['before 1', 'before 2']);

        const started = Date.now();
        const exited = first.stop();
        await expect(
          Promise.race([exited.then(() => 'exited'), sleep(5_000).then(() => 'still running')]),
        ).resolves.toBe('exited');
        expect(Date.now() - started).toBeLessThan(5_000);
        // While it is down, another process of the app stores a message in the same file (its
        // history record is written on a later tick: the connection stays open to the end).
        const database = new Database(file);
        stops.push(async () => void database.close());
        const answer = await postThrough(
          createWebhookHandler({ store: createSqliteStore({ database }) }),
          new URL(first.url).pathname,
          'while down',
        );
        expect(answer.status).toBe(201);
        await startApp('examples/express/server.js', env, stops);
        await post('after 1');
        await post('after 2');
        await expect
          .poll(shown, { timeout: 15_000 })
          .toEqual(['before 1', 'before 2', 'while down', 'after 1', 'after 2']);
        expect(await page.textContent('#live')).toBe('live');
      }, 60_000);
    });

    const { databaseUrl, redisUrl, title } = backends();
    const proxies: Array<{
      name: string;
      binary: string;
      package: string;
      start: (ports: number[], adminToken: string) => Promise<ProxyServer>;
    }> = [
      {
        name: 'nginx',
        binary: NGINX,
        package: 'nginx',
        start: (ports, adminToken) =>
          startNginx(
            (listen) => `
  upstream app {
    # Kept-alive connections to the instances, as nginx advises for proxying; never marked down, so
    # that a refused connection always passes to the other instance.
    server 127.0.0.1:${ports[0]} max_fails=0;
    server 127.0.0.1:${ports[1]} max_fails=0;
    keepalive 16;
  }
  server {
    listen ${listen};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_read_timeout 1h;
    location = / {
      default_type text/html;
      return 200 '${PAGE}';
    }
    # An EventSource sends no Authorization header: the proxy stands in for the app's session
    # (a location that sets a header inherits none of the server's).
    location = /admin/channels/general/events {
      proxy_set_header Authorization "Bearer ${adminToken}";
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_pass http://app;
    }
    location / {
      proxy_pass http://app;
    }
  }`,
          ),
      },
      {
        name: 'HAProxy',
        binary: HAPROXY,
        package: 'haproxy',
        // Its defaults keep connections to the servers alive and reuse them (http-reuse safe). No
        // health checks: a refused connection is tried again on the other server (redispatch).
        start: (ports, adminToken) =>
          startHaproxy(
            (bind) => `  timeout connect 1s
  timeout client 1h
  timeout server 1h
  retries 2
  option redispatch 1
frontend web
  bind ${bind}
  http-request return status 200 content-type text/html string "${PAGE}" if { path / }
  # An EventSource sends no Authorization header: the proxy stands in for the app's session.
  http-request set-header Authorization "Bearer ${adminToken}" if { path /admin/channels/general/events }
  default_backend app
backend app
  balance roundrobin
  server a 127.0.0.1:${ports[0]}
  server b 127.0.0.1:${ports[1]}`,
          ),
      },
    ];

    for (const proxyKind of proxies) {
      const proxyMissing = existsSync(proxyKind.binary)
        ? null
        : `${proxyKind.name} not found at ${proxyKind.binary} (apt-get install ${proxyKind.package})`;
      if (proxyMissing !== null && isCi())
        throw new Error(`CI needs ${proxyKind.name} for a rolling deploy: ${proxyMissing}`);

      describe.skipIf(databaseUrl === null || redisUrl === null || proxyMissing !== null)(
        title(
          `examples/multi-instance twice on PostgreSQL behind ${proxyKind.name}, each restarted in turn${proxyMissing ? ` (SKIPPED: ${proxyMissing})` : ''}`,
          'both',
        ),
        () => {
          const adminToken = randomUUID();
          const run = randomUUID().slice(0, 8);
          let proxy: ProxyServer;
          const instances: Instance[] = [];
          let env: Record<string, string>;
          let ports: number[];

          beforeAll(async () => {
            ports = [await freePort(), await freePort()];
            proxy = await proxyKind.start(ports, adminToken);
            env = {
              DATABASE_URL: databaseUrl!,
              REDIS_URL: redisUrl!,
              ADMIN_TOKEN: adminToken,
              BASE_URL: proxy.origin,
              TABLE_PREFIX: 'cwtest_rolling_',
              KEY_PREFIX: `cwtest:rolling:${run}:`,
            };
            for (const port of ports) instances.push(await startInstance({ ...env, PORT: String(port) }));
          }, 60_000);
          afterAll(async () => {
            await Promise.all(instances.map((instance) => instance.stop()));
            await proxy?.destroy();
          });

          it('every message posted before, during and after appears once, in order, and each stopped instance exits within 4 s', async () => {
            // Four webhooks, so that the posts stay under each one's 60 a minute.
            const hooks: string[] = [];
            for (let i = 0; i < 4; i++) {
              const created = await fetch(`${proxy.origin}/admin/channels/general/webhooks`, {
                method: 'POST',
                headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
                body: JSON.stringify({ name: `Deploys ${i}` }),
              });
              expect(created.status).toBe(201);
              hooks.push(`${proxy.origin}${new URL(((await created.json()) as { url: string }).url).pathname}`);
            }

            // The messages of this run, posted one after another through the proxy; a post that meets
            // a stopping instance is sent again with its key, as a sender does.
            const posted: string[] = [];
            const post = async (text: string) => {
              const hook = hooks[posted.length % hooks.length]!;
              for (let attempt = 0; ; attempt++) {
                const answer = await send(hook, { body: { text }, headers: { 'idempotency-key': text } }).catch(
                  (error: Error) => ({ status: 0, text: error.message }),
                );
                if (answer.status === 201 || answer.status === 200) return void posted.push(text);
                if (attempt === 20) throw new Error(`${text}: ${answer.status} ${answer.text}`);
                await sleep(100);
              }
            };
            let posting = true;
            const poster = (async () => {
              for (let i = 1; posting && i <= 1_000; i++) {
                await post(`${run} #${i}`);
                await sleep(150);
              }
            })();
            // Its failure is the test's, once it is awaited below.
            poster.catch(() => undefined);

            await page.goto(proxy.origin);
            await page.evaluate(() => {
              const state = { seen: [] as string[], source: new EventSource('/admin/channels/general/events') };
              state.source.addEventListener('message', (event) => state.seen.push(JSON.parse(event.data).body));
              Object.assign(window, { feed: state });
            });
            const seen = () =>
              page.evaluate(
                (run) =>
                  (window as unknown as { feed: { seen: string[] } }).feed.seen.filter((text) => text.startsWith(run)),
                run,
              );
            await expect.poll(async () => (await seen()).length, { timeout: 10_000 }).toBeGreaterThan(5);

            const exits: InstanceExit[] = [];
            for (const [i, port] of ports.entries()) {
              exits.push(await instances[i]!.stop());
              instances[i] = await startInstance({ ...env, PORT: String(port) });
              const now = (await seen()).length;
              await expect.poll(async () => (await seen()).length, { timeout: 10_000 }).toBeGreaterThan(now + 5);
            }
            posting = false;
            await poster;
            await post(`${run} last`);

            for (const exit of exits) {
              expect(exit).toEqual({ code: 0, signal: null, ms: expect.any(Number) });
              expect(exit.ms).toBeLessThan(4_000);
            }
            await expect.poll(seen, { timeout: 15_000 }).toEqual(posted);
            expect(
              await page.evaluate(
                () => (window as unknown as { feed: { source: EventSource } }).feed.source.readyState,
              ),
            ).toBe(1);
          }, 120_000);
        },
      );
    }
  },
);

/** The page the proxy serves at `/`: the test's script follows the channel from it. */
const PAGE = '<!doctype html><title>general</title>';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
