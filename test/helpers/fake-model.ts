/**
 * A catalogue entry for a fake ONNX model whose files are the given strings (their sha256 are its
 * hashes), served by a local hub or Maven in the pull tests, or written straight into a model folder.
 */
import { createHash } from 'node:crypto';
import type { OnnxModelSpec } from '../../src/embeddings/onnx/index.js';

export const sha256Of = (data: string): string => createHash('sha256').update(data).digest('hex');

export const FAKE_ONNX = 'fake onnx bytes\u0000\u0001';
export const FAKE_TOKENIZER = '{"fake":"tokenizer"}';

export function fakeModelSpec(
  name: string,
  files: { onnx: string; tokenizer: string } = { onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER },
): OnnxModelSpec {
  return {
    name,
    dimension: 4,
    pooling: 'mean',
    maxTokens: 16,
    queryPrefix: '',
    passagePrefix: '',
    sha256: { onnx: sha256Of(files.onnx), tokenizer: sha256Of(files.tokenizer) },
    sources: [
      { kind: 'hub', repo: 'Fake/model', revision: 'v1', onnxFile: 'onnx/model_quantized.onnx', tokenizerFile: 'tokenizer.json' },
      { kind: 'maven', artifact: 'dev.example:fake-model:1.0', onnxEntry: 'model.onnx', tokenizerEntry: 'tokenizer.json' },
    ],
    licence: 'MIT',
    sizeMb: 0,
  };
}
