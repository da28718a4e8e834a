import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// The soak of `npm run soak` as package.json runs it after its build (`npm run soak:run`), on the
// memory target for a few seconds: it bundles, serves, loads and checks end to end (test/soak runs
// the durable targets with faults). Not the build: `npm test` builds dist/ once, first, and a build
// here would empty it under the feet of the test files that read it meanwhile.
describe('npm run soak', () => {
  it('runs as package.json says, briefly, on the memory store, and ends sound: every 201 stored once, no 5xx, every status as the contract says', async () => {
    const env = { ...process.env, SOAK_TARGET: 'memory', SOAK_SECONDS: '3', SOAK_RATE: '100', SOAK_WEBHOOKS: '40' };
    const { stdout } = await run('npm', ['run', '--silent', 'soak:run'], { env, timeout: 180_000 });

    expect(stdout).toContain('soak: PASSED');
    expect(stdout).not.toContain('FAIL ');
    const [, answered, stored] =
      /PASS {2}every 201 stored exactly once.*?: (\d+) answers 201, (\d+) messages stored/.exec(stdout)!;
    expect(Number(answered)).toBeGreaterThan(0);
    expect(Number(stored)).toBe(Number(answered));
    const statuses = /statuses: (.*)/.exec(stdout)![1]!;
    for (const status of ['duplicate 200', 'invalid 400', 'invalid 404', 'invalid 405', 'invalid 415', 'valid 201'])
      expect(statuses).toContain(status);
    expect(statuses).not.toMatch(/ 5\d\d:/);
  }, 200_000);
});
