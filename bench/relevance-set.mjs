// The relevance set of test/core/relevance.test.ts (targets, distractors, queries with expectedKey) for
// plain .mjs benchmarks: test/fixtures/relevance-corpus.ts stays the one source, transpiled here with
// the TypeScript compiler (a dev dependency) and imported from memory. The fixture imports nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO_DIR } from './lib.mjs';

/** `{ targets, queries, distractors }` exactly as the test sees them. */
export async function loadRelevanceSet() {
  const source = readFileSync(join(REPO_DIR, 'test/fixtures/relevance-corpus.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  const { targets, queries, distractors } = await import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`);
  return { targets, queries, distractors };
}
