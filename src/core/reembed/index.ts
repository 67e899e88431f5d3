/** Moving a store to another embedding model in place (`reembed`). */
export {
  runReembed,
  REEMBED_LOCK,
  type ReembedCoreReport,
  type ReembedDeps,
  type ReembedProgress,
  type ReembedRunOptions,
} from './run-reembed.js';
export { reembedText } from './reembed-text.js';
export { DEFAULT_REEMBED_BATCH, reembedOptionsSchema } from './schemas.js';
