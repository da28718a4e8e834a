import { redactWebhookUrl } from '../../../src/adapter-kit/index.js';
import { redactedView } from './redact-request-log.js';

/** A pino log method (`logger.info` and its kin), as pino hands it to `hooks.logMethod`. */
type LogMethod = (...args: unknown[]) => void;

/**
 * pino's `hooks.logMethod`: gets each log call's arguments and the method to pass them on to.
 *
 * @example
 * ```ts
 * const logMethod: RedactingLogMethod = createRedactingLogMethod();
 * const app = Fastify({ logger: { hooks: { logMethod } } });
 * ```
 */
export type RedactingLogMethod = (this: unknown, args: unknown[], method: LogMethod, level: number) => void;

/**
 * Creates a `hooks.logMethod` for the app's pino logger that takes webhook secrets out of every
 * record the app writes, not only those of the plugin's own routes: a post to a near-miss URL (a
 * trailing slash, `//`, `/Hooks/`, an extra segment) is answered 404 by Fastify itself, whose
 * `incoming request` record and `Route POST:… not found` message would carry the live secret.
 *
 * Each call's string arguments (the message and its interpolation values) go through
 * `redactWebhookUrl`, and so do a logged object's string fields; its `req` is given to the logger's
 * own `req` serializer (Fastify's default or the app's) as a view whose URL is redacted, and its
 * `err` (or a logged error) as a view whose message and stack are redacted. Nothing logged is
 * modified. A child logger (`request.log`) inherits the hook.
 *
 * @returns the hook, for `Fastify({ logger: { hooks: { logMethod } } })` or `pino({ hooks: { logMethod } })`.
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { createFastifyPlugin, createRedactingLogMethod } from 'channel-webhooks/fastify';
 *
 * const app = Fastify({ logger: { hooks: { logMethod: createRedactingLogMethod() } } });
 * app.register(createFastifyPlugin(handle), { prefix: '/api' });
 * // POST /api/hooks/channels/{id}/{secret}/ → 404, logged as …/{id}/[redacted]
 * ```
 */
export function createRedactingLogMethod(): RedactingLogMethod {
  return function logMethod(args, method) {
    method.apply(this, args.map(redactArgument));
  };
}

function redactArgument(value: unknown): unknown {
  if (typeof value === 'string') return redactWebhookUrl(value);
  if (value instanceof Error) return redactedError(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(record)) {
    if (typeof field === 'string') record[key] = redactWebhookUrl(field);
    else if (field instanceof Error) record[key] = redactedError(field);
  }
  if ('req' in record) record.req = redactedView(record.req);
  return record;
}

// A view, so that the error thrown and handled elsewhere keeps its own message.
function redactedError(error: Error): Error {
  const message = redactWebhookUrl(error.message);
  const stack = typeof error.stack === 'string' ? redactWebhookUrl(error.stack) : error.stack;
  if (message === error.message && stack === error.stack) return error;
  return Object.create(error, { message: { value: message }, stack: { value: stack } }) as Error;
}
