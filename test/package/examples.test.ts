/**
 * The `@example` blocks of the main entry points are real code: each fenced `ts` example in their JSDoc
 * is written out as a module and type-checked against the built package (`engram`, `engram/sqlite`, …
 * resolve through the package's own `exports`), so an example cannot drift from the API it shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The public entry points whose examples users copy first. */
const ENTRY_POINTS = [
  'src/engram.ts',
  'src/storage/sqlite/index.ts',
  'src/storage/postgres/index.ts',
  'src/interfaces/mcp/server.ts',
  'src/interfaces/http/app.ts',
  'src/llm/openai-compatible-llm.ts',
];

/** Free names an example may use without declaring them: an open Engram and its store. */
const PRELUDE: Record<string, string> = {
  engram: "import type { Engram as PreludeEngram } from 'engram';\ndeclare const engram: PreludeEngram;",
  store: "import type { Store as PreludeStore } from 'engram';\ndeclare const store: PreludeStore;",
};

interface Example {
  file: string;
  line: number;
  code: string;
}

/** The fenced ts examples inside JSDoc comments, with the leading ` * ` removed. */
function examplesIn(file: string): Example[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const examples: Example[] = [];
  let current: { line: number; body: string[] } | undefined;
  lines.forEach((raw, index) => {
    const text = raw.replace(/^\s*\* ?/, '');
    if (current === undefined) {
      if (/^\s*\*\s*```ts\s*$/.test(raw)) current = { line: index + 1, body: [] };
      return;
    }
    if (/^\s*\*\s*```\s*$/.test(raw)) {
      examples.push({ file, line: current.line, code: current.body.join('\n') });
      current = undefined;
      return;
    }
    current.body.push(text);
  });
  return examples;
}

function withPrelude(code: string): string {
  const prelude = Object.entries(PRELUDE)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !new RegExp(`\\b(?:const|let|var) ${name}\\b`).test(code))
    .map(([, text]) => text);
  // `export {}` keeps each example a module of its own (top-level await, no shared globals).
  return [...prelude, code, 'export {};', ''].join('\n');
}

const workDir = mkdtempSync(join(root, '.examples-check-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('the @example blocks of the public entry points', () => {
  const examples = ENTRY_POINTS.flatMap(examplesIn);

  it('every entry point shows at least one example', () => {
    for (const file of ENTRY_POINTS) expect(examples.filter((e) => e.file === file).length, file).toBeGreaterThan(0);
  });

  it('every example type-checks against the built package', () => {
    const files = examples.map((example, index) => {
      const path = join(workDir, `example-${index}.ts`);
      writeFileSync(path, withPrelude(example.code));
      return { path, example };
    });
    const program = ts.createProgram(
      files.map((f) => f.path),
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
    );
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const origin = files.find((f) => f.path === d.file?.fileName)?.example;
      const where = origin ? `${origin.file}:${origin.line}` : (d.file?.fileName ?? 'program');
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});
