import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { vi } from 'vitest';

type Express = { start(options: { port: number }): Promise<Server> };

/**
 * The Express example as `npm start` runs it (demo page on), quiet, on a free loopback port;
 * `startupName` is the name of the webhook the start made.
 */
export async function startDemo(): Promise<{
  origin: string;
  startupName: string;
  logs: string[];
  close(): Promise<void>;
}> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));

  const logs: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args.join(' ')));
  // Plain JavaScript: imported through a path typed as a string, since it ships no declarations.
  const example = '../../examples/express/server.js';
  const server = await ((await import(example)) as Express).start({ port });
  const startupName = /^URL of the webhook "(.+)" in #general/m.exec(logs.join('\n'))?.[1];
  if (startupName === undefined) throw new Error(`the demo printed no webhook:\n${logs.join('\n')}`);
  return {
    origin: `http://127.0.0.1:${port}`,
    startupName,
    logs,
    close: async () => {
      log.mockRestore();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Creates a webhook through the management API from the open page, as the settings element does:
 * the demo's sign-in lets in nothing else.
 */
export function createWebhookFromPage(page: Page, name: string): Promise<{ url: string; webhook: { id: string } }> {
  return page.evaluate(async (name) => {
    const created = await fetch('/demo/api/manage/channels/general/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    return (await created.json()) as { url: string; webhook: { id: string } };
  }, name);
}
