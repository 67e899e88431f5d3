/**
 * Recall weights and limits in one object with documented defaults (DESIGN §4).
 * Tuned on development data only; every field can be overridden per engine.
 */
export interface RecallConfig {
  /** Default number of hits. */
  k: number;
  /** How many candidates each channel contributes before fusion (≥ k). */
  candidates: number;
  /** Weight of the lexical (BM25) channel in rank fusion. */
  lexicalWeight: number;
  /** Weight of the semantic (vector) channel in rank fusion. */
  semanticWeight: number;
  /** Reciprocal-rank-fusion constant. */
  rrfK: number;
}

/** Defaults: BM25 slightly ahead of the weak offline dense model (measured on LoCoMo dev conversations). */
export const DEFAULT_RECALL_CONFIG: RecallConfig = Object.freeze({
  k: 10,
  candidates: 50,
  lexicalWeight: 1,
  semanticWeight: 1,
  rrfK: 60,
});
