/**
 * Text helpers for claim extraction and comparison: tokens, light lemmas, determiners, numbers.
 * Pure and deterministic; no dictionaries beyond the small lists below.
 */
import { CJK_STOP_WORDS, hasCjk, segmentCjk } from '../../text/cjk.js';
import { dictionary } from '../../text/dictionary.js';
import { dropFormatCharacters } from '../../text/format-characters.js';

/** Leading words that carry no identity: "the billing service" ≈ "billing service". */
const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'our',
  'my',
  'your',
  'their',
  'his',
  'her',
  'its',
  'some',
  'any',
  'each',
  'every',
  'current',
  'currently',
]);

/** Prepositions and conjunctions: ignored both when comparing phrases and when comparing values. */
const LINKING_WORDS = ['of', 'for', 'to', 'in', 'on', 'at', 'by', 'with', 'from', 'and', 'or', 'as'];

/** Function words ignored when comparing phrases (kept short on purpose: content words decide). */
const STOP_WORDS = new Set([
  ...DETERMINERS,
  ...LINKING_WORDS,
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'has',
  'have',
  'had',
  'do',
  'does',
  'did',
  'will',
  'would',
  'shall',
  'should',
  'can',
  'could',
  'it',
  'they',
  'them',
  'we',
  'us',
  'he',
  'she',
  'him',
  'i',
  'me',
  'you',
  'there',
  'here',
  'per',
  'than',
  'then',
  'so',
  'very',
  'really',
  'just',
  'also',
  'too',
  'well',
  'now',
  'still',
  'again',
  'about',
  'into',
  'over',
  'up',
]);

/** Words whose plural/singular forms are irregular or must not be stripped. */
const LEMMA_EXCEPTIONS: Readonly<Record<string, string>> = dictionary({
  people: 'person',
  children: 'child',
  kids: 'kid',
  men: 'man',
  women: 'woman',
  teeth: 'tooth',
  feet: 'foot',
  mice: 'mouse',
  data: 'data',
  headquarters: 'headquarters',
  series: 'series',
  news: 'news',
  analytics: 'analytics',
  ops: 'ops',
  devops: 'devops',
  ones: 'ones',
  sales: 'sales',
  status: 'status',
  alias: 'alias',
  bus: 'bus',
  gas: 'gas',
  has: 'has',
  is: 'is',
  was: 'was',
  does: 'does',
  yes: 'yes',
  this: 'this',
  its: 'its',
  us: 'us',
  always: 'always',
  whereabouts: 'whereabouts',
  premises: 'premises',
  process: 'process',
  access: 'access',
  address: 'address',
});

/**
 * Words of when, not of what: "bun last week" and "two designers last week" share no dimension, and
 * "the Monday standup" is no kin of "the gym on Monday".
 */
export const TIME_WORDS = new Set([
  'today',
  'yesterday',
  'tomorrow',
  'tonight',
  'morning',
  'afternoon',
  'evening',
  'night',
  'weekend',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'hour',
  'hours',
  'minute',
  'minutes',
  'ago',
  'last',
  'next',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'march',
  'april',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
  'spring',
  'summer',
  'autumn',
  'fall',
  'winter',
  'quarter',
  'sprint',
]);

/** Generic head nouns that may be omitted without changing the referent ("billing" ≈ "billing service"). */
export const GENERIC_HEADS = new Set([
  'service',
  'team',
  'app',
  'application',
  'system',
  'project',
  'platform',
  'module',
  'component',
  'repo',
  'repository',
  'squad',
  'group',
  'department',
  'tool',
  'product',
  'codebase',
  'site',
  'website',
  'environment',
  'region',
  'city',
  'server',
  'cluster',
  'database',
  'db',
  'library',
  'framework',
  'package',
  'meeting',
  'session',
  'call',
  'event',
  'ceremony',
]);

/** Number words, so "two kids" and "2 kids" compare equal. */
const NUMBER_WORDS: Readonly<Record<string, string>> = dictionary({
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  hundred: '100',
  dozen: '12',
  single: '1',
  couple: '2',
});

/** A number, a number word, or a currency/unit-suffixed number ("$1,500", "80L", "3.5k"). */
export const NUMBER_PATTERN =
  '(?:[$£€]?\\d[\\d,]*(?:\\.\\d+)?[a-z%]{0,3}|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|a dozen|dozen|a hundred|hundred|a couple of|a single)';

/**
 * Letters and digits of every script, so "北京" and "上海", "Киев" and "Москва" are words a value can be
 * compared by (a Latin-only pattern read them as nothing, and two nothings as the same value); an emoji
 * is a word of its own.
 */
const TOKEN_RE =
  /[\p{L}\p{N}#@$£€][\p{L}\p{N}\p{M}#@$£€._:/+'-]*[\p{L}\p{N}\p{M}%]|[\p{L}\p{N}#$%]|\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/gu;

/** Chinese particles that never make a value: "上海了" is "上海". */
const CJK_PARTICLES = new Set(['的', '了', '吧', '呢', '啊', '呀', '吗', '么', '啦', '嘛']);
const CJK_CONTENT_STOP_WORDS = new Set([...CJK_STOP_WORDS, ...CJK_PARTICLES]);

/**
 * Unifies quotes and collapses whitespace; drops invisible format characters (zero-width space and
 * joiners, soft hyphen, word joiner, BOM), so "Neo\u200Bvim" is the word "Neovim" and restates it.
 */
export function normalizeSpacing(text: string): string {
  return dropFormatCharacters(text)
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Letters that carry no combining mark to strip: "ø" is "o" with a stroke, "ß" is "ss". */
const UNMARKED_LETTERS: Readonly<Record<string, string>> = dictionary({
  ø: 'o',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
});

/**
 * Folds accents for comparison only ("José" ≈ "Jose", "María" ≈ "Maria"): compatibility decomposition,
 * combining marks removed, and the few letters with no mark to remove spelled out. Stored text never
 * passes through it.
 */
export function foldDiacritics(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[øßæœłđðþı]/giu, (c) => {
      const lower = c.toLowerCase();
      const plain = UNMARKED_LETTERS[lower] ?? lower;
      return c === lower ? plain : plain.toUpperCase();
    });
}

/** Splits a phrase into lowercase tokens, keeping emails, URLs, versions and "eu-west-1" whole; accents folded. */
export function tokenize(text: string): string[] {
  const lowered = foldDiacritics(normalizeSpacing(text))
    .toLowerCase()
    .replace(/'s\b/g, '')
    .replace(/s'(?=\s|$)/g, 's');
  // a run of Han, kana or Hangul is cut into words as the lexical channel cuts it: 北京烤鸭 → 北京 | 烤鸭
  return (lowered.match(TOKEN_RE) ?? []).flatMap((t) => (hasCjk(t) ? segmentCjk(t) : [t.replace(/[.'-]+$/, '')]));
}

/** Light lemma of one token: plural nouns to singular; tokens with digits or symbols unchanged. */
export function lemma(token: string): string {
  const exception = LEMMA_EXCEPTIONS[token];
  if (exception !== undefined) return exception;
  if (/[^a-z]/.test(token) || token.length <= 3) return token;
  if (token.endsWith('ies') && token.length > 4) return `${token.slice(0, -3)}y`;
  if (/(ss|us|is|ous)$/.test(token)) return token;
  if (/(sses|xes|ches|shes|zes)$/.test(token)) return token.slice(0, -2);
  if (token.endsWith('s')) return token.slice(0, -1);
  return token;
}

/** Content tokens of a phrase: lemmatised, without function words, numbers normalised. */
export function contentTokens(text: string): string[] {
  return tokenize(text)
    .map((t) => NUMBER_WORDS[t] ?? t)
    .filter((t) => !STOP_WORDS.has(t) && !CJK_CONTENT_STOP_WORDS.has(t))
    .map(normalizeNumberToken)
    .map(lemma);
}

/** Value tokens: like `contentTokens`, but pronoun-like words stay ("IT team" is not "team"). */
export function valueContentTokens(text: string): string[] {
  return tokenize(text)
    .map((t) => NUMBER_WORDS[t] ?? t)
    .filter((t) => !DETERMINERS.has(t) && !VALUE_STOP_WORDS.has(t) && !CJK_PARTICLES.has(t))
    .map(normalizeNumberToken)
    .map(lemma);
}

const VALUE_STOP_WORDS = new Set([...LINKING_WORDS, 'per', 'than', 'ones', 'one']);

/** Token set used for lexical overlap: like `contentTokens`, but hyphenated words split and -ed/-ing stripped. */
export function lexicalTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of contentTokens(text.replace(/(?<=[a-z])-(?=[a-z])/gi, ' '))) out.add(stem(token));
  return out;
}

/** A crude suffix stripper for lexical overlap only ("limited" → "limit", "hosting" → "host"). */
export function stem(token: string): string {
  if (/[^a-z]/.test(token) || token.length <= 4) return token;
  for (const suffix of ['ing', 'ed', 'er', 'ly']) {
    if (token.endsWith(suffix) && token.length - suffix.length >= 3) return token.slice(0, -suffix.length);
  }
  return token;
}

/** "$1,500" → "1500", "80L" stays "80l"; anything else unchanged. */
export function normalizeNumberToken(token: string): string {
  const m = /^[$£€]?(\d[\d,]*(?:\.\d+)?)([a-z%]{0,3})$/.exec(token);
  if (!m) return token;
  return `${(m[1] ?? '').replace(/,/g, '')}${m[2] ?? ''}`;
}

/** The numbers a phrase mentions (digits or number words), normalised. */
export function numbersIn(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const word = NUMBER_WORDS[token];
    if (word !== undefined) out.push(word);
    else if (/^[$£€]?\d/.test(token)) out.push(normalizeNumberToken(token).replace(/[a-z%]+$/, ''));
  }
  return out;
}

/** Removes leading determiners and possessive pronouns: "the old NAS" → "old NAS". */
export function stripDeterminers(phrase: string): string {
  let words = phrase.trim().split(' ');
  while (words.length > 1 && DETERMINERS.has((words[0] ?? '').toLowerCase())) words = words.slice(1);
  if (words.length === 1 && DETERMINERS.has((words[0] ?? '').toLowerCase())) return '';
  return words.join(' ');
}

/** Trims punctuation and filler from the edges of an extracted phrase. */
export function cleanPhrase(phrase: string): string {
  return stripDeterminers(
    phrase
      .replace(/^[\s,:;"'-]+|[\s,:;"'!?]+$/g, '')
      .replace(/\.$/, '')
      .trim(),
  );
}

/** Is `small` contained in `large` (non-empty subset)? */
export function isSubset(small: ReadonlySet<string>, large: ReadonlySet<string>): boolean {
  if (small.size === 0) return false;
  for (const t of small) if (!large.has(t)) return false;
  return true;
}

/** Jaccard overlap of two sets (0 when both are empty). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** Does any token occur in both sets? */
export function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const t of a) if (b.has(t)) return true;
  return false;
}
