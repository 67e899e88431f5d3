/**
 * The subset of the untyped `stopword` package that core/text uses: its English list.
 */
declare module 'stopword' {
  /** English stop words, lowercase. */
  export const eng: readonly string[];
}
