/**
 * A hit's relevance a person can read: a number in [0, 1] that says how strongly the hit's own
 * evidence matches the query, unlike `score`, which ranks (it mixes recency and importance and can be
 * negative). A fixed function of the hit's channel evidence only, never normalised to the top hit, so
 * it does not change when other hits come or go and means the same on every store:
 *
 *   semantic = S((cosine − SEMANTIC_MIDPOINT) / SEMANTIC_WIDTH)   (0 below cosine 0 or without one)
 *   lexical  = S((coverage − LEXICAL_MIDPOINT) / LEXICAL_WIDTH)   (coverage: the idf-weighted share
 *                                                                  of the query's words it contains)
 *   entity   = ENTITY_WEIGHT × share of the query's entities it names
 *   time     = TIME_WEIGHT × how far the hit lies in the query's date window (1 inside it by its own
 *              time; by the times its text names, their share inside), TIME_ONLY_WEIGHT for a query
 *              that asks for nothing but a time ("what did I do yesterday?")
 *   relevance = 1 − (1 − semantic)(1 − lexical)(1 − entity)(1 − time)
 *
 * Two readings of the query's shape temper the rest: a query of one or two content words matches many
 * texts in full (coverage 1 from one stemmed word: "on call" against "called"), so its lexical evidence
 * counts `LEXICAL_TERM_CONFIDENCE` of itself; and a time-only query's words and meaning are the date's
 * ("What did you do yesterday? asked my manager" reads like "what did I do yesterday?"), so there only
 * the time term counts.
 *
 * where S is the logistic function rescaled so that no evidence gives 0 and full evidence 1. Each
 * term rises with its evidence and the noisy-OR never falls when one rises: more evidence, never a
 * lower relevance. Constants were set on the relevance corpus with USE-lite and the hash embedder;
 * another model's cosine is first moved onto USE-lite's scale by the model's own `cosineScale`
 * (see docs/relevance.md).
 */
import type { CosineScale } from '../ports/embedder.js';
import type { ChannelExplanation } from './fusion.js';

/** Cosine at which semantic evidence alone reads as 0.5. */
export const SEMANTIC_MIDPOINT = 0.48;
/** How sharply semantic evidence rises around its midpoint (cosine units). */
export const SEMANTIC_WIDTH = 0.06;
/** Query coverage at which lexical evidence alone reads as 0.5. */
export const LEXICAL_MIDPOINT = 0.6;
/** How sharply lexical evidence rises around its midpoint (coverage units). */
export const LEXICAL_WIDTH = 0.12;
/** What naming every entity of the query is worth on its own. */
export const ENTITY_WEIGHT = 0.5;
/** What lying in the query's date window is worth on its own, beside a topic the query names… */
export const TIME_WEIGHT = 0.15;
/** …and when the window is all the query asks about. */
export const TIME_ONLY_WEIGHT = 0.8;
/** The share of its lexical evidence a query of 1, 2 (then 3 or more) content terms keeps. */
export const LEXICAL_TERM_CONFIDENCE: readonly number[] = Object.freeze([0, 0.55, 0.8]);

/** What relevance reads of the query besides a hit's channels: its content terms and whether it asks only for a time. */
export interface QueryShape {
  terms: number;
  windowOnly: boolean;
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** `logistic((x − midpoint) / width)` over [0, 1], rescaled to 0 at x = 0 and 1 at x = 1. */
function saturating(x: number, midpoint: number, width: number): number {
  if (!(x > 0)) return 0;
  const clamped = Math.min(1, x);
  const low = logistic(-midpoint / width);
  const high = logistic((1 - midpoint) / width);
  return (logistic((clamped - midpoint) / width) - low) / (high - low);
}

/** The scale the semantic constants were set on: USE-lite's cosines on the relevance corpus. */
export const REFERENCE_COSINE_SCALE: CosineScale = Object.freeze({ unrelated: 0.099, related: 0.45 });

/**
 * A model's cosine moved onto the reference scale: linear, so that the model's unrelated and related
 * medians land on the reference's. The same cosine means as much evidence whatever the model.
 */
export function onReferenceScale(cosine: number, scale: CosineScale | undefined): number {
  if (scale === undefined || !(scale.related > scale.unrelated)) return cosine;
  const ref = REFERENCE_COSINE_SCALE;
  return ref.unrelated + ((cosine - scale.unrelated) / (scale.related - scale.unrelated)) * (ref.related - ref.unrelated);
}

/**
 * The relevance in [0, 1] of a hit with these channel explanations (3 decimals); `scale` is the
 * embedder's {@link CosineScale} (absent: the reference model's); `query` the query's shape (absent: a
 * query of three or more terms that names a topic).
 */
export function hitRelevance(channels: Readonly<Record<string, ChannelExplanation>>, scale?: CosineScale, query?: QueryShape): number {
  // a time-only query's words and meaning are the date's: only lying in the window answers it
  const topical = query?.windowOnly !== true;
  const cosine = topical ? (channels.semantic?.score ?? 0) : 0;
  const semantic = cosine > 0 ? saturating(onReferenceScale(cosine, scale), SEMANTIC_MIDPOINT, SEMANTIC_WIDTH) : 0;
  // a store that reports no coverage: its lexical hit reads as half evidence
  const lexicalChannel = channels.lexical;
  const confidence = query === undefined ? 1 : topical ? (LEXICAL_TERM_CONFIDENCE[query.terms] ?? 1) : 0;
  const lexical =
    lexicalChannel === undefined
      ? 0
      : confidence * (lexicalChannel.coverage === undefined ? 0.5 : saturating(lexicalChannel.coverage, LEXICAL_MIDPOINT, LEXICAL_WIDTH));
  const entity = ENTITY_WEIGHT * Math.min(1, Math.max(0, channels.entity?.score ?? 0));
  // inside the window by its own time, or by the share of the times its text names that lie in it
  const inWindow = Math.max(channels.temporal !== undefined ? 1 : 0, Math.min(1, Math.max(0, channels.mention?.score ?? 0)));
  const time = (query?.windowOnly === true ? TIME_ONLY_WEIGHT : TIME_WEIGHT) * inWindow;
  const relevance = 1 - (1 - semantic) * (1 - lexical) * (1 - entity) * (1 - time);
  return Math.round(Math.min(1, Math.max(0, relevance)) * 1000) / 1000;
}
