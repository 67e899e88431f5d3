/**
 * A long command line with the default model (real ONNX files): `engram remember "$(cat notes.md)"`
 * with a 32,000-character text stores it, and a process that only carries 40,000 characters in its
 * arguments embeds. onnxruntime's telemetry, started with its environment, matched a backtracking regex
 * over the whole of /proc/self/cmdline and overflowed the main thread's stack (SIGSEGV, nothing stored);
 * Engram turns it off. The children get no ORT_DISABLE_TELEMETRY of their own.
 */
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { BIN, binBuilt, json, runCliAsync, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const realCache = resolveModelCacheDir(process.env, homedir());
const haveDefault = hasModelFiles(realCache, DEFAULT_ONNX_MODEL);
const skipped = !binBuilt
  ? ' (skipped: needs the built bin, run `npm run build` first)'
  : haveDefault
    ? ''
    : ` (skipped: ${DEFAULT_ONNX_MODEL} is not in ${realCache}; run "engram models pull")`;
/** The default model from the real cache, and onnxruntime left to its own defaults. */
const ENV = { ENGRAM_EMBEDDER: '', ENGRAM_CACHE_DIR: realCache, ORT_DISABLE_TELEMETRY: undefined };

const FACTS = [
  'I moved to Lisbon in May and my sister works at a bakery near the river.',
  'The quarterly review moved to Thursday because the auditors arrived late.',
  'Priya adopted two cats from the shelter and named them after painters.',
  'Our deploy target is the Frankfurt cluster until the migration finishes.',
  'Jonas prefers tea in the morning and runs along the canal on weekends.',
];

/** Notes of at least `chars` characters on one line (no newline: the regex ran up to the first one). */
function oneLineNotes(chars: number): string {
  const sentences: string[] = [];
  for (let i = 0, length = 0; length < chars; i++) {
    const sentence = `Note ${i + 1}: ${FACTS[i % FACTS.length] as string}`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ').slice(0, chars).trimEnd();
}

/** Runs `node --input-type=module -e script ...args` with the test's env changes. */
function runNode(script: string, args: readonly string[]): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, ...args], { env: { ...process.env, ...ENV } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

describe.skipIf(skipped !== '')(`a long command line with the default model${skipped}`, { timeout: 600_000 }, () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => ({ dir, cleanup } = tempDir('engram-long-argument-')));
  afterAll(() => cleanup());

  it('engram remember stores a 32,000-character text given as its argument', async () => {
    const db = join(dir, 'notes.db');
    const text = oneLineNotes(32_000);
    expect(text.length).toBeGreaterThan(31_900);
    const remembered = await runCliAsync(['remember', '--db', db, '--scope', 'me/notes', '--json', text], { env: ENV });
    expect(remembered.status, remembered.stderr).toBe(0);
    const { id, action, chunks } = json<{ id: string; action: string; chunks?: string[] }>(remembered);
    expect(action).toBe('created');
    // long enough to be stored as a parent and its chunks
    expect(chunks?.length ?? 0).toBeGreaterThan(1);

    const got = await runCliAsync(['get', id, '--db', db, '--scope', 'me/notes', '--json'], { env: ENV });
    expect(got.status, got.stderr).toBe(0);
    expect(json<{ content: string }>(got).content).toBe(text);
  });

  it.each([
    ['on the calling thread', {}],
    ['in worker threads (onnxruntime starts there, on a smaller stack)', { workers: 1, inProcessMaxTexts: 0 }],
  ])('a library process whose arguments hold 40,000 characters it never reads embeds %s', async (_, options) => {
    const onnx = pathToFileURL(join(BIN, '../../../embeddings/onnx/index.js')).href;
    const script = [
      `const { BlendEmbedder } = await import(${JSON.stringify(onnx)});`,
      `const embedder = BlendEmbedder.create({ model: ${JSON.stringify(DEFAULT_ONNX_MODEL)}, cacheDir: ${JSON.stringify(realCache)}, ...${JSON.stringify(options)} });`,
      `const [vector] = await embedder.embed(['where does my sister work?'], { purpose: 'query' });`,
      'await embedder.close();',
      'console.log(JSON.stringify({ dimension: embedder.dimension, length: vector.length }));',
    ].join(' '); // one line: a newline before the argument would end the regex's run
    const result = await runNode(script, [oneLineNotes(40_000)]);
    expect({ status: result.status, signal: result.signal }, result.stderr).toEqual({ status: 0, signal: null });
    const { dimension, length } = JSON.parse(result.stdout) as { dimension: number; length: number };
    expect(length).toBe(dimension);
  });
});
