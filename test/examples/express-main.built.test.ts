import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, send } from '../support/http.js';

const SCRIPT = 'examples/express/server.js';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs the example as `npm start` does, collecting its output. */
function start(port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const waitFor = async (pattern: RegExp) => {
    for (let i = 0; i < 200 && !pattern.test(output.stdout); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    return pattern.exec(output.stdout);
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output, waitFor, exited };
}

describe('npm start (examples/express/server.js run directly)', () => {
  it('prints the secret URL once with a ready curl line, and logs each message it receives', async () => {
    const port = await freePort();
    const { output, waitFor } = start(port);
    const curl = await waitFor(/curl -i -X POST -H 'Content-Type: application\/json' -d '(\{.*\})' (\S+)/);
    expect(curl).not.toBeNull();
    const [, body, url] = curl!;
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/hooks/channels/wh_[\\w-]{22}/[\\w-]{43}$`));
    expect(output.stdout.split(url!).length - 1).toBe(2);

    const answer = await send(url!, { body: body! });
    expect(answer.status).toBe(201);
    expect(await waitFor(/#general "Demo, started [\d-]+ [\d:]+ UTC": "Hello from curl"/)).not.toBeNull();
    expect(output.stderr).toBe('');
  });

  it('with PORT=0 prints the port the system gave, in every URL, never :0', async () => {
    const { output, waitFor } = start(0);
    const curl = await waitFor(/curl -i .* (\S+)\n/);
    expect(curl).not.toBeNull();
    const url = new URL(curl![1]!);
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(output.stdout).toContain(`Listening on http://127.0.0.1:${url.port}\n`);
    expect(output.stdout).toContain(`Demo page (loopback only): http://127.0.0.1:${url.port}/\n`);
    expect(output.stdout).not.toMatch(/:0\b/);
    expect((await send(url.href, { body: { text: 'on the port it printed' } })).status).toBe(201);
  });

  it("answers the page's event stream while it starts with a stream that ends at once (200), never the 503 that would make EventSource give up", async () => {
    const port = await freePort();
    // On a SQLite file, opening the store takes long enough to be asked meanwhile.
    const file = join(mkdtempSync(join(tmpdir(), 'cw-demo-')), 'demo.sqlite');
    const { output } = start(port, { STORE: 'sqlite', STORE_FILE: file });
    const statuses = new Set<number>();
    for (const until = Date.now() + 20_000; !output.stdout.includes('Listening on') && Date.now() < until; ) {
      const status = await new Promise<number | null>((resolve) => {
        const request = httpGet(
          {
            host: '127.0.0.1',
            port,
            path: '/demo/api/events',
            headers: { accept: 'text/event-stream', 'sec-fetch-site': 'same-origin' },
            agent: false,
          },
          (res) => {
            resolve(res.statusCode ?? null);
            request.destroy();
          },
        );
        request.on('error', () => resolve(null));
      });
      if (status !== null) statuses.add(status);
    }
    expect([...statuses]).toEqual([200]);
  });

  it('says clearly when the port is in use, and exits', async () => {
    const taken = await listen(createHttpServer());
    try {
      const port = Number(new URL(taken.origin).port);
      const { output, exited } = start(port);
      expect(await exited).toBe(1);
      expect(output.stderr).toContain(`Port ${port} is already in use`);
    } finally {
      await taken.close();
    }
  });
});
