/** What an agent reads each turn: the context builder and pattern completion. */
export { buildContext, ContextCache, RULES_FRESH_MS, type ContextDeps } from './build-context.js';
export { predictOutcomes, predictFromConcepts, episodeConfidence, COMPRESSED_EPISODE_CONFIDENCE } from './predict.js';
export { renderMarkdown, approximateTokens } from './render.js';
export { Deadline, type Stopwatch } from './deadline.js';
export { Serving } from './serving.js';
export {
  contextInputSchema,
  predictInputSchema,
  perceptSchema,
  formingEpisodeSchema,
  DEFAULT_CONTEXT_BUDGET_MS,
  DEFAULT_CONTEXT_MAX_TOKENS,
  type ContextInput,
  type PredictInput,
} from './schemas.js';
export * from './types.js';
