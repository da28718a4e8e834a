import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run soak', () => {
  it('runs as package.json says, briefly, and ends sound: no 500, every 201 stored once, every refusal as the contract says', async () => {
    const env = {
      ...process.env,
      SOAK_SECONDS: '2',
      SOAK_WEBHOOKS: '40',
      SOAK_CONCURRENCY: '4',
      SOAK_SAMPLE_SECONDS: '1',
    };
    const { stdout } = await run('npm', ['run', '--silent', 'soak'], { env, timeout: 60_000 });

    expect(stdout).not.toContain('FAILED');
    const statuses = Object.fromEntries(
      [.../statuses: +(.*)/.exec(stdout)![1]!.matchAll(/(\d+): (\d+)/g)].map(([, status, count]) => [
        status,
        Number(count),
      ]),
    );
    // The mix: posts and retries (201, 200), then a wrong secret, GET, text/plain, bad JSON, an
    // unknown field and an oversized body; 429 once a webhook passes its limit.
    expect(
      Object.keys(statuses).filter(
        (status) => !['200', '201', '400', '404', '405', '413', '415', '429'].includes(status),
      ),
    ).toEqual([]);
    for (const status of ['200', '201', '400', '404', '405', '413', '415'])
      expect(statuses[status], `status ${status} in ${stdout}`).toBeGreaterThan(0);
    const [, stored, answered] = /stored: +(\d+) messages for (\d+) answers 201/.exec(stdout)!;
    expect(Number(stored)).toBe(Number(answered));
    expect(stdout).toMatch(/onError: +none/);
  }, 90_000);
});
