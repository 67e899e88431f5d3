/** The deterministic hash embedder: offline, no model, for tests and tiny installs. */
export { HashEmbedder } from './hash-embedder.js';
export type { HashEmbedderOptions } from './hash-embedder.js';
