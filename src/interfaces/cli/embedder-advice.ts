/**
 * One line for the `npm start` banner and `engram stats`: which embedder the store uses and, when it
 * is not the default model, how to move to it.
 */
import { homedir } from 'node:os';
import { DEFAULT_ONNX_MODEL } from '../../embeddings/onnx/onnx-model-catalogue.js';
import { hasModelFiles } from '../../embeddings/onnx/models/installed-models.js';
import { resolveModelCacheDir } from '../../embeddings/onnx/models/model-cache-dir.js';

/**
 * The embedder's name with advice for a store on a weaker local model: pull the default model, or
 * re-embed the store once it is installed. Stores on the default, a chosen ONNX model, the hash
 * embedder (tests) or a remote endpoint get no advice.
 *
 * @example
 * ```ts
 * embedderLine('use-lite-…'); // 'use-lite-… (blend-e5-minilm recalls better: engram models pull, then engram reembed --embedder blend-e5-minilm)'
 * ```
 */
export function embedderLine(name: string, cacheDir?: string): string {
  const weaker = name.startsWith('use-lite') || name.startsWith('static-');
  if (!weaker) return name;
  const installed = hasModelFiles(cacheDir ?? resolveModelCacheDir(process.env, homedir()), DEFAULT_ONNX_MODEL);
  const reembed = `engram reembed --embedder ${DEFAULT_ONNX_MODEL}`;
  return installed
    ? `${name} (${DEFAULT_ONNX_MODEL} is installed and recalls better: ${reembed})`
    : `${name} (${DEFAULT_ONNX_MODEL} recalls better: engram models pull, then ${reembed})`;
}
