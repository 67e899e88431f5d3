/**
 * Moving a store's vectors to another embedding model in place (`engram reembed`): the new
 * vectors are staged beside the current ones, which keep serving recall, and replace them in one
 * atomic switch once every record of every scope has one.
 */
import type { Layer } from '../memory.js';

/** An embedding model as a store records it: its name (`onnx:bge-small-en-v1.5:384:6c9c6101`) and vector length. */
export interface EmbeddingIdentity {
  readonly name: string;
  readonly dimension: number;
}

/** A record to embed with the target model: what its embedding text is made of. */
export interface StagingCandidate {
  readonly id: string;
  readonly layer: Layer;
  readonly content: string;
  /** The record's data document; `{}` when the stored one does not decode. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** One page of records still without a staged vector. */
export interface StagingPage {
  readonly records: StagingCandidate[];
  /** Pass to `stageVectors`: a record whose vector was written after this read is not staged from it. */
  readonly mark: string;
  /** Where the next page starts (opaque); pages are in store order, so new records come last. */
  readonly cursor: string;
}

/** A held job lease. */
export interface JobLockHolder {
  readonly name: string;
  readonly owner: string;
  /** Wall-clock epoch ms. */
  readonly expiresAt: number;
}

/**
 * The staging area of one store. Every record of every scope and status counts: staging is a
 * maintenance job of the whole store, not a read, so it names no scopes. Run it under the `reembed`
 * job lock; the methods do not take it themselves.
 */
export interface VectorStaging {
  /** The model vectors are being staged for, or null (recorded in the store's meta, so every process sees it). */
  staged(): Promise<EmbeddingIdentity | null>;
  /**
   * Records `target` as the staging model. Idempotent for the same target: its staged vectors are kept
   * (`kept` counts them). Staging for another model is dropped first and returned as `discarded`.
   */
  beginStaging(target: EmbeddingIdentity): Promise<{ kept: number; discarded: EmbeddingIdentity | null }>;
  /** Up to `limit` records without a current staged vector, after `cursor` (from the start when null), in store order. */
  unstagedRecords(query: { cursor: string | null; limit: number }): Promise<StagingPage>;
  /**
   * Stores staged vectors (each of the staging dimension, else `EMBEDDING_DIMENSION_MISMATCH`). A record
   * gone, or whose vector was rewritten after `mark`, is skipped: it shows up as unstaged again.
   * Rewriting a record's vector (`updateEmbedding`) drops its staged one for the same reason.
   * Returns how many were stored.
   */
  stageVectors(vectors: readonly { id: string; embedding: Float32Array }[], mark: string): Promise<number>;
  /** Records in the store (every scope and status) and how many of them have a staged vector. */
  stagingProgress(): Promise<{ records: number; staged: number }>;
  /**
   * The switch, in one write transaction (no other writer interleaves): records still unstaged are
   * embedded through `complete` (texts in, vectors out, in order), then the store's vectors are
   * replaced by the staged ones, `target` becomes the recorded model and the staging is dropped. Any
   * failure rolls everything back. `CONFLICT` when the staging is not for `target`. Afterwards this
   * store object (and every other one opened before) answers `LOCKED` on vector reads and writes until reopened.
   */
  switchToStaged(
    target: EmbeddingIdentity,
    complete: (records: readonly StagingCandidate[]) => Promise<Float32Array[]>,
  ): Promise<{ records: number; chunks: number; completed: number }>;
  /** Drops staged vectors and the staging marker; returns whether there was any. */
  discardStaging(): Promise<boolean>;
  /** Builds the approximate vector index of every scope large enough for one now; resolves with those scopes. */
  rebuildVectorIndex(): Promise<string[]>;
  /** Job leases still running (not expired by the wall clock) whose name starts with `prefix`. */
  liveJobLocks(prefix: string): Promise<JobLockHolder[]>;
  /** Takes lease `name` from `fromOwner` (a holder known to be dead) for `toOwner`; false when someone else holds it now. */
  takeOverJobLock(name: string, fromOwner: string, toOwner: string, ttlMs: number): Promise<boolean>;
}
