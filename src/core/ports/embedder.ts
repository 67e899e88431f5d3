/**
 * Turns text into vectors. Implementations: the default local model (USE-lite), a static token table
 * distilled from it, a remote OpenAI-compatible endpoint, and a deterministic hash embedder for tests.
 */
export interface Embedder {
  /**
   * Stable identity recorded in the database, e.g. `use-lite:512`. Two embedders with the same name
   * must produce compatible vectors; a database refuses to open with an embedder of another name.
   */
  readonly name: string;
  /** Vector length; every vector returned has exactly this many components. */
  readonly dimension: number;
  /**
   * Embeds texts in order: `result[i]` is the unit-length (L2-normalised) vector of `texts[i]`.
   * Empty input gives empty output. Throws `EngramError('EMBEDDING_FAILED')` on failure.
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Releases workers or handles. Idempotent. */
  close?(): Promise<void>;
}
