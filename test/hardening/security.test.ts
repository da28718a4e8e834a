import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler } from '../../src/handler/create-webhook-handler.js';
import type { WebhookRequest, WebhookResponse } from '../../src/http/http-types.js';
import { createMemoryStore } from '../../src/memory/memory-store.js';
import type { PostStore } from '../../src/ports.js';
import { delay } from './support.js';
import { CHANNEL_ID, setup, deepText, OWNER, type World } from '../support/setup.js';

const json = { 'content-type': 'application/json' };
const postTo = (world: World, url: string, body: unknown = '{"text":"hi"}', headers: Record<string, string> = json) =>
  world.handle({ method: 'POST', url, headers, body: body as string });

/** A secret of the right shape that is not `secret`. */
const otherSecret = (secret: string) => `${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;

describe('every credential failure is the same 404', () => {
  it('unknown id, wrong secret, rotated, revoked and malformed URLs get byte-identical answers', async () => {
    const world = await setup();
    const spare = await world.manager.create(OWNER, { channelId: CHANNEL_ID, name: 'spare' });
    const rotatedAway = world.url;
    const { url: current } = await world.manager.rotate(OWNER, world.webhookId);
    await world.manager.revoke(OWNER, spare.webhook.id);
    const base = rotatedAway.slice(0, rotatedAway.indexOf('/hooks/'));
    const answers = await Promise.all(
      [
        `${base}/hooks/channels/wh_${'A'.repeat(22)}/${world.secret}`,
        current.replace(/[^/]+$/, otherSecret(current.split('/').pop()!)),
        rotatedAway,
        spare.url,
        `${base}/hooks/channels/${world.webhookId}/short`,
        `${base}/hooks/channels/not-an-id/${world.secret}`,
      ].map((url) => postTo(world, url)),
    );
    expect(answers[0]!.status).toBe(404);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect((await postTo(world, current)).status).toBe(201);
  });

  // Rule: the work for an unknown id and for a known id with a wrong secret is the same (one store
  // lookup, one hash, one constant-time compare), so their handling times are alike. Medians of
  // interleaved batches must lie within 25% of each other in at least one of three rounds: a real
  // difference in work fails every round, scheduler noise on a shared machine does not.
  it('a 404 for an unknown id and for a wrong secret take comparable time', async () => {
    const world = await setup();
    const unknown: WebhookRequest = {
      method: 'POST',
      url: `/hooks/channels/wh_${'Q'.repeat(22)}/${world.secret}`,
      headers: json,
      body: '{"text":"x"}',
    };
    const wrong: WebhookRequest = {
      method: 'POST',
      url: `/hooks/channels/${world.webhookId}/${otherSecret(world.secret)}`,
      headers: json,
      body: '{"text":"x"}',
    };
    const batch = async (request: WebhookRequest) => {
      const started = performance.now();
      for (let i = 0; i < 25; i++) await world.handle(request);
      return performance.now() - started;
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (let i = 0; i < 40; i++) await batch(i % 2 === 0 ? unknown : wrong);
    const ratios: number[] = [];
    for (let round = 0; round < 3; round++) {
      const times = { unknown: [] as number[], wrong: [] as number[] };
      for (let i = 0; i < 120; i++) {
        const first = i % 2 === 0 ? 'unknown' : 'wrong';
        const second = first === 'unknown' ? 'wrong' : 'unknown';
        times[first].push(await batch(first === 'unknown' ? unknown : wrong));
        times[second].push(await batch(second === 'unknown' ? unknown : wrong));
      }
      const ratio = median(times.unknown) / median(times.wrong);
      ratios.push(ratio);
      if (ratio > 0.75 && ratio < 1 / 0.75) break;
      await delay(50);
    }
    expect(
      ratios.some((ratio) => ratio > 0.75 && ratio < 1 / 0.75),
      `median ratios ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}`,
    ).toBe(true);
  });

  // Without the secret nobody can spend a webhook's rate budget: only requests past the 404 count.
  it("a flood of wrong-secret posts does not consume the webhook's rate limit", async () => {
    const world = await setup();
    const wrong = world.url.replace(/[^/]+$/, otherSecret(world.secret));
    for (let i = 0; i < 200; i++) expect((await postTo(world, wrong)).status).toBe(404);
    const answer = await postTo(world, world.url);
    expect(answer.status).toBe(201);
    expect(answer.headers.ratelimit).toBe('"default";r=59;t=60');
  });
});

describe('secrets are stored hashed and never leak', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a secret is 256 random bits in the URL-safe alphabet, unique, and only its SHA-256 is stored', async () => {
    const world = await setup();
    const secrets = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { webhook, url } = await world.manager.create(OWNER, { channelId: CHANNEL_ID, name: `hook ${i}` });
      const secret = url.split('/').pop()!;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      secrets.add(secret);
      const record = await world.store.getWebhook(webhook.id);
      expect(record!.secretHash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(deepText(record)).not.toContain(secret);
    }
    expect(secrets.size).toBe(200);
  });

  it('no answer, onError report, store call, log line or manager result ever holds a secret', async () => {
    const logged: unknown[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args));
    }
    const seenByStore: unknown[] = [];
    let failing: 'getWebhook' | 'insertMessage' | 'hang' | null = null;
    const world = await setup({
      storeTimeoutMs: 30,
      wrapStore: (store) => {
        const spy = <K extends keyof PostStore>(name: K) =>
          (async (...args: unknown[]) => {
            seenByStore.push(args);
            if (failing === 'hang' && name === 'insertMessage') return new Promise(() => {});
            if (failing === name) throw new Error(`store ${name} failed`, { cause: { args } });
            return (store[name] as (...a: unknown[]) => unknown)(...args);
          }) as PostStore[K];
        return { ...store, getWebhook: spy('getWebhook'), insertMessage: spy('insertMessage') };
      },
      onMessage: () => Promise.reject(new Error('fan-out failed')),
    });
    const { url: rotated } = await world.manager.rotate(OWNER, world.webhookId);
    const secrets = [world.secret, rotated.split('/').pop()!];
    const answers: WebhookResponse[] = [];
    const send = async (url: string, body: unknown = '{"text":"hi"}', headers: Record<string, string> = json) =>
      answers.push(await postTo(world, url, body, headers));

    await send(world.url);
    await send(rotated);
    await send(`${rotated}?token=x`, '{"text":', json);
    await send(rotated, '{"text":"x","extra":1}');
    await send(rotated, '{"text":"x"}', { 'content-type': 'text/plain' });
    await send(rotated, { parsed: true });
    for (const stage of ['getWebhook', 'insertMessage', 'hang'] as const) {
      failing = stage;
      await send(rotated);
    }
    failing = null;
    const limiterDown = createWebhookHandler({
      store: createMemoryStore(),
      rateLimiter: { hit: () => Promise.reject(new Error('limiter down')) },
      onError: (error, context) => logged.push([error, context]),
    });
    answers.push(await limiterDown({ method: 'POST', url: rotated, headers: json, body: '{"text":"x"}' }));
    await delay(10);

    const managerViews = [
      await world.manager.get(OWNER, world.webhookId),
      await world.manager.list(OWNER, CHANNEL_ID),
      await world.manager.revoke(OWNER, world.webhookId),
      await world.manager.rotate(OWNER, world.webhookId).catch((error: unknown) => error),
      await world.manager.get({ userId: 'intruder', role: 'member' }, world.webhookId).catch((error: unknown) => error),
    ];

    expect(world.errors.map(({ context }) => context.stage)).toEqual(['on_message', 'body', 'store', 'store', 'store']);
    const everything = deepText([answers, world.errors, seenByStore, logged, managerViews]);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(deepText(managerViews)).not.toMatch(/[0-9a-f]{64}/);
    expect(
      logged.filter((entry) => !(Array.isArray(entry) && entry.length === 2 && typeof entry[1] === 'object')),
    ).toEqual([]);
  });
});

describe('rotation, revocation and body limits', () => {
  it('rotation keeps idempotency keys and kills the old URL at once; revocation is final', async () => {
    const world = await setup();
    const first = await postTo(world, world.url, '{"text":"once","eventId":"e1"}');
    expect(first.status).toBe(201);
    const { url } = await world.manager.rotate(OWNER, world.webhookId);
    expect((await postTo(world, world.url)).status).toBe(404);
    const repeat = await postTo(world, url, '{"text":"twice","eventId":"e1"}');
    expect(repeat).toMatchObject({
      status: 200,
      body: { duplicate: true, message: (first.body as { message: unknown }).message },
    });
    await world.manager.revoke(OWNER, world.webhookId);
    expect((await postTo(world, url)).status).toBe(404);
    await expect(world.manager.rotate(OWNER, world.webhookId)).rejects.toMatchObject({ code: 'webhook_revoked' });
  });

  it('the body is never read for a refused request, nor past a declared size over the limit', async () => {
    const world = await setup();
    const reads: string[] = [];
    const reader = (label: string) => async () => {
      reads.push(label);
      return '{"text":"x"}';
    };
    const wrong = world.url.replace(/[^/]+$/, otherSecret(world.secret));
    await world.handle({ method: 'GET', url: world.url, headers: json, body: reader('405') });
    await world.handle({ method: 'POST', url: wrong, headers: json, body: reader('404') });
    await world.handle({
      method: 'POST',
      url: world.url,
      headers: { 'content-type': 'text/plain' },
      body: reader('415'),
    });
    const tooLarge = await world.handle({
      method: 'POST',
      url: world.url,
      headers: { ...json, 'content-length': '65537' },
      body: reader('413'),
    });
    expect(tooLarge.status).toBe(413);
    expect(reads).toEqual([]);
    expect((await world.handle({ method: 'POST', url: world.url, headers: json, body: reader('201') })).status).toBe(
      201,
    );
    expect(reads).toEqual(['201']);
  });
});
