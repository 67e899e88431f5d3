/** The default local embedding model, USE-lite (512-d), with an optional worker-thread pool. */
export { UseEmbedder } from './use-embedder.js';
export type { UseEmbedderOptions } from './use-embedder.js';
export { USE_DEFAULT_MAX_CHARS, USE_DIMENSION, prepareUseText } from './use-model.js';
