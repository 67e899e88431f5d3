/** Randomness for ids (claim and lease owners) and sampling, injected so core draws none of its own. */
export interface RandomSource {
  /** A number in [0, 1), uniformly distributed. */
  next(): number;
}
