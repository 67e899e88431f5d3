import { describe, expect, it } from 'vitest';
import { choiceForRecordedEmbedder, installedChoiceFor, parseEmbedderChoice, preferredLocalEmbedder } from '../../src/embedder-choice.js';
import {
  blendEmbedderName,
  DEFAULT_ONNX_MODEL,
  findOnnxBlend,
  findOnnxModel,
  hasModelFiles,
  modelDirectory,
  modelsNeededBy,
  onnxEmbedderName,
  resolveModelCacheDir,
} from '../../src/embeddings/onnx/index.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

describe('model cache folder', () => {
  it('takes $ENGRAM_CACHE_DIR, else $XDG_CACHE_HOME/engram, else ~/.cache/engram', () => {
    expect(resolveModelCacheDir({ ENGRAM_CACHE_DIR: '/srv/engram', XDG_CACHE_HOME: '/var/cache' }, '/home/ann')).toBe('/srv/engram');
    expect(resolveModelCacheDir({ XDG_CACHE_HOME: '/var/cache' }, '/home/ann')).toBe('/var/cache/engram');
    expect(resolveModelCacheDir({}, '/home/ann')).toBe('/home/ann/.cache/engram');
  });

  it('treats empty values as unset and ignores a relative XDG_CACHE_HOME', () => {
    expect(resolveModelCacheDir({ ENGRAM_CACHE_DIR: '', XDG_CACHE_HOME: '' }, '/home/ann')).toBe('/home/ann/.cache/engram');
    expect(resolveModelCacheDir({ XDG_CACHE_HOME: 'relative/cache' }, '/home/ann')).toBe('/home/ann/.cache/engram');
  });

  it('keeps each model under models/<name>/', () => {
    expect(modelDirectory('/srv/engram', 'bge-small-en-v1.5')).toBe('/srv/engram/models/bge-small-en-v1.5');
  });
});

describe('embedder names', () => {
  it('parses the built-in names, aliases and prefixes', () => {
    expect(parseEmbedderChoice('use')).toEqual({ kind: 'use' });
    expect(parseEmbedderChoice('use-lite')).toEqual({ kind: 'use' });
    expect(parseEmbedderChoice('static')).toEqual({ kind: 'static' });
    expect(parseEmbedderChoice('hash')).toEqual({ kind: 'hash' });
    expect(parseEmbedderChoice('hash:64')).toEqual({ kind: 'hash', dimension: 64 });
    expect(parseEmbedderChoice('hash:256')).toEqual({ kind: 'hash' });
    expect(() => parseEmbedderChoice('hash:4')).toThrow('Unknown embedder');
    expect(choiceForRecordedEmbedder('hash:64')).toEqual({ kind: 'hash', dimension: 64 });
    expect(choiceForRecordedEmbedder('hash:256')).toEqual({ kind: 'hash' });
    expect(parseEmbedderChoice('auto')).toEqual({ kind: 'auto' });
    for (const model of ['bge-small-en-v1.5', 'e5-small-v2', 'all-minilm-l6-v2', 'bge-small-zh-v1.5']) {
      expect(parseEmbedderChoice(model)).toEqual({ kind: 'onnx', model });
      expect(parseEmbedderChoice(`onnx:${model}`)).toEqual({ kind: 'onnx', model });
    }
    expect(parseEmbedderChoice(' BGE-Small-EN-v1.5 ')).toEqual({ kind: 'onnx', model: 'bge-small-en-v1.5' });
    expect(parseEmbedderChoice('openai:text-embedding-3-small')).toEqual({ kind: 'openai', model: 'text-embedding-3-small' });
  });

  it('refuses anything else with the list of names', () => {
    for (const bad of ['', '   ', 'bert', 'onnx:', 'onnx:gpt-2', 'openai:', 42, null]) {
      expect(() => parseEmbedderChoice(bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('bge-small-en-v1.5') }),
      );
    }
  });

  it('maps recorded store names back to the embedder that wrote them', () => {
    const bge = findOnnxModel('bge-small-en-v1.5')!;
    expect(onnxEmbedderName(bge)).toBe('onnx:bge-small-en-v1.5:384:6c9c6101');
    expect(choiceForRecordedEmbedder('onnx:bge-small-en-v1.5:384:6c9c6101')).toEqual({ kind: 'onnx', model: 'bge-small-en-v1.5' });
    expect(choiceForRecordedEmbedder('use-lite:512')).toEqual({ kind: 'use' });
    expect(choiceForRecordedEmbedder('openai:text-embedding-3-small:1536')).toEqual({ kind: 'openai', model: 'text-embedding-3-small' });
    expect(choiceForRecordedEmbedder(null)).toBeUndefined();
    expect(choiceForRecordedEmbedder('my-own:128')).toBeUndefined();
  });

  it('refuses to reopen a store whose recorded ONNX model hash is not the catalogue one', () => {
    expect(() => choiceForRecordedEmbedder('onnx:bge-small-en-v1.5:384:deadbeef')).toThrow(
      expect.objectContaining({ code: 'EMBEDDING_MODEL_MISMATCH' }),
    );
    expect(() => choiceForRecordedEmbedder('onnx:unknown-model:384:deadbeef')).toThrow(
      expect.objectContaining({ code: 'EMBEDDING_MODEL_MISMATCH' }),
    );
  });

  it('prefers the default blend when both its members are in the cache, else bge-small, else USE-lite', async () => {
    const temp = tempDir('engram-prefer-');
    const install = (model: string, files: readonly string[]): void => {
      const directory = join(temp.dir, 'models', model);
      mkdirSync(directory, { recursive: true });
      for (const file of files) writeFileSync(join(directory, file), file.endsWith('.json') ? '{}' : 'x');
    };
    try {
      expect(await preferredLocalEmbedder(temp.dir)).toEqual({ kind: 'use' });
      install('bge-small-en-v1.5', ['model.onnx']);
      expect(await preferredLocalEmbedder(temp.dir)).toEqual({ kind: 'use' });
      install('bge-small-en-v1.5', ['tokenizer.json']);
      expect(await preferredLocalEmbedder(temp.dir)).toEqual({ kind: 'onnx', model: 'bge-small-en-v1.5' });
      // one member of the default blend is not enough
      install('e5-small-v2', ['model.onnx', 'tokenizer.json']);
      expect(await preferredLocalEmbedder(temp.dir)).toEqual({ kind: 'onnx', model: 'bge-small-en-v1.5' });
      install('all-minilm-l6-v2', ['model.onnx', 'tokenizer.json']);
      expect(await preferredLocalEmbedder(temp.dir)).toEqual({ kind: 'onnx', model: DEFAULT_ONNX_MODEL });
      expect(DEFAULT_ONNX_MODEL).toBe('blend-e5-minilm');
    } finally {
      temp.cleanup();
    }
  });

  it('adopts a recorded model only when this machine can make it: static always, an ONNX blend with all its members', async () => {
    const temp = tempDir('engram-adopt-');
    try {
      expect(await installedChoiceFor('static-use-lite:512:v1', temp.dir)).toEqual({ kind: 'static' });
      expect(await installedChoiceFor('use-lite:512', temp.dir)).toEqual({ kind: 'use' });
      const blend = blendEmbedderName(findOnnxBlend('blend-e5-minilm')!);
      expect(await installedChoiceFor(blend, temp.dir)).toBeUndefined();
      for (const model of ['e5-small-v2', 'all-minilm-l6-v2']) {
        const directory = join(temp.dir, 'models', model);
        mkdirSync(directory, { recursive: true });
        writeFileSync(join(directory, 'model.onnx'), 'x');
        writeFileSync(join(directory, 'tokenizer.json'), '{}');
      }
      expect(await installedChoiceFor(blend, temp.dir)).toEqual({ kind: 'onnx', model: 'blend-e5-minilm' });
    } finally {
      temp.cleanup();
    }
  });
});

describe('model blends', () => {
  it('parses a blend name like a model name and needs every member on disk', () => {
    expect(parseEmbedderChoice('blend-small-en')).toEqual({ kind: 'onnx', model: 'blend-small-en' });
    expect(parseEmbedderChoice('onnx:blend-small-en')).toEqual({ kind: 'onnx', model: 'blend-small-en' });
    expect(modelsNeededBy('blend-small-en')).toEqual(['bge-small-en-v1.5', 'e5-small-v2', 'all-minilm-l6-v2']);
    expect(modelsNeededBy('e5-small-v2')).toEqual(['e5-small-v2']);
    expect(modelsNeededBy('blend-nope')).toEqual([]);
  });

  it('records onnx:<blend>:<summed dimension>:<sha8> and reopens only the same members and weights', () => {
    const blend = findOnnxBlend('blend-small-en')!;
    const recorded = blendEmbedderName(blend);
    expect(recorded).toMatch(/^onnx:blend-small-en:1152:[0-9a-f]{8}$/);
    expect(choiceForRecordedEmbedder(recorded)).toEqual({ kind: 'onnx', model: 'blend-small-en' });
    // other weights give another identity, which must not reopen as this blend
    const reweighted = blendEmbedderName({ ...blend, members: blend.members.map((m) => ({ ...m, weight: 1 })) });
    expect(reweighted).not.toBe(recorded);
    expect(() => choiceForRecordedEmbedder(reweighted)).toThrow(/does not have \(it has onnx:blend-small-en:1152:/);
  });

  it('counts a blend as installed only when all its members are', () => {
    const { dir: cache, cleanup } = tempDir();
    const install = (name: string): void => {
      mkdirSync(modelDirectory(cache, name), { recursive: true });
      for (const file of ['model.onnx', 'tokenizer.json']) writeFileSync(join(modelDirectory(cache, name), file), '{}');
    };
    install('bge-small-en-v1.5');
    install('e5-small-v2');
    expect(hasModelFiles(cache, 'blend-small-en')).toBe(false);
    install('all-minilm-l6-v2');
    expect(hasModelFiles(cache, 'blend-small-en')).toBe(true);
    cleanup();
  });
});
