import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import express from 'express';
import Koa from 'koa';
import koaLogger from 'koa-logger';
import morgan from 'morgan';
import pinoHttp from 'pino-http';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExpressMiddleware } from '../../../adapters/frameworks/express/index.js';
import { createKoaMiddleware } from '../../../adapters/frameworks/koa/index.js';
import * as library from '../../../src/index.js';
import { listen, send, type Listening } from '../../support/http.js';
import { setup, type World } from '../../support/setup.js';
import { captureLogLines } from './log-lines.js';
import { post } from './raw-post.js';
import { ACCEPTED_FORMS, NEAR_MISSES } from './url-forms.js';

/** The "Secrets out of logs" section of docs/security.md. */
async function secretsSection(): Promise<string> {
  const readme = await readFile(new URL('../../../docs/security.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## Secrets out of logs');
  if (start === -1) throw new Error('docs/security.md has no "## Secrets out of logs" section');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

/** The one code block of `section` in `language` that contains `marker`. */
function block(section: string, language: string, marker: string): string {
  const blocks = [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1]!,
  );
  const found = blocks.filter((code) => code.includes(marker));
  if (found.length !== 1) throw new Error(`expected one ${language} block with ${marker}, found ${found.length}`);
  return found[0]!;
}

type Modules = Record<string, Record<string, unknown>>;

/**
 * Runs the recipe of a whole program as written: its imports of `modules`, and its lines that use
 * the logger those imports name, with `app` and `console` given (the test's own app, and only where
 * the loggers write to redirected into the test's capture).
 */
async function runRecipe(code: string, modules: Modules, app: unknown, console: { log: (...args: unknown[]) => void }) {
  const imports = code
    .split('\n')
    .filter((line) =>
      Object.keys(modules).some((from) => line.startsWith('import ') && line.endsWith(` from '${from}';`)),
    );
  const loggers = imports.flatMap((line) => /^import (\w+) from/.exec(line)?.[1] ?? []);
  const uses = code
    .split('\n')
    .filter((line) => !line.startsWith('import ') && loggers.some((name) => new RegExp(`\\b${name}\\b`).test(line)));
  const source = [...imports, ...uses]
    .join('\n')
    .replace(
      /^import (\w+) from '([^']+)';$/gm,
      (_line, name: string, from: string) => `const ${name} = modules[${JSON.stringify(from)}].default;`,
    )
    .replace(
      /^import \{([^}]*)\} from '([^']+)';$/gm,
      (_line, names: string, from: string) => `const {${names}} = modules[${JSON.stringify(from)}];`,
    );
  expect(source).not.toMatch(/^import /m);
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...args: unknown[]) => Promise<unknown>;
  await new AsyncFunction('modules', 'app', 'console', source)(modules, app, console);
}

describe('the recipes of docs/security.md keep webhook secrets out of access logs', () => {
  let section: string;
  let fixture: World;
  let server: Listening | undefined;
  const secret = () => fixture.path.split('/').at(-1)!;
  const wrongSecret = () => fixture.wrongSecretPath.split('/').at(-1)!;

  /**
   * Four requests whose URLs carry a secret: a post, a wrong secret, a mistyped trailing slash, and a
   * dot segment (refused by these Node adapters, accepted by the Fetch runtimes).
   */
  async function traffic(origin: string) {
    expect((await send(`${origin}/api${fixture.path}?source=ci`, { body: { text: 'logged' } })).status).toBe(201);
    expect((await send(`${origin}/api${fixture.wrongSecretPath}`, { body: { text: 'logged' } })).status).toBe(404);
    expect((await send(`${origin}/api${fixture.path}/`, { body: { text: 'logged' } })).status).toBe(404);
    expect(await post(origin, `/API/hooks/channels/${fixture.webhookId}/./${secret()}`)).toBe(404);
  }

  function expectRedacted(output: string) {
    expect(output).not.toContain(secret());
    expect(output).not.toContain(wrongSecret());
    expect(output).toContain(`/api/hooks/channels/${fixture.webhookId}/[redacted]?source=ci`);
    // The trailing slash goes with the secret: everything after the webhook id is redacted.
    expect(output).toMatch(new RegExp(`/api/hooks/channels/${fixture.webhookId}/\\[redacted\\](?![?/])`));
    expect(output).toContain(`/API/hooks/channels/${fixture.webhookId}/[redacted]`);
  }

  /** An Express app with `recipe`'s logger mounted before the webhook middleware, listening. */
  async function startExpress(
    recipe: (app: express.Express, logs: ReturnType<typeof captureLogLines>) => Promise<void>,
  ) {
    const logs = captureLogLines();
    const app = express();
    await recipe(app, logs);
    app.use('/api', createExpressMiddleware(fixture.handle));
    server = await listen(createServer(app));
    return logs;
  }

  beforeAll(async () => {
    section = await secretsSection();
  });
  beforeEach(async () => {
    fixture = await setup();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('morgan', () => {
    const urlToken = (morgan as unknown as Record<string, unknown>).url;
    afterEach(() => {
      // The recipe redefines a token on the morgan module itself; later tests get the original back.
      (morgan as unknown as Record<string, unknown>).url = urlToken;
    });

    it('without the recipe, the combined format writes the secret', async () => {
      const logs = await startExpress(async (app, { stream }) => {
        app.use(morgan('combined', { stream }));
      });
      await traffic(server!.origin);
      expect(await logs.settled(4)).toContain(secret());
    });

    it('with the recipe, it writes the webhook id and never the secret', async () => {
      const logs = await startExpress((app, { stream, console }) => {
        const redirected = Object.assign((format: string, options?: object) => morgan(format, { ...options, stream }), {
          token: morgan.token,
        });
        return runRecipe(
          block(section, 'js', "from 'morgan'"),
          { morgan: { default: redirected }, 'channel-webhooks': library },
          app,
          console,
        );
      });
      await traffic(server!.origin);
      const output = await logs.settled(4);
      expectRedacted(output);
      expect(logs.lines).toHaveLength(4);
      expect(logs.lines[0]).toMatch(
        /^127\.0\.0\.1 - - \[[^\]]+\] "POST \/api\/hooks\/channels\/wh_[\w-]+\/\[redacted\]\?source=ci HTTP\/1\.1" 201 /,
      );
    });
  });

  describe('pino-http', () => {
    it('without the recipe, it writes the secret', async () => {
      const logs = await startExpress(async (app, { stream }) => {
        app.use(pinoHttp({}, stream));
      });
      await traffic(server!.origin);
      expect(await logs.settled(4)).toContain(secret());
    });

    it('with the recipe, it writes the webhook id and never the secret, and keeps the rest of the record', async () => {
      const logs = await startExpress((app, { stream, console }) => {
        const redirected = (options: object) => pinoHttp(options, stream);
        return runRecipe(
          block(section, 'js', "from 'pino-http'"),
          { 'pino-http': { default: redirected }, 'channel-webhooks': library },
          app,
          console,
        );
      });
      await traffic(server!.origin);
      expectRedacted(await logs.settled(4));
      const [first] = logs.lines.map(
        (line) => JSON.parse(line) as { req: Record<string, unknown>; res: { statusCode: number } },
      );
      expect(first).toMatchObject({
        req: {
          method: 'POST',
          url: `/api/hooks/channels/${fixture.webhookId}/[redacted]?source=ci`,
          headers: expect.objectContaining({ 'content-type': 'application/json' }),
        },
        res: { statusCode: 201 },
      });
    });
  });

  describe('koa-logger', () => {
    async function start(recipe: (app: Koa, logs: ReturnType<typeof captureLogLines>) => Promise<void>) {
      const logs = captureLogLines();
      const app = new Koa();
      await recipe(app, logs);
      app.use(createKoaMiddleware(fixture.handle));
      app.use((ctx) => {
        ctx.status = 404;
      });
      server = await listen(createServer(app.callback()));
      return logs;
    }

    it('without the recipe, it writes the secret', async () => {
      const logs = await start(async (app, { lines }) => {
        app.use(koaLogger((line: string) => lines.push(line)));
      });
      await traffic(server!.origin);
      expect(await logs.settled(8)).toContain(secret());
    });

    it('with the recipe, it writes the webhook id and never the secret', async () => {
      const logs = await start((app, { console }) =>
        runRecipe(
          block(section, 'js', "from 'koa-logger'"),
          { 'koa-logger': { default: koaLogger }, 'channel-webhooks': library },
          app,
          console,
        ),
      );
      await traffic(server!.origin);
      // Each request is logged twice: when it comes in and when its answer is out.
      expectRedacted(await logs.settled(8));
      expect(logs.lines.filter((line) => line.includes('[redacted]'))).toHaveLength(8);
    });
  });

  // The two proxy recipes, as docs/security.md gives them: the library's string form in nginx's map
  // (group 1 named `kept`) and in Caddy's regexp filter.
  describe('nginx and Caddy', () => {
    const ID = 'wh_cqqeMVCSuvFkjdQ_waJspw';
    const SECRET = 'AEA12JI7K55vhROBSpuucS5NC7eyp5C0tQQtCtAHxvQ';
    const nginxMap = {
      pattern: `^(?<before>.*?)${library.webhookPathPatternSource.replace(/^\(/, '(?<kept>')}(?<after>.*)$`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: nginx's variable syntax
      value: '${before}${kept}[redacted]${after}',
    };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Go's group syntax
    const caddyFilter = { pattern: library.webhookPathPatternSource, replacement: '${1}[redacted]' };
    const samples: Array<[string, string]> = [
      [`/api/hooks/channels/${ID}/${SECRET}?source=ci`, `/api/hooks/channels/${ID}/[redacted]?source=ci`],
      [`/hooks/channels/${ID}/${SECRET}`, `/hooks/channels/${ID}/[redacted]`],
      [`/hooks/channels/${ID}/${SECRET}/`, `/hooks/channels/${ID}/[redacted]`],
      [`/hooks/channels/${ID}/./${SECRET}?x=1`, `/hooks/channels/${ID}/[redacted]?x=1`],
      ['/api/health?x=1', '/api/health?x=1'],
      ['/hooks/channels/only-an-id', '/hooks/channels/only-an-id'],
    ];
    const forms = [...ACCEPTED_FORMS, ...NEAR_MISSES].map(([name, form]) => [name, form('/api', ID, SECRET)] as const);

    it("nginx's map, read as PCRE reads it, gives the URI with the secret redacted, in every form a runtime accepts", () => {
      // A map applies its regular expression once, to the whole $request_uri.
      const map = (uri: string) => {
        const match = new RegExp(nginxMap.pattern).exec(uri);
        if (match === null) return uri; // default $request_uri
        return nginxMap.value.replace(/\$\{(\w+)\}/g, (_all, name: string) => match.groups![name]!);
      };
      for (const [uri, logged] of samples) expect(map(uri)).toBe(logged);
      for (const [name, uri] of forms) expect(map(uri), name).toBe(library.redactWebhookUrl(uri));
      // The map's value is a quoted nginx string: a `\\` in it would reach PCRE as one backslash.
      expect(nginxMap.pattern).not.toContain('\\\\');
    });

    it("Caddy's regexp filter, read as RE2 reads it, gives the URI with the secret redacted, in every form a runtime accepts", () => {
      // Go's ReplaceAllString: every match, `${1}` for group 1.
      const filtered = (uri: string) =>
        uri.replace(new RegExp(caddyFilter.pattern, 'g'), caddyFilter.replacement.replace(/\$\{(\d+)\}/g, '$$$1'));
      for (const [uri, logged] of samples) expect(filtered(uri)).toBe(logged);
      for (const [name, uri] of forms) {
        expect(filtered(uri), name).toBe(library.redactWebhookUrl(uri));
        expect(filtered(uri), name).not.toContain(SECRET);
      }
    });

    it('the nginx and Caddy blocks of docs/security.md have the shape these recipes take', () => {
      const nginx = block(section, 'nginx', 'map $request_uri');
      expect(nginx).toMatch(
        /^\s*'~\^\(\?<before>\.\*\?\)\(\?<kept>[^']+\(\?<after>\.\*\)\$'\s+'\$\{before\}\$\{kept\}\[redacted\]\$\{after\}';$/m,
      );
      expect(nginx).toMatch(/log_format redacted '[^']*\$webhook_redacted_uri[^']*'/);
      expect(nginx).not.toMatch(/log_format redacted[\s\S]*\$request_uri/);
      expect(block(section, 'caddyfile', 'format filter')).toMatch(/request>uri regexp `[^`]+` `\$\{1\}\[redacted\]`/);
    });
  });
});
