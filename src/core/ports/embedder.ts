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
   * `options.purpose` says whether the texts are search queries or stored passages (default), for
   * models that embed the two differently (e5's `query:` prefix); other embedders ignore it.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Releases workers or handles. Idempotent. */
  close?(): Promise<void>;
}

/** What the texts of one {@link Embedder.embed} call are for. */
export interface EmbedOptions {
  /** `query` for a recall's query text, `passage` (the default) for everything that is stored. */
  readonly purpose?: 'query' | 'passage';
}
