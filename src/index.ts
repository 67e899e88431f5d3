/**
 * The public API of `engram`. Any export added here becomes public API.
 */
export {
  Engram,
  createEmbedder,
  type EmbedderChoice,
  type EngramOptions,
  type OpenOptions,
  type ReembedOptions,
  type ReembedReport,
  type ReembedProgress,
} from './engram.js';
export type { RememberBatchesOptions, ScopedReadOptions, ScopedWriteOptions } from './core/engine.js';
export { EngramCore } from './deprecated.js';
export { EngramError, isEngramError, type EngramErrorCode } from './core/errors.js';
export type {
  Edge,
  Emotion,
  EpisodeCycle,
  Layer,
  MemoryRecord,
  MemoryStatus,
  Provenance,
  ProvenanceKind,
  SourceRef,
  MemoryData,
  RecordDataBase,
  EpisodeData,
  ClaimData,
  FactData,
  ConceptData,
  KindedRecord,
  RecordKind,
  EpisodeRecord,
  FactRecord,
  ConceptRecord,
  RuleRecord,
  StatisticRecord,
} from './core/memory.js';
export { LAYERS, STATUSES } from './core/memory.js';
export type { MemoryView, EdgeView } from './core/memory-view.js';
export type { RecallHit, RecallResult, HitExplanation } from './core/recall/recall.js';
export { DEFAULT_RECALL_CONFIG, type RecallConfig } from './core/recall/recall-config.js';
export type { RememberResult } from './core/write/remember.js';
export type { RememberInput, RecallOptions, UpdateInput } from './core/schemas.js';
export { rememberInputSchema, recallOptionsSchema, updateInputSchema } from './core/schemas.js';
export type { Store, StoreTransaction, StoreReader, StoreCapabilities } from './core/ports/store.js';
export type { VectorStaging, EmbeddingIdentity, StagingCandidate, StagingPage, JobLockHolder } from './core/ports/vector-staging.js';
export type { Embedder } from './core/ports/embedder.js';
export type { Llm, LlmMessage } from './core/ports/llm.js';
export { ManualClock, type Clock } from './core/ports/clock.js';
export { ManualScheduler, type Scheduler } from './core/ports/scheduler.js';
// Persona (seed 004) and profile schema (seed 003).
export type { Persona, DispositionFavours } from './core/persona/persona.js';
export type { PersonaVersion, SetPersonaInput, RevertPersonaInput } from './core/persona/persona-api.js';
export type { ProfileField } from './core/profile/profile-schema.js';
export type { ProfileSchemaView, SetProfileSchemaInput } from './core/profile/profile-schema-api.js';
export type { ProfileFieldsPart, KnownProfileField } from './core/profile/profile-fields.js';
export type { PersonaExplanation } from './core/recall/scoring.js';
export type { IdleReflectionEvent } from './consolidation/idle-reflection.js';
export { systemClock } from './system-ports.js';
export { assertScope, assertReadScopes, type Scope } from './core/scope.js';
// Context builder and pattern completion.
export { contextInputSchema, predictInputSchema, DEFAULT_CONTEXT_BUDGET_MS, DEFAULT_CONTEXT_MAX_TOKENS } from './serving/index.js';
export type {
  ContextInput,
  PredictInput,
  PredictResult,
  Prediction,
  StructuredContext,
  ContextLevel,
  ContextPart,
  ContextPartName,
  RuleEntry,
  ProfileEntry,
  KnowledgeEntry,
  ConceptEntry,
  EpisodeEntry,
  ChainEntry,
} from './serving/index.js';
// The optional LLM: the port's helper, and the OpenAI-compatible provider (plain fetch, no SDK).
export type { LlmAssist, LlmUses, LlmStats, Insight, ReflectInput, ExtractedFact, SupersessionJudgement } from './core/llm/llm-assist.js';
export type { LlmCompleteOptions } from './core/ports/llm.js';
export { consoleLogger, noopLogger, type Logger } from './core/ports/logger.js';
export { OpenAiCompatibleLlm, type OpenAiCompatibleLlmConfig } from './llm/index.js';
export type { LlmEndpointOptions } from './engram.js';
// Layers, relations, activation, background jobs and Markdown.
export { BUILT_IN_RELATIONS, normalizeRelationName, type RelationType } from './core/relations.js';
export { statisticalMetricSchema, verbalForm, type StatisticalMetric } from './core/layers/statistical.js';
export { normalizeTokens } from './core/text/index.js';
export type { RelateInput, RelateResult, RegisterRelationInput, RecordEdge } from './core/graph/relations-api.js';
export type { ActivateOptions, ActivationView, ActivatedView } from './core/graph/activate.js';
export type { ActivationStep } from './core/graph/activation.js';
export type { DrainOptions, DrainReport } from './core/concepts/index.js';
export type { MarkdownFiles, MarkdownImportReport } from './core/markdown/index.js';
export type { DumpImportCounts, DumpImportKind, DumpImportReport, ImportDumpOptions } from './core/dump/index.js';
export type { JobBacklog, JobCounts, ConceptRef, StateEntry } from './core/ports/store.js';
// Browse and purge.
export type { ListInput, ScopesInput, PurgeInput } from './core/browse/schemas.js';
export type { ListResult } from './core/browse/list.js';
export type { PurgeReport } from './core/purge/purge.js';
export type { ExpireInput, ExpireReport } from './core/purge/expire.js';
export type { SurfaceInput, SurfaceHit, SurfaceWhy } from './core/surface/surface.js';
export type { DecayInput } from './consolidation/schemas.js';
export type { DecayReport } from './consolidation/decay-run.js';
export type { ChainMember, ChainRole } from './core/chains/chain.js';
export {
  createRedactor,
  Redactor,
  type RedactedText,
  type RedactionOptions,
  type RedactionPattern,
  type RedactInput,
  type RedactReport,
} from './core/redact/index.js';
export type { BrowseSort, ScopeSummary } from './core/ports/store.js';
