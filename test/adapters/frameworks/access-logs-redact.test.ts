import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  matchWebhookPath,
  redactWebhookUrl,
  webhookPathPattern,
  webhookPathPatternSource,
} from '../../../src/index.js';
import { ACCEPTED_FORMS, NEAR_MISSES, type UrlForm } from './url-forms.js';

const ID = 'wh_cqqeMVCSuvFkjdQ_waJspw';
const SECRET = 'AEA12JI7K55vhROBSpuucS5NC7eyp5C0tQQtCtAHxvQ';

const base64url = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  minLength: 1,
  maxLength: 43,
});
const prefix = fc.constantFrom('', '/api', '/v1/chat', 'https://chat.example.com', 'http://127.0.0.1:3000/api');
const suffix = fc.constantFrom('', '?source=ci', '?a=1&b=%2F', '#top', '?x=1#y');

/** What a proxy does with the string form: every match becomes group 1 and the marker. */
const proxyRedact = (text: string) => text.replace(new RegExp(webhookPathPatternSource, 'g'), '$1[redacted]');

describe('redactWebhookUrl', () => {
  it.each([
    ['a path', `/hooks/channels/${ID}/${SECRET}`, `/hooks/channels/${ID}/[redacted]`],
    [
      'a prefixed path with a query',
      `/api/hooks/channels/${ID}/${SECRET}?source=ci&x=1`,
      `/api/hooks/channels/${ID}/[redacted]?source=ci&x=1`,
    ],
    [
      'an absolute URL with a fragment',
      `https://chat.example.com/hooks/channels/${ID}/${SECRET}#f`,
      `https://chat.example.com/hooks/channels/${ID}/[redacted]#f`,
    ],
    ['a mistyped URL with a trailing slash', `/hooks/channels/${ID}/${SECRET}/`, `/hooks/channels/${ID}/[redacted]`],
    [
      'a URL with an extra segment',
      `/hooks/channels/${ID}/${SECRET}/extra?x=1`,
      `/hooks/channels/${ID}/[redacted]?x=1`,
    ],
    ['a dot segment before the secret', `/hooks/channels/${ID}/./${SECRET}`, `/hooks/channels/${ID}/[redacted]`],
    ['dot segments before the id', `/hooks/channels/x/%2E%2E/${ID}/${SECRET}`, '/hooks/channels/x/[redacted]'],
    [
      'dot segments between hooks and channels',
      `/hooks/x/../channels/${ID}/${SECRET}`,
      `/hooks/x/../channels/${ID}/[redacted]`,
    ],
    ['backslashes', `/api\\hooks\\channels\\${ID}\\${SECRET}`, `/api\\hooks\\channels\\${ID}\\[redacted]`],
    ['another case', `/API/Hooks/CHANNELS/${ID}/${SECRET}`, `/API/Hooks/CHANNELS/${ID}/[redacted]`],
    ['encoded slashes', `/hooks%2Fchannels%2f${ID}%5C${SECRET}`, `/hooks%2Fchannels%2f${ID}%5C[redacted]`],
    [
      'an access-log line',
      `127.0.0.1 - "POST /api/hooks/channels/${ID}/${SECRET} HTTP/1.1" 201`,
      `127.0.0.1 - "POST /api/hooks/channels/${ID}/[redacted] HTTP/1.1" 201`,
    ],
    [
      'a JSON log record',
      `{"url":"/hooks/channels/${ID}/${SECRET}","status":201}`,
      `{"url":"/hooks/channels/${ID}/[redacted]","status":201}`,
    ],
    [
      'a JSON log record with an escaped quote in the path',
      `{"url":"/hooks/channels/${ID}/\\"/../${SECRET}","status":201}`,
      `{"url":"/hooks/channels/${ID}/[redacted]","status":201}`,
    ],
    [
      'a JSON record inside a JSON string',
      `{"msg":"{\\"url\\":\\"/hooks/channels/${ID}/${SECRET}\\",\\"status\\":201}"}`,
      `{"msg":"{\\"url\\":\\"/hooks/channels/${ID}/[redacted]\\",\\"status\\":201}"}`,
    ],
    [
      'a logfmt line',
      `url="/hooks/channels/${ID}/${SECRET}" status=201`,
      `url="/hooks/channels/${ID}/[redacted]" status=201`,
    ],
    [
      'a coloured terminal line',
      `\x1b[90m/hooks/channels/${ID}/${SECRET}\x1b[39m 201`,
      `\x1b[90m/hooks/channels/${ID}/[redacted]\x1b[39m 201`,
    ],
    [
      'two URLs in one line',
      `/hooks/channels/a/s1 -> /hooks/channels/b/s2`,
      `/hooks/channels/a/[redacted] -> /hooks/channels/b/[redacted]`,
    ],
    [
      'a prefix that repeats the route',
      `/hooks/channels/hooks/channels/${ID}/${SECRET}`,
      `/hooks/channels/hooks/[redacted]`,
    ],
  ])('replaces the secret in %s', (_name, url, redacted) => {
    expect(redactWebhookUrl(url)).toBe(redacted);
    expect(proxyRedact(url)).toBe(redacted);
  });

  it.each([
    '/health',
    '/hooks/channels/only-an-id',
    `/hooks/channels/${ID}/`,
    '/hooks/channels/',
    '',
    '/webhooks/channel/a/b',
    `{"id":"/hooks/channels/${ID}","next":"/a/b"}`,
  ])('leaves %j unchanged', (url) => {
    expect(redactWebhookUrl(url)).toBe(url);
  });

  it.each([...ACCEPTED_FORMS, ...NEAR_MISSES].map(([name, form]): [string, UrlForm] => [name, form]))(
    'leaves no secret in %s, in a log line and in a JSON record',
    (_name, form) => {
      const target = form('/api', ID, SECRET);
      for (const text of [
        target,
        `"POST ${target} HTTP/1.1" 201`,
        JSON.stringify({ req: { url: target }, status: 201 }),
      ]) {
        const redacted = redactWebhookUrl(text);
        expect(redacted).not.toContain(SECRET);
        expect(redacted).toContain('[redacted]');
        expect(proxyRedact(text)).toBe(redacted);
        expect(redactWebhookUrl(redacted)).toBe(redacted);
      }
      // The JSON record is still valid JSON, with the same fields.
      expect(JSON.parse(redactWebhookUrl(JSON.stringify({ url: target, status: 201 })))).toEqual({
        url: expect.stringMatching(/^[^?]*\[redacted\]/),
        status: 201,
      });
    },
  );

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

  // Rule: whatever a client writes that a WHATWG URL parser (Bun, Node's Fetch servers) resolves to
  // the webhook's path — dot segments plain or encoded, inserted anywhere, backslashes for slashes,
  // doubled slashes, any case of the route — the secret does not survive redaction.
  it('leaves no secret in any raw path that a URL parser resolves to the webhook path', () => {
    const dotSegment = fc.constantFrom(
      './',
      '%2e/',
      '%2E/',
      'x/../',
      'x/%2e%2e/',
      'x/.%2E/',
      'abc/def/../../',
      '"/../',
      '\u00a0/../',
      'é/../',
    );
    const separator = fc.constantFrom('/', '\\');
    const segments = ['hooks', 'channels', ID, SECRET];
    const raw = fc
      .tuple(
        prefix,
        fc.array(fc.tuple(fc.array(dotSegment, { maxLength: 3 }), separator), { minLength: 4, maxLength: 4 }),
        suffix,
      )
      .map(
        ([before, parts, after]) =>
          `${before}${parts.map(([dots, slash], i) => `${slash}${dots.join('')}${segments[i]}`).join('')}${after}`,
      );
    fc.assert(
      fc.property(raw, (path) => {
        const resolved = new URL(path, 'https://chat.example.com');
        fc.pre(matchWebhookPath(resolved.href)?.secret === SECRET);
        expect(redactWebhookUrl(path)).not.toContain(SECRET);
        expect(proxyRedact(path)).not.toContain(SECRET);
      }),
      { numRuns: 500 },
    );
  });

  // Rule: redacting is idempotent on any text, and changes nothing in text without `hooks`.
  it('is idempotent, and a no-op on text without the route', () => {
    const routeLike = fc.constantFrom(
      '/hooks/channels/',
      '/HOOKS/channels/',
      '\\hooks\\channels\\',
      '/hooks/x/../channels/',
      '%2Fhooks%2Fchannels%2F',
      '"',
      '\\"',
      '",',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(fc.oneof(fc.string({ maxLength: 6 }), routeLike), { maxLength: 12 }).map((parts) => parts.join('')),
          fc
            .tuple(prefix, fc.string(), fc.string(), suffix)
            .map(([a, id, s, b]) => `${a}/hooks/channels/${id}/${s}${b}`),
        ),
        (text) => {
          const once = redactWebhookUrl(text);
          expect(redactWebhookUrl(once)).toBe(once);
          if (!/hooks/i.test(text)) expect(once).toBe(text);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('takes time linear in the text, even for a line full of the route', () => {
    // A backtracking engine retrying from each `/hooks/` is quadratic: about 4 s for these 64 KiB.
    for (const text of [
      '/hooks'.repeat(11_000),
      '/hooks/a'.repeat(8_000),
      '/hooks/"'.repeat(8_000),
      `/hooks/channels/${'%2'.repeat(20_000)}`,
    ]) {
      const started = performance.now();
      redactWebhookUrl(text);
      expect(performance.now() - started).toBeLessThan(400);
    }
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

  it('is written without raw backslashes, lookarounds or back-references, so PCRE and RE2 read it as JavaScript does', () => {
    // nginx turns `\\` in a quoted string into one backslash; RE2 has no lookaround or back-reference.
    expect(webhookPathPatternSource).not.toMatch(/\\\\|\(\?[=!<]|\\[1-9]|[^\x21-\x7e]/);
  });

  // Rule: on text holding webhook URLs, replacing every match of the string form with group 1 +
  // `[redacted]` (what a proxy does) gives what redactWebhookUrl gives.
  it('redacts as redactWebhookUrl does when a proxy replaces with group 1 and the marker', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(prefix, base64url, base64url, suffix), { minLength: 1, maxLength: 3 }), (urls) => {
        const line = urls
          .map(([before, id, secret, after]) => `"${before}/hooks/channels/${id}/${secret}${after}"`)
          .join(' ');
        expect(proxyRedact(line)).toBe(redactWebhookUrl(line));
      }),
    );
  });
});
