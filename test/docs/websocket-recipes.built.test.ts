import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { send } from '../support/http.js';
import { root } from './doc-files.js';

// The WebSocket recipes of docs/delivering-messages.md, each run as written (in a file inside the
// repository, so that `channel-webhooks` is this build) with the client library of its own: a
// message posted to the webhook reaches a connected client with its cursor, and a client that
// connects again after that cursor gets exactly the messages stored since.
const page = readFileSync(join(root, 'docs/delivering-messages.md'), 'utf8');
const recipe = (first: string) => {
  const block = [...page.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.startsWith(first));
  if (block === undefined) throw new Error(`docs/delivering-messages.md has no block starting with ${first}`);
  return block;
};

type Delivered = { cursor: string; message: { body: string } };
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Runs a recipe until it prints its curl line; answers its origin and the webhook URL it printed. */
async function run(name: string, code: string): Promise<{ origin: string; hook: string }> {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('build the package first: npm run build');
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const file = join(root, '.tmp', `${name}.mjs`);
  writeFileSync(file, code);
  const child = spawn(process.execPath, [file], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stops.push(() => child.kill('SIGKILL'));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 400 && !/^curl .* (\S+)$/m.test(output); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  const hook = /^curl .* (\S+)$/m.exec(output)?.[1];
  if (hook === undefined) throw new Error(`${name} did not start:\n${output}`);
  return { origin: new URL(hook).origin, hook };
}

const post = async (hook: string, text: string) => expect((await send(hook, { body: { text } })).status).toBe(201);

/** Collects what a client receives, and waits for `count` of it. */
function inbox() {
  const got: Delivered[] = [];
  return {
    got,
    push: (item: Delivered) => got.push(item),
    until: (count: number) => expect.poll(() => got.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count),
  };
}

describe('the WebSocket recipes of docs/delivering-messages.md', () => {
  it('ws: a client gets each message with its cursor, and one that connects again after that cursor gets exactly the later ones', async () => {
    const { origin, hook } = await run('recipe-ws', recipe('// WebSockets with ws'));
    const connect = (after?: string) => {
      const received = inbox();
      const socket = new WebSocket(
        `${origin.replace('http', 'ws')}/feed?channel=deploys${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`,
      );
      socket.on('message', (data) => received.push(JSON.parse(String(data)) as Delivered));
      stops.push(() => socket.close());
      return { socket, received };
    };
    const first = connect();
    await new Promise((resolve) => first.socket.once('open', resolve));
    await post(hook, 'one');
    await post(hook, 'two');
    await first.received.until(2);
    expect(first.received.got.map((item) => item.message.body)).toEqual(['one', 'two']);
    first.socket.close();
    await post(hook, 'three');
    const again = connect(first.received.got[1]!.cursor);
    await again.received.until(1);
    await post(hook, 'four');
    await again.received.until(2);
    expect(again.received.got.map((item) => item.message.body)).toEqual(['three', 'four']);
  });

  it('socket.io: the same, the cursor passed in auth', async () => {
    const { origin, hook } = await run('recipe-socket-io', recipe('// WebSockets with socket.io'));
    const connect = (after?: string) => {
      const received = inbox();
      const socket = io(origin, { auth: { channel: 'deploys', after }, transports: ['websocket'] });
      socket.on('message', (item: Delivered) => received.push(item));
      stops.push(() => socket.disconnect());
      return { socket, received };
    };
    const first = connect();
    await new Promise((resolve) => first.socket.once('connect', () => resolve(undefined)));
    await post(hook, 'one');
    await post(hook, 'two');
    await first.received.until(2);
    expect(first.received.got.map((item) => item.message.body)).toEqual(['one', 'two']);
    first.socket.disconnect();
    await post(hook, 'three');
    const again = connect(first.received.got[1]!.cursor);
    await again.received.until(1);
    await post(hook, 'four');
    await again.received.until(2);
    expect(again.received.got.map((item) => item.message.body)).toEqual(['three', 'four']);
  });
});
