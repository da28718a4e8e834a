import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ContextManager,
} from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/memory/memory-rate-limiter.js';
import { instrumentHandler } from '../../src/instrumentation/instrument-handler.js';
import type { WebhookHandler } from '../../src/handler/handler-types.js';
import type { WebhookResponse } from '../../src/http/http-types.js';
import { request, setup, splitUrl } from '../support/setup.js';

/** A reader the test collects from on demand. */
class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

function telemetry() {
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  /** Every data point of metric `name`, as [attributes, value]. */
  const points = async (name: string) => {
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((m) => m.descriptor.name === name);
    if (metric === undefined) return [];
    return metric.dataPoints.map((point) => [
      point.attributes,
      metric.dataPointType === DataPointType.HISTOGRAM ? (point.value as Histogram).count : point.value,
    ]);
  };
  return { providers: { meterProvider, tracerProvider }, exporter, points, reader };
}

/** Every string a span carries: its name and attribute values. */
const spanText = (t: ReturnType<typeof telemetry>) =>
  JSON.stringify(t.exporter.getFinishedSpans().map((span) => [span.name, span.attributes]));

const ROUTE = '/hooks/channels/{webhook_id}/{secret}';

describe('instrumentHandler', () => {
  it('a created post: counted by status and code, timed, and one server span without secret, key or text', async () => {
    const t = telemetry();
    const s = await setup();
    const handle = instrumentHandler(s.handle, t.providers);
    const answer = await handle(
      request(s.url, { text: 'deploy finished: secret-ish text' }, { idempotencyKey: 'key-123456' }),
    );
    expect(answer.status).toBe(201);
    expect(await t.points('channel_webhooks.posts')).toEqual([
      [{ 'http.response.status_code': 201, 'channel_webhooks.code': 'created' }, 1],
    ]);
    expect(await t.points('http.server.request.duration')).toEqual([
      [{ 'http.request.method': 'POST', 'http.route': ROUTE, 'http.response.status_code': 201 }, 1],
    ]);
    expect(await t.points('channel_webhooks.rate_limited')).toEqual([]);
    expect(await t.points('channel_webhooks.backend_failures')).toEqual([]);
    const [span, ...others] = t.exporter.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span!.name).toBe(`POST ${ROUTE}`);
    expect(span!.kind).toBe(SpanKind.SERVER);
    expect(span!.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': ROUTE,
      'http.response.status_code': 201,
      'channel_webhooks.code': 'created',
      'channel_webhooks.duplicate': false,
      'channel_webhooks.webhook_id': s.webhookId,
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    const text = spanText(t);
    for (const secretive of [splitUrl(s.url).secret, 'key-123456', 'secret-ish text', s.url])
      expect(text).not.toContain(secretive);
  });

  it('a duplicate is counted with code duplicate and marked on the span', async () => {
    const t = telemetry();
    const s = await setup();
    const handle = instrumentHandler(s.handle, t.providers);
    await handle(request(s.url, { text: 'x' }, { idempotencyKey: 'retry-1' }));
    const again = await handle(request(s.url, { text: 'x' }, { idempotencyKey: 'retry-1' }));
    expect(again.status).toBe(200);
    expect(await t.points('channel_webhooks.posts')).toEqual([
      [{ 'http.response.status_code': 201, 'channel_webhooks.code': 'created' }, 1],
      [{ 'http.response.status_code': 200, 'channel_webhooks.code': 'duplicate' }, 1],
    ]);
    expect(t.exporter.getFinishedSpans().map((span) => span.attributes['channel_webhooks.duplicate'])).toEqual([
      false,
      true,
    ]);
  });

  it('rate-limit refusals are counted, with code rate_limited', async () => {
    const t = telemetry();
    const s = await setup({ rateLimiter: createMemoryRateLimiter({ limit: 1 }) });
    const handle = instrumentHandler(s.handle, t.providers);
    expect((await handle(request(s.url, { text: 'a' }))).status).toBe(201);
    expect((await handle(request(s.url, { text: 'b' }))).status).toBe(429);
    expect((await handle(request(s.url, { text: 'c' }))).status).toBe(429);
    expect(await t.points('channel_webhooks.rate_limited')).toEqual([[{}, 2]]);
    expect(await t.points('channel_webhooks.posts')).toContainEqual([
      { 'http.response.status_code': 429, 'channel_webhooks.code': 'rate_limited' },
      2,
    ]);
  });

  it.each([
    [
      'store',
      {
        wrapStore: (store: import('../../src/memory/memory-store.js').MemoryStore) => ({
          ...store,
          insertMessage: () => Promise.reject(new Error('db down')),
        }),
      },
      'store_failed',
    ],
    [
      'rate limiter',
      { rateLimiter: { hit: () => Promise.reject(new Error('limiter down')) }, onRateLimiterError: 'reject' as const },
      'rate_limiter_failed',
    ],
  ])('a %s failure is a backend failure, an error.type and an error span', async (_, options, code) => {
    const t = telemetry();
    const s = await setup(options);
    const handle = instrumentHandler(s.handle, t.providers);
    expect((await handle(request(s.url, { text: 'x' }))).status).toBe(500);
    expect(await t.points('channel_webhooks.backend_failures')).toEqual([[{ 'channel_webhooks.code': code }, 1]]);
    expect(await t.points('http.server.request.duration')).toEqual([
      [{ 'http.request.method': 'POST', 'http.route': ROUTE, 'http.response.status_code': 500, 'error.type': code }, 1],
    ]);
    const [span] = t.exporter.getFinishedSpans();
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.attributes['error.type']).toBe(code);
  });

  it('a 4xx answer is counted by its problem code and is not a span error', async () => {
    const t = telemetry();
    const s = await setup();
    const handle = instrumentHandler(s.handle, t.providers);
    const unknown = s.url.replace(s.webhookId, `wh_${'Z'.repeat(22)}`);
    expect((await handle(request(unknown, { text: 'x' }))).status).toBe(404);
    expect((await handle(request(s.url, null, { raw: '{nope' }))).status).toBe(400);
    expect(await t.points('channel_webhooks.posts')).toEqual([
      [{ 'http.response.status_code': 404, 'channel_webhooks.code': 'not_found' }, 1],
      [{ 'http.response.status_code': 400, 'channel_webhooks.code': 'invalid_json' }, 1],
    ]);
    expect(t.exporter.getFinishedSpans().map((span) => span.status.code)).toEqual([
      SpanStatusCode.UNSET,
      SpanStatusCode.UNSET,
    ]);
    expect(spanText(t)).not.toContain(splitUrl(s.url).secret);
  });

  it('records the webhook id only when the URL has the shape the library gives, never text the sender chose', async () => {
    const t = telemetry();
    const s = await setup();
    const handle = instrumentHandler(s.handle, t.providers);
    const { webhookId, secret } = splitUrl(s.url);
    const chosen = `wh_${'\u202e<script>alert(1)</script>'.repeat(400)}`.slice(0, 8_060);
    const posts: Array<[string, string | undefined]> = [
      [s.url, webhookId],
      [s.url.replace(webhookId, `wh_${'Z'.repeat(22)}`), `wh_${'Z'.repeat(22)}`],
      [`/hooks/channels/${chosen}/${secret}`, undefined],
      [`/hooks/channels/${webhookId}x/${secret}`, undefined],
      [`/hooks/channels/WH_${webhookId.slice(3)}/${secret}`, undefined],
      [`/hooks/channels/${webhookId}/${secret}!`, undefined],
      [`/hooks/channels/${webhookId}/${chosen}`, undefined],
    ];
    for (const [url] of posts) await handle(request(url, { text: 'x' }));
    const recorded = t.exporter.getFinishedSpans().map((span) => span.attributes['channel_webhooks.webhook_id']);
    expect(recorded).toEqual(posts.map(([, id]) => id));
    expect(spanText(t)).not.toContain('<script>');
  });

  it('returns the inner answer untouched, and keeps attribute values to a closed set', async () => {
    const t = telemetry();
    const answer: WebhookResponse = {
      status: 418,
      headers: { 'x-a': 'b' },
      body: { code: 'made up by someone', detail: 'free text' },
    };
    const inner: WebhookHandler = async () => answer;
    const handle = instrumentHandler(inner, t.providers);
    expect(await handle({ method: 'BREW', url: '/elsewhere', headers: {} })).toBe(answer);
    expect(await t.points('channel_webhooks.posts')).toEqual([
      [{ 'http.response.status_code': 418, 'channel_webhooks.code': 'other' }, 1],
    ]);
    expect(t.exporter.getFinishedSpans()[0]!.attributes).toEqual({
      'http.request.method': '_OTHER',
      'http.route': ROUTE,
      'http.response.status_code': 418,
      'channel_webhooks.code': 'other',
      'channel_webhooks.duplicate': false,
    });
  });

  it('a handler that rejects still ends its span, as an error, and the rejection passes through', async () => {
    const t = telemetry();
    const handle = instrumentHandler(() => Promise.reject(new Error('boom')), t.providers);
    await expect(handle({ method: 'POST', url: '/hooks/channels/wh_x/s', headers: {} })).rejects.toThrow('boom');
    const [span] = t.exporter.getFinishedSpans();
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.events.map((event) => event.name)).toEqual(['exception']);
  });

  describe('inside an existing span', () => {
    afterEach(() => context.disable());

    it('the span is internal, the child of the active one', async () => {
      // A minimal synchronous context manager: enough, since the wrapper reads the active span first thing.
      const stack: Context[] = [];
      const manager: ContextManager = {
        active: () => stack.at(-1) ?? ROOT_CONTEXT,
        with: (ctx, fn, thisArg, ...args) => {
          stack.push(ctx);
          try {
            return fn.call(thisArg, ...args);
          } finally {
            stack.pop();
          }
        },
        bind: (_ctx, target) => target,
        enable: () => manager,
        disable: () => manager,
      };
      context.setGlobalContextManager(manager);
      const t = telemetry();
      const s = await setup();
      const handle = instrumentHandler(s.handle, t.providers);
      const parent = t.providers.tracerProvider.getTracer('http').startSpan('POST', { kind: SpanKind.SERVER });
      await context.with(trace.setSpan(context.active(), parent), () => handle(request(s.url, { text: 'x' })));
      parent.end();
      const [ours] = t.exporter.getFinishedSpans();
      expect(ours!.kind).toBe(SpanKind.INTERNAL);
      expect(ours!.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    });
  });

  it('a tracer provider registered globally after wrapping is used from then on', async () => {
    const t = telemetry();
    const s = await setup();
    const handle = instrumentHandler(s.handle);
    await handle(request(s.url, { text: 'before' }));
    trace.setGlobalTracerProvider(t.providers.tracerProvider);
    try {
      expect((await handle(request(s.url, { text: 'after' }))).status).toBe(201);
    } finally {
      trace.disable();
    }
    expect(t.exporter.getFinishedSpans().map((span) => [span.name, span.attributes['channel_webhooks.code']])).toEqual([
      [`POST ${ROUTE}`, 'created'],
    ]);
  });

  it('with no SDK registered, answers are those of the bare handler', async () => {
    const s = await setup();
    const handle = instrumentHandler(s.handle);
    const answer = await handle(request(s.url, { text: 'x' }));
    expect(answer.status).toBe(201);
    expect((await s.store.listMessages('general')).map((message) => message.body)).toEqual(['x']);
  });
});

describe('the built package', () => {
  it('only the otel entry point loads @opentelemetry/api', () => {
    const dist = join(import.meta.dirname, '../../dist');
    const loading = readdirSync(dist)
      .filter((file) => /\.(c?js)$/.test(file))
      .filter((file) => readFileSync(join(dist, file), 'utf8').includes('@opentelemetry/api'));
    // otel.cjs requires otel.js, as every CommonJS entry requires its ES module.
    expect(loading).toEqual(['otel.js']);
    expect(readFileSync(join(dist, 'otel.cjs'), 'utf8')).toBe("module.exports = require('./otel.js');\n");
  });
});
