import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { send } from '../support/http.js';

type Example = { start(options: { port: number; host?: string }): Promise<Server> };

// Plain JavaScript: imported through a path typed as a string, since the examples ship no declarations.
const load = (name: string): Promise<Example> => import(`../../examples/${name}/server.js`);

const FORGED = 'deploy ok\n#general "Admin": \u001b[31mFAKE LOG\u001b[0m \u009b2J\u2028\u202eevil';
let running: Server | null = null;

afterEach(async () => {
  vi.restoreAllMocks();
  running?.closeAllConnections();
  await new Promise((resolve) => running?.close(resolve) ?? resolve(undefined));
  running = null;
});

describe.each(['express', 'koa', 'hono', 'custom-store'])('examples/%s/server.js start()', (name) => {
  it('binds loopback, lowers the request deadlines, and logs a forged message as one escaped line', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    running = await (await load(name)).start({ port: 0 });

    const address = running.address() as AddressInfo;
    expect(address.address).toBe('127.0.0.1');
    expect([running.requestTimeout, running.headersTimeout]).toEqual([15_000, 5_000]);

    const printed = /curl .* (\S+)$/m.exec(lines.join('\n'))![1]!;
    const url = `http://127.0.0.1:${address.port}${new URL(printed).pathname}`;
    lines.length = 0;
    const posted = await send(url, { body: { text: FORGED } });
    expect(posted.status).toBe(201);

    // The express demo names its start-up webhook by its start time.
    expect(lines.map((line) => line.replace(/"Demo, started [^"]+"/, '"Demo"'))).toEqual([
      '#general "Demo": "deploy ok\\n#general \\"Admin\\": \\u001b[31mFAKE LOG\\u001b[0m \\u009b2J\\u2028\\u202eevil"',
    ]);
    expect(lines.join('')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202e]/);
    expect(lines.join('')).not.toContain(new URL(printed).pathname.split('/').pop());
  });
});
