/**
 * The Porter stemmer (M.F. Porter, "An algorithm for suffix stripping", 1980), in the variant of
 * Porter's own reference implementation that SQLite FTS5's `porter` tokenizer follows: step 2 maps
 * `-bli` to `-ble` and `-logi` to `-log`, and in each step the first listed suffix that the word ends
 * with decides, whether or not its measure condition then holds. Words shorter than three or longer than
 * 64 characters are returned unchanged, as FTS5 does.
 */

type SuffixRule = readonly [suffix: string, replacement: string];

const STEP2_RULES: readonly SuffixRule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3_RULES: readonly SuffixRule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4_SUFFIXES: readonly string[] = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

const MIN_STEMMED_LENGTH = 3;
const MAX_STEMMED_LENGTH = 64;

function isConsonant(word: string, index: number): boolean {
  const char = word[index];
  if (char === 'a' || char === 'e' || char === 'i' || char === 'o' || char === 'u') return false;
  if (char === 'y') return index === 0 || !isConsonant(word, index - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in `word[0, length)`. */
function measure(word: string, length: number): number {
  let count = 0;
  let index = 0;
  while (index < length && isConsonant(word, index)) index++;
  while (index < length) {
    while (index < length && !isConsonant(word, index)) index++;
    if (index >= length) break;
    count++;
    while (index < length && isConsonant(word, index)) index++;
  }
  return count;
}

function hasVowel(word: string, length: number): boolean {
  for (let index = 0; index < length; index++) if (!isConsonant(word, index)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string, length: number): boolean {
  return length >= 2 && word[length - 1] === word[length - 2] && isConsonant(word, length - 1);
}

/** Porter's *o: the stem ends consonant-vowel-consonant and the last consonant is not w, x or y. */
function endsCvc(word: string, length: number): boolean {
  if (length < 3) return false;
  const last = word[length - 1];
  if (last === 'w' || last === 'x' || last === 'y') return false;
  return isConsonant(word, length - 1) && !isConsonant(word, length - 2) && isConsonant(word, length - 3);
}

function step1a(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ies')) return word.slice(0, -2);
  if (word.endsWith('ss')) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith('eed')) return measure(word, word.length - 3) > 0 ? word.slice(0, -1) : word;
  let stemmed: string;
  if (word.endsWith('ed') && hasVowel(word, word.length - 2)) stemmed = word.slice(0, -2);
  else if (word.endsWith('ing') && hasVowel(word, word.length - 3)) stemmed = word.slice(0, -3);
  else return word;
  if (stemmed.endsWith('at') || stemmed.endsWith('bl') || stemmed.endsWith('iz')) return `${stemmed}e`;
  if (endsWithDoubleConsonant(stemmed, stemmed.length)) {
    const last = stemmed[stemmed.length - 1];
    return last === 'l' || last === 's' || last === 'z' ? stemmed : stemmed.slice(0, -1);
  }
  if (measure(stemmed, stemmed.length) === 1 && endsCvc(stemmed, stemmed.length)) return `${stemmed}e`;
  return stemmed;
}

function step1c(word: string): string {
  return word.endsWith('y') && hasVowel(word, word.length - 1) ? `${word.slice(0, -1)}i` : word;
}

function applyRules(word: string, rules: readonly SuffixRule[]): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stemLength = word.length - suffix.length;
    return measure(word, stemLength) > 0 ? word.slice(0, stemLength) + replacement : word;
  }
  return word;
}

function step4(word: string): string {
  for (const suffix of STEP4_SUFFIXES) {
    if (!word.endsWith(suffix)) continue;
    const stemLength = word.length - suffix.length;
    if (suffix === 'ion') {
      const before = word[stemLength - 1];
      if (before !== 's' && before !== 't') continue;
    }
    return measure(word, stemLength) > 1 ? word.slice(0, stemLength) : word;
  }
  return word;
}

function step5(word: string): string {
  let result = word;
  if (result.endsWith('e')) {
    const stemLength = result.length - 1;
    const m = measure(result, stemLength);
    if (m > 1 || (m === 1 && !endsCvc(result, stemLength))) result = result.slice(0, stemLength);
  }
  if (result.endsWith('ll') && measure(result, result.length) > 1) result = result.slice(0, -1);
  return result;
}

/**
 * Porter-stems one word (lowercased first), agreeing with SQLite FTS5's `porter` tokenizer.
 * @example stem('generalization') // 'gener'
 * @example stem('running') // 'run'
 */
export function stem(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const lower = word.toLowerCase();
  const stemmed =
    lower.length < MIN_STEMMED_LENGTH || lower.length > MAX_STEMMED_LENGTH
      ? lower
      : step5(step4(applyRules(applyRules(step1c(step1b(step1a(lower))), STEP2_RULES), STEP3_RULES)));
  // a vocabulary is mostly the same few thousand words: remembered, each is stemmed once
  if (stems.size >= STEM_MEMO_LIMIT) stems.clear();
  stems.set(word, stemmed);
  return stemmed;
}

const STEM_MEMO_LIMIT = 50_000;
const stems = new Map<string, string>();
