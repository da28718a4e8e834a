import { redactWebhookUrl } from '../http/redact.js';

/**
 * A value as an error message names it: a number as written, a string as written with any webhook
 * secret redacted (a secret URL given to the wrong option must not reach a log), an object by its
 * class ("a Pool", "an object"), never its contents (it may hold a password or a connection string).
 */
export function describeValue(value: unknown): string {
  if (
    value === null ||
    value === undefined ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  )
    return String(value);
  if (typeof value === 'string') {
    const shown = redactWebhookUrl(value);
    return shown.length > 40 ? `${JSON.stringify(shown.slice(0, 40))}…` : JSON.stringify(shown);
  }
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'function') return value.name === '' ? 'a function' : `the function ${value.name}`;
  if (Array.isArray(value)) return 'an array';
  const name = className(value);
  return name === undefined ? 'an object' : withArticle(name);
}

/** The name of the class `value` was built by, or `undefined` for a plain object. */
export function className(value: object): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === null || prototype === Object.prototype) return undefined;
  const name: unknown = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : undefined;
}

const withArticle = (noun: string): string => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
