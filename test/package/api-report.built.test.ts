import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm run api:check` (scripts/api-report.mjs, run by `npm test` after the build) holds the public
// surface to the committed reports in etc/. Here it reads a copy of this build's declarations with
// one entry's surface changed, as a change of the source would: it must fail and name that entry.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

// Inside the repository, so that the declarations' imports (pg, express, …) resolve as in dist/.
let copy: string;
beforeAll(() => {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  copy = mkdtempSync(join(root, '.tmp', 'api-report-'));
  cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const check = (dist: string) =>
  run(process.execPath, [join(root, 'scripts', 'api-report.mjs'), '--dist', dist], {
    cwd: root,
    timeout: 120_000,
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('the API reports (npm run api:check)', () => {
  it('match this build', async () => {
    const { code, stdout, stderr } = await check(join(root, 'dist'));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^API reports match: \d+ entry points\.$/m);
  }, 120_000);

  it('fail on an export added to one entry, naming its report and where the new one is', async () => {
    const dist = join(copy, 'dist');
    const express = join(dist, 'express.d.cts');
    const before = readFileSync(express, 'utf8');
    try {
      appendFileSync(express, '\n/** Added by the test. */\nexport declare function addedByTheTest(): void;\n');
      const { code, stderr } = await check(dist);
      expect(code).toBe(1);
      const named = [...stderr.matchAll(/^ {2}etc\/(\S+): git diff --no-index etc\/\S+ (\S+)$/gm)];
      expect(named.map(([, file]) => file)).toEqual(['express.api.md']);
      expect(readFileSync(named[0]![2]!, 'utf8')).toContain('export function addedByTheTest(): void;');
      expect(stderr).toContain('run npm run api:update');
      rmSync(dirname(named[0]![2]!), { recursive: true, force: true });
    } finally {
      writeFileSync(express, before);
    }
  }, 120_000);
});
