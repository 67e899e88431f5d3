/** The sleep cycle: consolidation phases, promotion sources and their statistics. */
export { runConsolidation, lastConsolidationReport, type ConsolidateInput } from './cycle.js';
export {
  PHASES,
  DEFAULT_CONSOLIDATION,
  resolveConsolidationConfig,
  type PhaseName,
  type ConsolidationConfig,
  type ConsolidationOverrides,
} from './config.js';
export type { ConsolidationReport, PhaseReport, ConsolidationTrigger } from './report.js';
export type { ConsolidationDeps, ConsolidationHooks, LeaseHeartbeat } from './phase-context.js';
export {
  rewardLearningSource,
  statisticalPatternSource,
  rewardLearningCandidates,
  trendCandidates,
  correlationCandidates,
  type PromotionSource,
  type PromotionCandidate,
} from './promotion-sources.js';
export { generateEpisodeStream, type SyntheticStream, type PlantedTruths } from './synthetic-stream.js';
export { phaseLockSource, phaseLockCandidates, DEFAULT_PHASE_LOCK, type PhaseLock, type PhaseLockConfig } from './phase-lock-source.js';
export { generateDreamStream, generatePhaseLockedStream, type DreamStream, type DreamTruths } from './dream-stream.js';
export { Consolidation, type ConsolidationParts } from './consolidation.js';
export { BackgroundWorker } from './background-worker.js';
