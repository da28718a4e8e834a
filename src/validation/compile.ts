import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Errors, ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
// Check and Errors alone: the `Value` namespace would bring every value operation into a bundle.
import { Check } from '@sinclair/typebox/value';

/** A schema check, compiled once at module load. */
export interface Checker {
  check(value: unknown): boolean;
  errors(value: unknown): Iterable<ValueError>;
}

/**
 * Compiles `schema` with TypeBox's compiler. Runtimes that forbid code generation (`new Function`,
 * e.g. some edge workers) get the interpreted checker instead, which gives the same answers, slower.
 */
export function compile(schema: TSchema): Checker {
  try {
    const compiled = TypeCompiler.Compile(schema);
    return { check: (value) => compiled.Check(value), errors: (value) => compiled.Errors(value) };
  } catch {
    return { check: (value) => Check(schema, value), errors: (value) => Errors(schema, value) };
  }
}

/** A sentence-style message for one schema error, for the problem's `errors[].message`. */
export function describeError(error: ValueError): string {
  const schema = error.schema as {
    const?: unknown;
    maximum?: number;
    minimum?: number;
    minItems?: number;
    maxItems?: number;
    minLength?: number;
    maxLength?: number;
    enum?: unknown[];
    anyOf?: { const?: unknown }[];
  };
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not an allowed property';
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Boolean:
      return 'must be a boolean';
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union: {
      const options = (schema.anyOf ?? []).map((option) => option.const).filter((value) => value !== undefined);
      return options.length > 0
        ? `must be one of ${options.map((value) => JSON.stringify(value)).join(', ')}`
        : 'has an invalid shape';
    }
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} items`;
    case ValueErrorType.StringMinLength:
      return `must have at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`;
    case ValueErrorType.StringMaxLength:
      return `must have at most ${schema.maxLength} characters`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be at least ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `must be at most ${schema.maximum}`;
    default:
      return error.message;
  }
}
