import {
  context,
  createNoopMeter,
  metrics,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  ValueType,
  type Attributes,
  type MeterProvider,
  type Span,
  type TracerProvider,
} from '@opentelemetry/api';
import { port, required } from '../arguments/argument-rules.js';
import { checkArgument, checkOptions, type OptionsShape } from '../arguments/check-options.js';
import { HANDLE } from '../arguments/port-rules.js';
import type { WebhookHandler } from '../handler/handler-types.js';
import type { WebhookResponse } from '../http/http-types.js';
import { PROBLEMS } from '../http/problem.js';
import { matchWebhookPath } from '../http/route.js';
import { isWellFormedCredential } from '../secret/secret.js';

/**
 * Options of {@link instrumentHandler}.
 *
 * @example
 * ```ts
 * const options: InstrumentationOptions = { meterProvider, tracerProvider };
 * const handle = instrumentHandler(createWebhookHandler({ store }), options);
 * ```
 */
export interface InstrumentationOptions {
  /** Where the metrics go. Default: the global provider of `@opentelemetry/api` (a no-op until an SDK registers one). */
  meterProvider?: MeterProvider;
  /** Where the spans go. Default: the global provider of `@opentelemetry/api` (a no-op until an SDK registers one). */
  tracerProvider?: TracerProvider;
}

const OPTIONS: OptionsShape = {
  meterProvider: port('a MeterProvider', ['getMeter']),
  tracerProvider: port('a TracerProvider', ['getTracer']),
};

/** The route template: the secret never appears in a span name or an attribute. */
const WEBHOOK_ROUTE = '/hooks/channels/{webhook_id}/{secret}';

const SCOPE = 'channel-webhooks';
// The HTTP semantic conventions' advised buckets for http.server.request.duration, in seconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
// Attribute values come from this closed set only, so a metric's series stay bounded.
const KNOWN_CODES: ReadonlySet<string> = new Set(Object.keys(PROBLEMS));
// What the global tracer provider delegates to while no SDK is registered.
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/**
 * Wraps a webhook handler with OpenTelemetry metrics and a span per request, without changing its
 * answers. Records:
 *
 * - `http.server.request.duration` (histogram, s): `http.request.method`, `http.route`,
 *   `http.response.status_code`, and `error.type` (the problem code) on 5xx answers;
 * - `channel_webhooks.posts` (counter): `http.response.status_code` and `channel_webhooks.code`
 *   (`created`, `duplicate`, or the answer's problem code);
 * - `channel_webhooks.rate_limited` (counter): 429 answers;
 * - `channel_webhooks.backend_failures` (counter): answers with `store_failed` or
 *   `rate_limiter_failed`, by `channel_webhooks.code`;
 * - a span `POST /hooks/channels/{webhook_id}/{secret}` (server kind, or internal inside an
 *   existing span such as the HTTP server's) with the attributes above plus
 *   `channel_webhooks.webhook_id` (only for a URL of the shape the library gives, `wh_` and 22
 *   base64url characters and a 43-character secret; never the sender's text otherwise) and
 *   `channel_webhooks.duplicate`; status error on 5xx.
 *
 * Never the secret, the URL, the idempotency key or the message. Limiter failures let through
 * under `onRateLimiterError: 'allow'` do not show in the answer: count them from `onError`.
 * Needs the optional peer dependency `@opentelemetry/api`; only this entry point loads it.
 *
 * @example
 * ```ts
 * import { instrumentHandler } from 'channel-webhooks/otel';
 * const handle = instrumentHandler(createWebhookHandler({ store }));
 * app.use(createExpressMiddleware(handle));
 * ```
 */
export function instrumentHandler(handle: WebhookHandler, options: InstrumentationOptions = {}): WebhookHandler {
  checkArgument('instrumentHandler', 'handle', handle, required(HANDLE));
  checkOptions('instrumentHandler', options, OPTIONS);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const tracer = tracerProvider.getTracer(SCOPE);
  const duration = meter.createHistogram('http.server.request.duration', {
    description: 'Duration of webhook post handling.',
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const posts = meter.createCounter('channel_webhooks.posts', {
    description: 'Webhook posts answered, by status and code.',
    unit: '{post}',
  });
  const rateLimited = meter.createCounter('channel_webhooks.rate_limited', {
    description: 'Posts refused by the rate limiter.',
    unit: '{post}',
  });
  // No meter provider registered: skip the clock and the attribute objects, so the wrapper costs
  // next to nothing until an SDK is installed.
  const metered = meter !== createNoopMeter();
  const backendFailures = meter.createCounter('channel_webhooks.backend_failures', {
    description: 'Posts answered 500 because the store or the rate limiter failed.',
    unit: '{post}',
  });

  // The global tracer provider can get an SDK at any time, so this is asked on every request.
  const tracing = () =>
    !(tracerProvider instanceof ProxyTracerProvider && tracerProvider.getDelegate() === NOOP_TRACER_PROVIDER);

  const instrumented: WebhookHandler = async (request) => {
    const upper = request.method.toUpperCase();
    const method = KNOWN_METHODS.has(upper) ? upper : '_OTHER';
    const span = tracer.startSpan(`${method} ${WEBHOOK_ROUTE}`, {
      kind: trace.getActiveSpan() === undefined ? SpanKind.SERVER : SpanKind.INTERNAL,
      attributes: { 'http.request.method': method, 'http.route': WEBHOOK_ROUTE },
    });
    const recording = span.isRecording();
    const started = metered ? performance.now() : 0;
    let response: WebhookResponse;
    try {
      // Only a recording span becomes the parent of the store's and limiter's own spans; without an
      // SDK this skips the context switch, which is most of the wrapper's cost.
      response = recording
        ? await context.with(trace.setSpan(context.active(), span), handle, undefined, request)
        : await handle(request);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    }
    if (!metered && !recording) {
      span.end();
      return response;
    }
    const { status } = response;
    const code = codeOf(response);
    if (metered) record(method, status, code, (performance.now() - started) / 1_000);
    if (recording) describeSpan(span, request.url, status, code);
    span.end();
    return response;
  };

  // Nothing is listening: hand the request straight to the handler, without even an extra await.
  return (request) => (metered || tracing() ? instrumented(request) : handle(request));

  function record(method: string, status: number, code: string, seconds: number): void {
    const common: Attributes = {
      'http.request.method': method,
      'http.route': WEBHOOK_ROUTE,
      'http.response.status_code': status,
    };
    if (status >= 500) common['error.type'] = code;
    duration.record(seconds, common);
    posts.add(1, { 'http.response.status_code': status, 'channel_webhooks.code': code });
    if (status === 429) rateLimited.add(1);
    if (code === 'store_failed' || code === 'rate_limiter_failed')
      backendFailures.add(1, { 'channel_webhooks.code': code });
  }
}

function describeSpan(span: Span, url: string, status: number, code: string): void {
  const path = matchWebhookPath(url);
  // Only the shape the handler looks up: anything else is text of the sender's choosing, of any length.
  const webhookId = path !== null && isWellFormedCredential(path.webhookId, path.secret) ? path.webhookId : undefined;
  span.setAttributes({
    'http.response.status_code': status,
    'channel_webhooks.code': code,
    'channel_webhooks.duplicate': code === 'duplicate',
  });
  if (webhookId !== undefined) span.setAttribute('channel_webhooks.webhook_id', webhookId);
  if (status >= 500) {
    span.setAttribute('error.type', code);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

/** `created`, `duplicate`, a known problem code, or `other`: never free text from the body. */
function codeOf(response: WebhookResponse): string {
  const body = response.body as { code?: unknown; duplicate?: unknown } | null | undefined;
  if (typeof body !== 'object' || body === null) return 'other';
  if (typeof body.code === 'string') return KNOWN_CODES.has(body.code) ? body.code : 'other';
  if (response.status === 200 && body.duplicate === true) return 'duplicate';
  if (response.status === 201) return 'created';
  return 'other';
}
