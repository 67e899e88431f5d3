/**
 * `checkModelFiles`: an installed model's files are hashed once; while they stay the very files that
 * matched (size, inode, modification and change times), later checks trust the note beside them.
 */
import { appendFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkModelFiles, modelDirectory, verifyModelFiles, type OnnxModelSpec } from '../../src/embeddings/onnx/index.js';
import { tempDir } from '../helpers/temp.js';
import { FAKE_ONNX, FAKE_TOKENIZER, fakeModelSpec } from '../helpers/fake-model.js';

const fakeSpec = (files: { onnx: string; tokenizer: string }): OnnxModelSpec => fakeModelSpec('fake-model', files);

describe('checkModelFiles', () => {
  let temp: { dir: string; cleanup: () => void };
  let directory: string;
  const spec = fakeSpec({ onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER });
  const sealPath = (): string => join(directory, 'verified.json');

  beforeEach(() => {
    temp = tempDir('engram-model-seal-');
    directory = modelDirectory(temp.dir, spec.name);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'model.onnx'), FAKE_ONNX);
    writeFileSync(join(directory, 'tokenizer.json'), FAKE_TOKENIZER);
  });
  afterEach(() => temp.cleanup());

  it('hashes the files once, notes them, and trusts the note while they are unchanged', async () => {
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: true });
    const seal = JSON.parse(readFileSync(sealPath(), 'utf8')) as Record<string, { sha256: string; bytes: number }>;
    expect(seal.onnx).toMatchObject({ sha256: spec.sha256.onnx, bytes: Buffer.byteLength(FAKE_ONNX) });
    expect(seal.tokenizer).toMatchObject({ sha256: spec.sha256.tokenizer, bytes: Buffer.byteLength(FAKE_TOKENIZER) });
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: false });
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: false });
  });

  it('hashes again once a file was written to, even when its content and size end up the same', async () => {
    await checkModelFiles(temp.dir, spec);
    const path = join(directory, 'model.onnx');
    appendFileSync(path, 'x');
    truncateSync(path, Buffer.byteLength(FAKE_ONNX));
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: true });
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: false });
  });

  it('finds a corrupted file as verifyModelFiles does, and never seals it', async () => {
    await checkModelFiles(temp.dir, spec);
    const before = readFileSync(sealPath(), 'utf8');
    // same size, one byte different
    writeFileSync(join(directory, 'tokenizer.json'), FAKE_TOKENIZER.replace('fake', 'fakE'));
    expect(await verifyModelFiles(temp.dir, spec)).toBe(false);
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: false, hashed: true });
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: false, hashed: true });
    expect(readFileSync(sealPath(), 'utf8')).toBe(before);
  });

  it('hashes again when the catalogue names other files than the note does', async () => {
    await checkModelFiles(temp.dir, spec);
    const other = fakeSpec({ onnx: 'other onnx bytes', tokenizer: FAKE_TOKENIZER });
    expect(await checkModelFiles(temp.dir, other)).toEqual({ ok: false, hashed: true });
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: false });
  });

  it('treats an unreadable note as none, and writes a good one', async () => {
    for (const text of ['not json', 'null', '{"onnx":{"sha256":1}}', '[]']) {
      writeFileSync(sealPath(), text);
      expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: true });
      expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: false });
    }
  });

  it('still answers where the note cannot be written (it hashes every time)', async () => {
    // a folder where the note would go: renaming a file over it fails
    mkdirSync(sealPath());
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: true });
    expect(await checkModelFiles(temp.dir, spec)).toEqual({ ok: true, hashed: true });
  });

  it('says not ok without hashing when a file is missing', async () => {
    const empty = tempDir('engram-model-seal-empty-');
    try {
      expect(await checkModelFiles(empty.dir, spec)).toEqual({ ok: false, hashed: false });
    } finally {
      empty.cleanup();
    }
  });
});
