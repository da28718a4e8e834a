import { redactWebhookUrl } from '../../../src/adapter-kit/index.js';

/** A log serializer: turns what was logged under one key into what is written. */
type Serializer = (value: unknown) => unknown;

// pino's own `pino.symbols.serializersSym`, a registered symbol, so pino need not be imported.
const PINO_SERIALIZERS = Symbol.for('pino.serializers');

/**
 * Creates the `req` log serializer of the webhook routes: the logger's own `req` serializer (the
 * app's custom one, or Fastify's default), given a view of the request whose `url` (and
 * `originalUrl`, and `raw.url`) has the secret replaced by `[redacted]`. The request itself is not
 * touched: the handler still reads the real URL.
 *
 * @param log - the plugin instance's logger (`instance.log`), read once at registration.
 */
export function createRedactingRequestSerializer(log: unknown): Serializer {
  const serializers = (log as { [PINO_SERIALIZERS]?: Record<string, Serializer | undefined> } | undefined)?.[
    PINO_SERIALIZERS
  ];
  const base: Serializer =
    serializers?.req ??
    ((view) => ({ method: (view as { method?: unknown }).method, url: (view as { url?: unknown }).url }));
  return (request) => base(redactedView(request));
}

/**
 * A view of a logged request (Fastify's, or Node's `IncomingMessage`) whose `url` (and
 * `originalUrl`, and `raw.url`) has the secret replaced by `[redacted]`; everything else is the
 * request's own. Anything else comes back as it is.
 */
export function redactedView(request: unknown): unknown {
  if (typeof request !== 'object' || request === null) return request;
  const { url, raw } = request as { url?: unknown; raw?: unknown };
  if (typeof url !== 'string') return request;
  const redacted = redactWebhookUrl(url);
  // A view that inherits everything else (method, headers, ip, socket, getters) from the request.
  const view: PropertyDescriptorMap = { url: { value: redacted }, originalUrl: { value: redacted } };
  if (typeof raw === 'object' && raw !== null) view.raw = { value: Object.create(raw, { url: { value: redacted } }) };
  return Object.create(request, view);
}
