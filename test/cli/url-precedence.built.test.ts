import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultyEndpoint, type FaultyEndpoint } from '../send/fault-proxy.js';

// The built command (dist/cli.js), as `npx channel-webhooks` runs it, against two real endpoints on
// loopback: one named on the command line, one in CHANNEL_WEBHOOK_URL.
const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string>): Promise<Run> {
  const { CHANNEL_WEBHOOK_URL: _, ...inherited } = process.env;
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...inherited, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let fromArgument: FaultyEndpoint;
let fromEnvironment: FaultyEndpoint;
beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
  [fromArgument, fromEnvironment] = await Promise.all([startFaultyEndpoint(), startFaultyEndpoint()]);
});
afterAll(async () => {
  await Promise.all([fromArgument?.close(), fromEnvironment?.close()]);
});

/** What each endpoint received and stored while `work` ran. */
async function traffic(work: () => Promise<Run>) {
  const endpoints = [fromArgument, fromEnvironment];
  const before = endpoints.map(
    (endpoint) => [endpoint.seen.length, endpoint.store.listMessages('general').length] as const,
  );
  const result = await work();
  const [argument, environment] = endpoints.map((endpoint, i) => ({
    seen: endpoint.seen.slice(before[i]![0]),
    stored: endpoint.store.listMessages('general').slice(before[i]![1]),
  }));
  return { result, argument: argument!, environment: environment! };
}

// Rule: `send` posts to the URL given as its argument when there is one, and reads
// CHANNEL_WEBHOOK_URL only when there is not.
describe('channel-webhooks send: which URL it posts to', () => {
  it('the argument’s URL wins over CHANNEL_WEBHOOK_URL: only the argument’s endpoint receives the post', async () => {
    const { result, argument, environment } = await traffic(() =>
      run(['send', fromArgument.url, '--text', 'to the argument', '--key', 'both-set'], {
        CHANNEL_WEBHOOK_URL: fromEnvironment.url,
      }),
    );
    expect(argument.stored.map((message) => message.body)).toEqual(['to the argument']);
    expect(result).toEqual({
      code: 0,
      stdout: `${argument.stored[0]!.id}\n`,
      stderr: 'stored (201) under key both-set\n',
    });
    expect(argument.seen).toEqual([{ key: 'both-set', body: '{"text":"to the argument"}', fault: 'pass' }]);
    expect(environment).toEqual({ seen: [], stored: [] });
  });

  it('without an argument, CHANNEL_WEBHOOK_URL is the one posted to', async () => {
    const { result, argument, environment } = await traffic(() =>
      run(['send', '--text', 'to the environment', '--key', 'env-only'], { CHANNEL_WEBHOOK_URL: fromEnvironment.url }),
    );
    expect(environment.stored.map((message) => message.body)).toEqual(['to the environment']);
    expect(result).toEqual({
      code: 0,
      stdout: `${environment.stored[0]!.id}\n`,
      stderr: 'stored (201) under key env-only\n',
    });
    expect(environment.seen).toEqual([{ key: 'env-only', body: '{"text":"to the environment"}', fault: 'pass' }]);
    expect(argument).toEqual({ seen: [], stored: [] });
  });
});
