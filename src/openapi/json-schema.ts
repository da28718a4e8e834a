import type { TSchema } from '@sinclair/typebox';

/** A JSON Schema (2020-12) object, as the OpenAPI 3.1 document holds it. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The plain JSON Schema of a TypeBox schema: TypeBox's own symbol keys dropped, and `maxCodePoints`
 * (a limit the validator checks itself, because TypeBox counts UTF-16 units) published as `maxLength`,
 * which JSON Schema counts in code points.
 */
export function toJsonSchema(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_key: string, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const { maxCodePoints, ...rest } = value as JsonSchema;
    return maxCodePoints === undefined ? rest : { ...rest, maxLength: maxCodePoints };
  }) as JsonSchema;
}

/** `schema` (a JSON Schema object) with the items of its property `property` replaced by `items`. */
export function withItems(schema: JsonSchema, property: string, items: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  return { ...schema, properties: { ...properties, [property]: { ...properties[property], items } } };
}

/** A `oneOf` over `$ref`s of named component schemas, discriminated by their `type`. */
export function oneOfRefs(names: Record<string, string>): JsonSchema {
  return {
    oneOf: Object.values(names).map((name) => ({ $ref: ref(name) })),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(Object.entries(names).map(([type, name]) => [type, ref(name)])),
    },
  };
}

/** The `$ref` of a component schema. */
export const ref = (name: string): string => `#/components/schemas/${name}`;
