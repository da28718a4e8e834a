import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchWebhookPath, redactWebhookUrl, webhookPathPattern, webhookPathPatternSource } from '../../src/index.js';

const ID = 'wh_cqqeMVCSuvFkjdQ_waJspw';
const SECRET = 'AEA12JI7K55vhROBSpuucS5NC7eyp5C0tQQtCtAHxvQ';

const base64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 1, maxLength: 43 });
const prefix = fc.constantFrom('', '/api', '/v1/chat', 'https://chat.example.com', 'http://127.0.0.1:3000/api');
const suffix = fc.constantFrom('', '?source=ci', '?a=1&b=%2F', '#top', '?x=1#y');

describe('redactWebhookUrl', () => {
  it.each([
    ['a path', `/hooks/channels/${ID}/${SECRET}`, `/hooks/channels/${ID}/[redacted]`],
    ['a prefixed path with a query', `/api/hooks/channels/${ID}/${SECRET}?source=ci&x=1`, `/api/hooks/channels/${ID}/[redacted]?source=ci&x=1`],
    [
      'an absolute URL with a fragment',
      `https://chat.example.com/hooks/channels/${ID}/${SECRET}#f`,
      `https://chat.example.com/hooks/channels/${ID}/[redacted]#f`,
    ],
    ['a mistyped URL with a trailing slash', `/hooks/channels/${ID}/${SECRET}/`, `/hooks/channels/${ID}/[redacted]/`],
    [
      'an access-log line',
      `127.0.0.1 - "POST /api/hooks/channels/${ID}/${SECRET} HTTP/1.1" 201`,
      `127.0.0.1 - "POST /api/hooks/channels/${ID}/[redacted] HTTP/1.1" 201`,
    ],
    ['a JSON log record', `{"url":"/hooks/channels/${ID}/${SECRET}","status":201}`, `{"url":"/hooks/channels/${ID}/[redacted]","status":201}`],
    ['a coloured terminal line', `\x1b[90m/hooks/channels/${ID}/${SECRET}\x1b[39m 201`, `\x1b[90m/hooks/channels/${ID}/[redacted]\x1b[39m 201`],
    ['two URLs in one line', `/hooks/channels/a/s1 -> /hooks/channels/b/s2`, `/hooks/channels/a/[redacted] -> /hooks/channels/b/[redacted]`],
    ['a prefix that repeats the route', `/hooks/channels/hooks/channels/${ID}/${SECRET}`, `/hooks/channels/hooks/[redacted]/${ID}/[redacted]`],
  ])('replaces the secret in %s, and only the secret', (_name, url, redacted) => {
    expect(redactWebhookUrl(url)).toBe(redacted);
  });

  it.each(['/health', '/hooks/channels/only-an-id', '/hooks/channels/', '', '/HOOKS/CHANNELS/a/b'])('leaves %j unchanged', (url) => {
    expect(redactWebhookUrl(url)).toBe(url);
  });

  // Rule: for any webhook URL (any prefix, id and secret of the URL-safe alphabet, any query or
  // fragment), the redacted URL is the same URL with the secret segment replaced by `[redacted]`:
  // the secret is gone, and matchWebhookPath still finds the same webhook id in it.
  it('redacts exactly the secret of any webhook URL', () => {
    fc.assert(
      fc.property(prefix, base64url, base64url, suffix, (before, id, secret, after) => {
        const redacted = redactWebhookUrl(`${before}/hooks/channels/${id}/${secret}${after}`);
        expect(redacted).toBe(`${before}/hooks/channels/${id}/[redacted]${after}`);
        expect(matchWebhookPath(redacted)).toEqual({ webhookId: id, secret: '[redacted]' });
      }),
    );
  });

  // Rule: redacting is idempotent on any text, and changes nothing in text without `/hooks/channels/`.
  it('is idempotent, and a no-op on text without the route', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(prefix, fc.string(), fc.string(), suffix).map(([a, id, s, b]) => `${a}/hooks/channels/${id}/${s}${b}`),
        ),
        (text) => {
          const once = redactWebhookUrl(text);
          expect(redactWebhookUrl(once)).toBe(once);
          if (!text.includes('/hooks/channels/')) expect(once).toBe(text);
        },
      ),
    );
  });
});

describe('webhookPathPattern', () => {
  it('is the RegExp of webhookPathPatternSource, stateless (no g or y flag)', () => {
    expect(webhookPathPattern.source).toBe(new RegExp(webhookPathPatternSource).source);
    expect(webhookPathPattern.flags).toBe('');
    const line = `POST /api/hooks/channels/${ID}/${SECRET} HTTP/1.1`;
    expect([webhookPathPattern.test(line), webhookPathPattern.test(line)]).toEqual([true, true]);
    expect(webhookPathPattern.exec(line)?.[1]).toBe(`/hooks/channels/${ID}/`);
  });

  // Rule: on text holding webhook URLs that do not overlap, replacing every match of the string
  // form with group 1 + `[redacted]` (what a proxy does) gives what redactWebhookUrl gives.
  it('redacts as redactWebhookUrl does when a proxy replaces with group 1 and the marker', () => {
    const global = new RegExp(webhookPathPatternSource, 'g');
    fc.assert(
      fc.property(fc.array(fc.tuple(prefix, base64url, base64url, suffix), { minLength: 1, maxLength: 3 }), (urls) => {
        const line = urls.map(([before, id, secret, after]) => `"${before}/hooks/channels/${id}/${secret}${after}"`).join(' ');
        expect(line.replace(global, '$1[redacted]')).toBe(redactWebhookUrl(line));
      }),
    );
  });
});
