import { codePointLength } from '../../validation/text.js';
import { child, type ChangeLog } from './change-log.js';

// The shapes the endpoint takes, written as rules the converter can apply field by field (it must
// not load the validator's schemas: the `/send` entry stays small). Every rule here mirrors one of
// src/validation/block-schemas.ts; the tests check that what the converter keeps the validator
// accepts.

export type Json = Record<string, unknown>;

/**
 * One field's rule: a test, what the value must be (for the change that drops it), and optionally
 * a repair for a value Slack takes and the endpoint does not (it logs what it changed).
 */
export interface Rule {
  test(value: unknown): boolean;
  expected: string;
  repair?(value: unknown, at: string, to: string, log: ChangeLog): unknown;
}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string of `min` to `max` UTF-16 units, as the schemas count. */
export const stringOf = (min = 0, max = Number.POSITIVE_INFINITY): Rule => ({
  test: (value) => typeof value === 'string' && value.length >= min && value.length <= max,
  expected:
    max === Number.POSITIVE_INFINITY
      ? min === 0
        ? 'a string'
        : 'a non-empty string'
      : `a string of ${min} to ${max} characters`,
});

/** A string matching `pattern`, of at most `max` units. */
export const urlOf = (pattern: RegExp, max: number, what: string): Rule => ({
  test: (value) => typeof value === 'string' && value.length <= max && pattern.test(value),
  expected: what,
});

export const isBoolean: Rule = { test: (value) => typeof value === 'boolean', expected: 'true or false' };

export const integerOf = (min: number, max = Number.POSITIVE_INFINITY): Rule => ({
  test: (value) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  expected:
    max === Number.POSITIVE_INFINITY ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`,
});

export const oneOf = (...values: unknown[]): Rule => ({
  test: (value) => values.includes(value),
  expected: `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`,
});

/** A `block_id`: 1 to `max` code points. */
export const blockIdOf = (max: number): Rule => ({
  test: (value) => typeof value === 'string' && value.length >= 1 && codePointLength(value) <= max,
  expected: `a string of 1 to ${max} characters`,
});

/** A field the caller replaces after {@link keepFields}: kept as it is until then. */
export const REPLACED: Rule = { test: () => true, expected: 'anything' };

/**
 * A copy of `input` with the fields `rules` allows and whose value passes (or is repaired), in the
 * input's order; every other field is dropped and logged. `type` is always kept: the caller chose
 * the rules by it. `at` points into the Slack payload, `to` at the copy's place in the converted one.
 */
export function keepFields(
  input: Json,
  at: string,
  to: string,
  what: string,
  rules: Record<string, Rule>,
  log: ChangeLog,
): Json {
  const kept: Json = {};
  for (const [key, value] of Object.entries(input)) {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (key === 'type') kept[key] = value;
    else if (rule === undefined) log.dropped(child(at, key), `is not a field of ${what} here`);
    else if (rule.test(value)) kept[key] = value;
    else {
      const repaired = rule.repair?.(value, child(at, key), child(to, key), log);
      if (repaired !== undefined) kept[key] = repaired;
      else log.dropped(child(at, key), `must be ${rule.expected}`);
    }
  }
  return kept;
}
