/** Sentence-transformers models in ONNX form (bge-small, MiniLM, e5) and blends of them, run locally, fetched once into a cache. */
export { OnnxEmbedder } from './onnx-embedder.js';
export type { OnnxEmbedderOptions } from './onnx-embedder.js';
export { BlendEmbedder } from './blend-embedder.js';
export type { BlendEmbedderOptions } from './blend-embedder.js';
export {
  BGE_QUERY_INSTRUCTION,
  DEFAULT_ONNX_MODEL,
  ONNX_BLENDS,
  ONNX_MODELS,
  blendEmbedderName,
  findOnnxBlend,
  findOnnxModel,
  modelsNeededBy,
  onnxEmbedderName,
} from './onnx-model-catalogue.js';
export type { OnnxBlendMember, OnnxBlendSpec, OnnxModelSource, OnnxModelSpec, OnnxPooling } from './onnx-model-catalogue.js';
export { modelDirectory, resolveModelCacheDir } from './models/model-cache-dir.js';
export type { ModelCacheEnv } from './models/model-cache-dir.js';
export { checkModelFiles, hasModelFiles, listInstalledModels, sha256File, verifyModelFiles } from './models/installed-models.js';
export type { ModelFilesCheck } from './models/installed-models.js';
export type { InstalledModel, ModelManifest } from './models/installed-models.js';
export { describeSource, pullOnnxModel } from './models/model-pull.js';
export type { PullOnnxModelOptions, PullOnnxModelResult } from './models/model-pull.js';
