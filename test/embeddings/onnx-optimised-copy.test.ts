/**
 * The optimised copy of a model's network (`OnnxModel.load` with the model's hash): made on the first
 * load, read by the next ones, the same vectors either way; a copy that does not load is made again.
 * Uses the real all-MiniLM-L6-v2 from the model cache, copied into a temporary folder.
 */
import { copyFileSync, mkdirSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnnxModel, hasModelFiles, modelDirectory, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { OnnxModel, type OnnxModelConfig } from '../../src/embeddings/onnx/onnx-model.js';
import { tempDir } from '../helpers/temp.js';

const MODEL = 'all-minilm-l6-v2';
const cacheDir = resolveModelCacheDir(process.env, homedir());
const installed = hasModelFiles(cacheDir, MODEL);
const spec = findOnnxModel(MODEL);
const TEXTS = ['the cat sat on the mat', 'quarterly revenue grew five percent', 'a kitten on a rug'];

const copies = (directory: string): string[] => readdirSync(directory).filter((file) => file.startsWith('optimised-'));

describe.skipIf(!installed && process.env.CI !== 'true')(`the optimised copy of a network (${MODEL})`, () => {
  let temp: { dir: string; cleanup: () => void };
  let config: OnnxModelConfig;

  beforeEach(() => {
    temp = tempDir('engram-optimised-');
    const directory = join(temp.dir, MODEL);
    mkdirSync(directory);
    for (const file of ['model.onnx', 'tokenizer.json']) copyFileSync(join(modelDirectory(cacheDir, MODEL), file), join(directory, file));
    config = { directory, dimension: 384, pooling: 'mean', maxTokens: 128, sha256: spec?.sha256.onnx as string };
  });
  afterEach(() => temp.cleanup());

  async function embedWith(loadConfig: OnnxModelConfig): Promise<{ source: string; vectors: Float32Array }> {
    const model = await OnnxModel.load(loadConfig);
    try {
      return { source: model.source, vectors: await model.embedBatch(TEXTS) };
    } finally {
      await model.release();
    }
  }

  it('is made on the first load and read by the next, with the same vectors to the bit', async () => {
    const first = await embedWith(config);
    expect(first.source).toBe('model');
    const made = copies(config.directory);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/^optimised-[0-9a-f]{16}-ort[0-9.]+\.onnx$/);
    const second = await embedWith(config);
    expect(second.source).toBe('optimised copy');
    expect([...second.vectors]).toEqual([...first.vectors]);
    // and the same as a load that keeps no copy (no hash given), optimised fully in memory
    const { sha256: _unused, ...withoutHash } = config;
    const plain = await embedWith(withoutHash);
    expect(plain.source).toBe('model');
    expect([...plain.vectors]).toEqual([...first.vectors]);
  });

  it('makes a copy that does not load again, and removes copies of other versions', async () => {
    await embedWith(config);
    const [name] = copies(config.directory) as [string];
    const path = join(config.directory, name);
    const bytes = statSync(path).size;
    truncateSync(path, 1000);
    writeFileSync(join(config.directory, 'optimised-0123456789abcdef-ort0.0.1.onnx'), 'an older copy');
    const again = await embedWith(config);
    expect(again.source).toBe('model');
    expect(copies(config.directory)).toEqual([name]);
    expect(statSync(path).size).toBe(bytes);
    expect((await embedWith(config)).source).toBe('optimised copy');
  });

  it('keeps no copy without the model hash, and leaves no temporary file behind', async () => {
    const { sha256: _unused, ...withoutHash } = config;
    await embedWith(withoutHash);
    expect(copies(config.directory)).toEqual([]);
    await embedWith(config);
    expect(readdirSync(config.directory).filter((file) => file.includes('.tmp-'))).toEqual([]);
  });
});
