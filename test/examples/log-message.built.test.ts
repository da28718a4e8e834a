import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenFastify, send, type FastifyLikeApp } from '../support/http.js';
import { anyCodePoint } from '../support/code-point.js';

type Helper = { escapeForLog(text: string): string; logMessage(message: unknown): void };
type Manager = { create(actor: unknown, input: { channelId: string; name: string }): Promise<{ url: string }> };

// Plain JavaScript: imported through paths typed as strings, since the examples ship no declarations.
const helper = (): Promise<Helper> => import('../../examples/shared/log-message.js' as string);
const fastify = (): Promise<{ createApp(): Promise<{ app: FastifyLikeApp; manager: Manager }> }> =>
  import('../../examples/fastify/server.js' as string);
const nextRoute = (): Promise<{ POST(request: Request): Promise<Response> }> =>
  import('../../examples/nextjs/app/hooks/channels/[id]/[secret]/route.js' as string);
const nextLib = (): Promise<{ webhooks: { manager: Manager } }> =>
  import('../../examples/nextjs/lib/webhooks.js' as string);

// What a terminal or log viewer acts on: C0 and C1 controls, DEL, line and paragraph separators,
// bidi marks, embeddings, overrides and isolates, and lone surrogates.
const HOSTILE = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
  '\u061c',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\ud800',
  '\udfff',
];
const RAW_HOSTILE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const FORGED = 'deploy ok\n#general "Admin": \u001b[31mFAKE LOG\u001b[0m \u009b2J\u2028\u202eevil';
const FORGED_LINE = '"deploy ok\\n#general \\"Admin\\": \\u001b[31mFAKE LOG\\u001b[0m \\u009b2J\\u2028\\u202eevil"';

afterEach(() => vi.restoreAllMocks());

function captureLog(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  return lines;
}

describe('examples/shared/log-message.js', () => {
  it('escapes every character a terminal or log viewer acts on, one by one, and the line reads back as the text', async () => {
    const { escapeForLog } = await helper();
    for (const character of HOSTILE) {
      const line = escapeForLog(`a${character}b`);
      expect(line, `U+${character.charCodeAt(0).toString(16)}`).not.toMatch(RAW_HOSTILE);
      expect(JSON.parse(line)).toBe(`a${character}b`);
    }
  });

  it('keeps ordinary text readable: accents, CJK, emoji and their joiners stay as they are', async () => {
    const { escapeForLog } = await helper();
    expect(escapeForLog('Déploiement 配布 👩\u200d💻 ok')).toBe('"Déploiement 配布 👩\u200d💻 ok"');
  });

  it('gives one safe line for any text mixing hostile and ordinary characters', async () => {
    const { escapeForLog } = await helper();
    const text = fc
      .array(
        fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme' }), fc.string({ unit: anyCodePoint })),
        {
          maxLength: 20,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (input) => {
        const line = escapeForLog(input);
        expect(line).not.toMatch(RAW_HOSTILE);
        expect(JSON.parse(line)).toBe(input);
      }),
      { numRuns: 500 },
    );
  });

  it('is the only code in examples/ that prints what a sender chose', () => {
    const root = join(import.meta.dirname, '../../examples');
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.js'))
      .map((file) => join(root, file));
    const printing = files.filter((file) =>
      /console\.\w+\([^;]*(message\.body|author\.name|webhook\.name)/s.test(readFileSync(file, 'utf8')),
    );
    expect(printing.map((file) => relative(root, file))).toEqual(['shared/log-message.js']);
  });
});

describe.each([
  [
    'examples/fastify',
    async (text: string) => {
      const { app, manager } = await (await fastify()).createApp();
      const server = await listenFastify(app);
      try {
        const { url } = await manager.create(
          { userId: 'u-demo', role: 'member' },
          { channelId: 'general', name: 'Demo' },
        );
        expect((await send(`${server.origin}${new URL(url).pathname}`, { body: { text } })).status).toBe(201);
      } finally {
        await server.close();
      }
    },
  ],
  [
    'examples/nextjs',
    async (text: string) => {
      const { url } = await (await nextLib()).webhooks.manager.create(
        { userId: 'u-demo', role: 'member' },
        { channelId: 'general', name: 'Demo' },
      );
      const answer = await (await nextRoute()).POST(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        }),
      );
      expect(answer.status).toBe(201);
    },
  ],
])('%s', (_, post) => {
  it('logs a forged message as one escaped line', async () => {
    const lines = captureLog();
    await post(FORGED);
    expect(lines).toEqual([`#general "Demo": ${FORGED_LINE}`]);
  });
});
