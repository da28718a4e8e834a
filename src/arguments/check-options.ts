import { ChannelWebhookError } from '../errors.js';
import type { ArgumentRule } from './argument-rules.js';
import { className, describeValue } from './describe-value.js';
import { suggestOptions } from './suggest-option.js';

/**
 * The options a factory takes, each with its rule. The order is the order the messages list them in.
 *
 * @example
 * ```ts
 * const OPTIONS: OptionsShape = { client: required(port('a client', ['query'])), timeoutMs: MILLISECONDS };
 * ```
 */
export type OptionsShape = Readonly<Record<string, ArgumentRule>>;

/**
 * The error of an argument a factory cannot work with: code `invalid_argument`, the factory first.
 *
 * @example
 * ```ts
 * if (options.tablePrefix === options.archivePrefix) throw invalidArgument('createMyStore', 'the two prefixes must differ');
 * ```
 */
export function invalidArgument(factory: string, message: string, cause?: unknown): ChannelWebhookError {
  return new ChannelWebhookError(
    'invalid_argument',
    `${factory}: ${message}`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Throws {@link invalidArgument} unless `value`, the argument `name` of `factory`, meets `rule`.
 *
 * @example
 * ```ts
 * checkArgument('MyRateLimiter.hit', 'now', now, HIT_TIME);
 * ```
 */
export function checkArgument(factory: string, name: string, value: unknown, rule: ArgumentRule): void {
  if (value === undefined && rule.required !== true) return;
  const problem = rule.problem(value);
  if (problem !== undefined)
    throw invalidArgument(
      factory,
      `${name} must be ${rule.expected}: ${problem}.${rule.hint === undefined ? '' : ` ${rule.hint}`}`,
    );
}

/**
 * The one check of a factory's options: `options` must be an object whose keys are all in `shape`
 * (an unknown key, often a typo or another library's name, would silently leave a default in
 * place, so it is refused, with the option meant when one is close), and each value must meet its
 * rule. Throws {@link invalidArgument} naming the factory and the option, so that a mistake fails
 * when the app is built rather than on the first post.
 *
 * @param factory - the factory's name, which every message starts with.
 * @param options - what the caller passed. `undefined` is refused unless `optional` is set.
 * @param shape - the options and their rules.
 * @param where - how messages name the object: `'options'`, or `'options.channels'` for a nested one.
 * @param optional - whether leaving the whole object out is allowed (every option then takes its default).
 *
 * @example
 * ```ts
 * export function createMyStore(options: MyStoreOptions): WebhookStore {
 *   checkOptions('createMyStore', options, { client: required(port('a client', ['query'])), timeoutMs: MILLISECONDS });
 *   // …
 * }
 * ```
 */
export function checkOptions(
  factory: string,
  options: unknown,
  shape: OptionsShape,
  where = 'options',
  optional = false,
): void {
  if (options === undefined && optional) return;
  const names = Object.keys(shape);
  const listed = names.map((name) => (shape[name]!.required === true ? name : `${name}?`)).join(', ');
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidArgument(factory, `${where} must be an object { ${listed} }, got ${describeValue(options)}`);
  }
  const keys = Object.keys(options);
  const unknown = keys.filter((key) => !Object.hasOwn(shape, key));
  const meant = unknown.map((key) => suggestOptions(key, names));
  // An instance of a class, or several keys of which not one is or looks like an option, and no
  // option: something else (a store, a pool) was given in place of the options, and listing its
  // keys as typos would send the reader the wrong way.
  const somethingElse =
    className(options) !== undefined || (unknown.length >= 2 && meant.every((names) => names.length === 0));
  if (unknown.length === keys.length && somethingElse && (keys.length > 0 || className(options) !== undefined)) {
    const shown = unknown.length > 4 ? `${unknown.slice(0, 4).join(', ')}, …` : unknown.join(', ');
    const got = className(options) === undefined ? `an object of ${shown}` : describeValue(options);
    throw invalidArgument(factory, `${where} must be an object { ${listed} }, got ${got}`);
  }
  if (unknown.length > 0) {
    const refused = unknown.map((key, i) =>
      meant[i]!.length === 0 ? `\`${key}\`` : `\`${key}\` (did you mean \`${meant[i]!.join('` or `')}\`?)`,
    );
    const what = unknown.length === 1 ? `${where} has an unknown key` : `${where} has unknown keys`;
    throw invalidArgument(factory, `${what} ${refused.join(', ')}; the options are ${names.join(', ')}`);
  }
  for (const name of names)
    checkArgument(factory, `${where}.${name}`, (options as Record<string, unknown>)[name], shape[name]!);
}
