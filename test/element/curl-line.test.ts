import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlLine } from '../../src/element/secret-dialog.js';

// The URL dialog's "ready curl line" is pasted into a shell: whatever the URL holds, the shell must
// hand curl exactly that URL and the JSON body, as separate arguments.
function argumentsCurlGets(line: string): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${line}`;
  return execFileSync('sh', ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describe('the ready curl line', () => {
  it.each([
    'https://chat.example.com/hooks/channels/wh_5kQ2R1rWmH0bV8sYq3XJ9w/abcDEF-_0123456789abcdefghijklmnopqrstuvwxyzAB',
    "https://chat.example.com/it's/hooks/channels/wh_x/y",
    "https://chat.example.com/'/it's/o'clock/''/hooks/channels/wh_x/y'",
    'https://chat.example.com/$(touch pwned)/`id`/a b/"q"/hooks/channels/wh_x/y',
  ])('gives curl the URL %s as one argument, with the JSON body', (url) => {
    expect(argumentsCurlGets(curlLine(url))).toEqual([
      '-X',
      'POST',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"text":"Hello from curl"}',
      url,
    ]);
  });
});
