import { MAX_TIMEOUT_MS } from '../waiting/deadline.js';
import { describeValue } from './describe-value.js';

/**
 * What one argument or option of a factory must be. Build one with the functions of this module;
 * {@link checkOptions} and {@link checkArgument} apply it.
 *
 * @example
 * ```ts
 * const RETENTION_DAYS: ArgumentRule = rule('a whole number of days', Number.isSafeInteger);
 * ```
 */
export interface ArgumentRule {
  /** What the value must be, as the message says it: `'a WebhookStore'`, `'true or false'`. */
  readonly expected: string;
  /** Why `value` is not that (`'it has no getWebhook()'`, `'got "5000"'`), or `undefined` when it is. */
  readonly problem: (value: unknown) => string | undefined;
  /** What to pass instead, said after the problem. */
  readonly hint?: string;
  /** Whether leaving it out (or `undefined`) is a mistake. Default: it may be left out. */
  readonly required?: boolean;
}

const got = (value: unknown): string => `got ${describeValue(value)}`;

/**
 * A rule met by the values `test` accepts.
 *
 * @example
 * ```ts
 * const TABLE = rule('a table name', (value) => typeof value === 'string' && /^[a-z_]+$/.test(value));
 * checkOptions('createMyStore', options, { table: TABLE });
 * ```
 */
export function rule(expected: string, test: (value: unknown) => boolean, hint?: string): ArgumentRule {
  return { expected, problem: (value) => (test(value) ? undefined : got(value)), hint };
}

/**
 * `rule`, but a value must be given.
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { client: required(port('a client', ['query'])) });
 * ```
 */
export function required(optional: ArgumentRule): ArgumentRule {
  return { ...optional, required: true };
}

/**
 * A port, checked by its shape: an object with each of `methods`. A port's type
 * cannot be tested across packages and realms, and its shape is what the factory will call.
 *
 * @example
 * ```ts
 * const CLIENT = port('a node-postgres Pool', ['query'], 'Pass new pg.Pool({ connectionString }).');
 * ```
 */
export function port(expected: string, methods: readonly string[], hint?: string): ArgumentRule {
  return {
    expected,
    hint,
    problem(value) {
      if (typeof value !== 'object' || value === null) return got(value);
      const missing = methods.filter((method) => typeof (value as Record<string, unknown>)[method] !== 'function');
      return missing.length === 0 ? undefined : `it has no ${missing.map((method) => `${method}()`).join(', ')}`;
    },
  };
}

/**
 * One of a few exact values.
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { durability: oneOf('fast', 'safe') });
 * ```
 */
export function oneOf(...values: readonly (string | boolean)[]): ArgumentRule {
  const said = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  return rule(`${said.slice(0, -1).join(', ')} or ${said.at(-1)}`, (value) =>
    values.includes(value as string | boolean),
  );
}

/**
 * A function.
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { onError: fn() });
 * ```
 */
export function fn(expected = 'a function', hint?: string): ArgumentRule {
  return rule(expected, (value) => typeof value === 'function', hint);
}

/**
 * A whole number from `min` to `max`.
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { batchSize: integer(1, 1_000) });
 * ```
 */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): ArgumentRule {
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  return rule(
    `an integer ${range}`,
    (value) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max,
  );
}

/**
 * `true` or `false`.
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { migrate: BOOLEAN });
 * ```
 */
export const BOOLEAN: ArgumentRule = oneOf(true, false);

/**
 * A delay in milliseconds that ends up as a timer: above 0 and at most `MAX_TIMEOUT_MS` (a longer
 * one would fire at once).
 *
 * @example
 * ```ts
 * checkOptions('createMyStore', options, { timeoutMs: MILLISECONDS });
 * setTimeout(giveUp, options.timeoutMs ?? 5_000);
 * ```
 */
export const MILLISECONDS: ArgumentRule = rule(
  `a number of ms above 0 and at most ${MAX_TIMEOUT_MS}`,
  (value) => typeof value === 'number' && value > 0 && value <= MAX_TIMEOUT_MS,
);

/**
 * A point in time in milliseconds since the Unix epoch, as clocks give it: any finite number. A
 * time that is not one would make every comparison with it false.
 *
 * @example
 * ```ts
 * checkArgument('MyStore.pruneMessages', 'before', before, EPOCH_MS);
 * ```
 */
export const EPOCH_MS: ArgumentRule = rule('a finite number of epoch ms', Number.isFinite);

/**
 * A span of time in milliseconds that is only compared, never given to a timer: any positive number.
 *
 * @example
 * ```ts
 * checkOptions('createMyRateLimiter', options, { limit: integer(1), windowMs: POSITIVE_MS });
 * ```
 */
export const POSITIVE_MS: ArgumentRule = rule(
  'a positive number of ms',
  (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
);

/**
 * An absolute http(s) URL. The message says what is wrong with it, never what it is: a webhook's
 * URL carries its secret.
 */
export const HTTP_URL: ArgumentRule = {
  expected: 'an absolute http(s) URL',
  problem(value) {
    if (typeof value !== 'string') return got(value);
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      return 'it is not a URL';
    }
    return protocol === 'http:' || protocol === 'https:' ? undefined : `its scheme is ${protocol}`;
  },
};
