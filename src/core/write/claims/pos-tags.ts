/**
 * Part-of-speech tags from compromise, one call per phrase. Tagging dominates extraction time, and the
 * same clause is asked about several times, so results are memoised (a bounded map: pure, deterministic).
 */
import type nlpType from 'compromise';
import { lazyRequire } from '../../text/lazy-require.js';

/** compromise loads on the first tagged phrase (~1.7 s), not when the engine is imported. */
const nlp = lazyRequire<typeof nlpType>('compromise');

/** One word with its compromise tags and, for inflected words, its root ("works" → "work"). */
export interface TaggedTerm {
  text: string;
  tags: ReadonlySet<string>;
  root: string;
}

interface TermJson {
  text: string;
  tags: string[];
  root?: string;
}

const MEMO_LIMIT = 8192;
const memo = new Map<string, readonly TaggedTerm[]>();

/** The words of a phrase with their tags. */
export function termsOf(phrase: string): readonly TaggedTerm[] {
  const cached = memo.get(phrase);
  if (cached) {
    // least recently used first out: a hit moves to the back
    memo.delete(phrase);
    memo.set(phrase, cached);
    return cached;
  }
  const doc = nlp()(phrase);
  doc.compute('root');
  const sentences = doc.json() as Array<{ terms: TermJson[] }>;
  const terms = sentences.flatMap((s) =>
    s.terms.map((t) => ({ text: t.text, tags: new Set(t.tags), root: (t.root ?? t.text).toLowerCase() })),
  );
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(phrase, terms);
  return terms;
}

/** Does compromise tag any word of the phrase with `tag` ("Person", "Verb", …)? */
export function hasTag(phrase: string, tag: string): boolean {
  return termsOf(phrase).some((t) => t.tags.has(tag));
}

/** Index of the first verb that is not an auxiliary or copula, from `from` on; -1 if none. */
export function mainVerbIndex(terms: readonly TaggedTerm[], from = 1): number {
  for (let i = from; i < terms.length; i += 1) {
    const tags = terms[i]?.tags;
    if (tags?.has('Verb') && !tags.has('Auxiliary') && !tags.has('Copula') && !tags.has('Modal')) return i;
  }
  return -1;
}

/** Index of the first verb of any kind (auxiliaries and copulas included), from `from` on; -1 if none. */
export function firstVerbIndex(terms: readonly TaggedTerm[], from = 1): number {
  for (let i = from; i < terms.length; i += 1) if (terms[i]?.tags.has('Verb')) return i;
  return -1;
}
