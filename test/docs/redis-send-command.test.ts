import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './doc-files.js';

const page = readFileSync(join(root, 'docs/stores.md'), 'utf8');
const source = readFileSync(join(root, 'adapters/stores/redis/send-command.ts'), 'utf8');

// Rule: wherever docs/stores.md spells the limiter's sendCommand, it is the type the code takes:
// the command as one array and the key beside it, never spread arguments (a reader following a
// spread signature sends Redis the wrong number of arguments).
describe("docs/stores.md's sendCommand", () => {
  it('the code takes (args, key)', () => {
    expect(source).toMatch(
      /export type RedisSendCommand = \(\s*args: \[command: string, \.\.\.rest: string\[\]\],\s*key: string \| undefined,\s*\) => Promise<unknown>;/,
    );
  });

  it('every signature the page gives is (args: string[], key: string | undefined)', () => {
    const signatures = [...page.matchAll(/`(?:sendCommand)?\(([^`]*?)\)(?::| =>) Promise<unknown>`/g)].map((match) =>
      match[1]!.replace(/\\\|/g, '|'),
    );
    expect(signatures.length).toBeGreaterThanOrEqual(2);
    for (const signature of signatures) expect(signature).toBe('args: string[], key: string | undefined');
  });

  it('every sendCommand the page passes takes the command as one array', () => {
    const passed = [...page.matchAll(/sendCommand: (\([^)]*\)) =>/g)].map((match) => match[1]!);
    expect(passed.length).toBeGreaterThanOrEqual(3);
    for (const parameters of passed) expect(parameters).toMatch(/^\((?:args|\[[^\]]+\])(?:, key)?\)$/);
  });
});
