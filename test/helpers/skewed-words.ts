/**
 * Made-up words (three syllables and a suffix) drawn by a skewed law, as a lexical index meets them: a
 * few words in most texts, most words in few. `word()` draws one with `next`.
 */
const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'te', 'sa', 'no', 'vi', 'de', 'po'];

export function skewedWords(count: number, suffix: string, next: () => number): { vocabulary: readonly string[]; word: () => string } {
  const vocabulary = Array.from(
    { length: count },
    (_, i) => `${SYLLABLES[i % 10]}${SYLLABLES[Math.floor(i / 10) % 10]}${SYLLABLES[Math.floor(i / 100)]}${suffix}`,
  );
  return { vocabulary, word: () => vocabulary[Math.floor(vocabulary.length * next() ** 3)] as string };
}
