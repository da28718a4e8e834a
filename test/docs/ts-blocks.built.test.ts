import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, docPages, root } from './doc-files.js';

// Every `ts` block of the management guide is TypeScript a reader pastes into a `.ts` file of their
// app: beside running it (doc-blocks.built.test.ts, through tsx, which strips types without
// checking them), it must type-check as pasted, under `strict`, with the types of the packages it
// imports. Each block is a module of its own, checked against the built package (`channel-webhooks`
// resolves to this repository's `dist/` by its own name).
const blocks = docPages()
  .filter((page) => page.path === 'docs/managing-webhooks.md')
  .flatMap(codeBlocks)
  .filter((block) => block.lang === 'ts' && block.notRun === null);

// Inside the repository, so that `channel-webhooks` and the packages a block imports resolve.
mkdirSync(join(root, '.tmp'), { recursive: true });
const folder = mkdtempSync(join(root, '.tmp', 'ts-blocks-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const files = new Map(blocks.map((block) => [join(folder, `${block.where.replace(/[^\w]+/g, '-')}.ts`), block]));
for (const [file, block] of files) writeFileSync(file, block.code);

const program = ts.createProgram([...files.keys()], {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  skipLibCheck: true,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
});

describe('the management guide’s TypeScript blocks', () => {
  it('the management guide has TypeScript forms of its programs', () => {
    expect(
      [...files.values()].filter((block) => block.where.startsWith('docs/managing-webhooks.md')).length,
    ).toBeGreaterThan(0);
  });

  for (const [file, block] of files) {
    it(`${block.where} type-checks as pasted`, () => {
      const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file));
      expect(
        diagnostics.map(
          (diagnostic) =>
            `${diagnostic.start === undefined ? '' : `line ${diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
        ),
      ).toEqual([]);
    });
  }
});
