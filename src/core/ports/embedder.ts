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
  /**
   * Where this model's cosines lie, so a hit's `relevance` reads the same whatever the model: models
   * differ widely (an unrelated pair is ~0.1 for USE-lite, ~0.4 for bge-small, ~0.7 for e5-small).
   * Absent: USE-lite's scale.
   */
  readonly cosineScale?: CosineScale;
  /** Loads the model (and any workers) now rather than on the first call. Safe to call more than once. */
  warmUp?(): Promise<void>;
  /** Releases workers or handles. Idempotent. */
  close?(): Promise<void>;
}

/** What the texts of one {@link Embedder.embed} call are for. */
export interface EmbedOptions {
  /** `query` for a recall's query text, `passage` (the default) for everything that is stored. */
  readonly purpose?: 'query' | 'passage';
}

/**
 * Two reference cosines of a model, measured on the relevance corpus (a query against a stored text
 * that answers it, and against an unrelated one): their medians.
 */
export interface CosineScale {
  /** Median cosine of a query and an unrelated stored text. */
  readonly unrelated: number;
  /** Median cosine of a query and the stored text that answers it. */
  readonly related: number;
}
