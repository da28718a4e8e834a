import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createManagementOpenApiDocument } from '../../src/openapi/index.js';
import { root } from '../docs/doc-files.js';

// The example answers of docs/managing-webhooks.md are what the API answers: each validates against
// the OpenAPI document's schema for the route and status the text before it names (a refusal,
// against the problem schema). The guide's programs run in test/docs/doc-blocks.built.test.ts.
const GUIDE = 'docs/managing-webhooks.md';
const text = readFileSync(join(root, GUIDE), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: the test walks a JSON document of any shape.
const document = createManagementOpenApiDocument({ basePath: '' }) as Record<string, any>;

function schemaOf(method: string, path: string): object {
  const bare = path.split('?')[0]!;
  const template = Object.keys(document.paths).find(
    (candidate) =>
      new RegExp(`^${candidate.replace(/\{\w+\}/g, '[^/]+')}$`).test(bare) &&
      document.paths[candidate][method.toLowerCase()] !== undefined,
  );
  expect(template, `${method} ${path} is no route of the document`).toBeDefined();
  const operation = document.paths[template!][method.toLowerCase()];
  const [, success] = Object.entries(
    operation.responses as Record<string, { content: Record<string, { schema: object }> }>,
  )[0]!;
  return success.content['application/json']!.schema;
}

const examples = [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => {
  const before = text.slice(0, match.index).trimEnd();
  const lead = before.slice(before.lastIndexOf('\n\n') + 2);
  return { lead, json: JSON.parse(match[1]!) as unknown, line: before.split('\n').length };
});

describe(`the example answers of ${GUIDE}`, () => {
  it('there are some, each after the route it answers', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples.map((example) => [example.line, example] as const))(
    'the one at line %i matches the document',
    (_, { lead, json }) => {
      const ajv = new Ajv2020({ strict: false });
      addFormats.default(ajv);
      ajv.addSchema({ $id: 'doc', components: document.components });
      const route = /^`(GET|POST|PATCH) ([^`]+)`/.exec(lead);
      const schema = lead.startsWith('A refusal')
        ? { $ref: '#/components/schemas/ManagementProblem' }
        : schemaOf(route![1]!, route![2]!);
      const check = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
      expect(check(json), JSON.stringify(check.errors)).toBe(true);
    },
  );
});
