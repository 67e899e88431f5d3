/** Names kept for one release after a rename; each says what replaces it. */
import { Engram } from './engram.js';

/**
 * The engine as it was exported before consolidation and serving became their own parts: the same
 * class as {@link Engram}, so `new EngramCore({ store, embedder })` keeps working.
 *
 * @deprecated Use {@link Engram}: `Engram.create({ store, embedder, llm })` or `Engram.open({ path })`. Removed in the next release.
 */
export const EngramCore = Engram;
/** @deprecated Use {@link Engram}. Removed in the next release. */
export type EngramCore = Engram;
