/**
 * The embedder names a user sees are names the CLI accepts: a model mismatch suggests a valid
 * --embedder value, and `use-lite` (the USE model's own name) is an alias of `use`.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/core/errors.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('the model-mismatch hint', () => {
  it.each([
    ['use-lite:512', 'use'],
    ['static-use-lite:512:v1', 'static'],
    ['hash:256', 'hash'],
  ])('for a database of %s suggests --embedder %s', (stored, flag) => {
    const message = messages.modelMismatch(stored, 'other:1');
    expect(message).toContain(`--embedder ${flag})`);
  });
});

describe.skipIf(!binBuilt)('--embedder use-lite', { timeout: 120_000 }, () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => ({ dir, cleanup } = tempDir()));
  afterAll(() => cleanup());

  it('is accepted as use: on a hash database it reaches the model check, not a flag error', () => {
    const db = join(dir, 'hash.db');
    expect(runCli(['remember', 'a memory', '--scope', 'acme/x', '--db', db, '--embedder', 'hash']).status).toBe(0);
    const result = runCli(['stats', '--scope', 'acme/x', '--db', db, '--embedder', 'use-lite', '--json'], { env: { ENGRAM_EMBEDDER: '' } });
    expect(result.status).toBe(2);
    const error = (JSON.parse(result.stderr.trim().split('\n').pop() as string) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('EMBEDDING_MODEL_MISMATCH');
    expect(error.message).toContain('"use-lite:512"');
    expect(error.message).toContain('--embedder hash');
  });
});
