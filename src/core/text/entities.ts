/**
 * Named-entity extraction for the entity channel and concept extraction.
 *
 * Runs on every `remember` and `recall`, so it is a heuristic, not a tagger: compromise's tagger costs
 * about 1 ms per 150-character text after a ~0.45 s import, against a few microseconds here. It finds
 * 1. patterns: URLs, e-mail addresses, @handles, #hashtags, camelCase / PascalCase-with-inner-capital
 *    and snake_case identifiers;
 * 2. capitalised runs ("Sarah Connor", "Bank of America", "Dr. Sarah Connor" without the title), split
 *    at stop words, weekdays, months and greetings; a lone capitalised word that starts a sentence counts
 *    only when the gazetteer knows it, it is capitalised elsewhere mid-sentence, it is an acronym or it
 *    is possessive ("Caroline's");
 * 3. gazetteer words in any case, so all-lowercase chat ("flew to paris") still yields entities.
 * Each entity is lowercased, trimmed, stripped of a possessive 's, and listed once, in text order.
 */
import { hasCjk } from './cjk.js';
import { dropFormatCharacters } from './format-characters.js';
import { GAZETTEER_MAX_WORDS, gazetteerEntries, gazetteerFirstWords } from './gazetteer.js';
import { STOP_WORDS } from './stop-words.js';

const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"']+/giu;
const EMAIL_PATTERN = /\b[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}\b/gu;
const HANDLE_PATTERN = /(?<![\p{L}\p{N}_@.])@[\p{L}\p{N}_]{2,}/gu;
const HASHTAG_PATTERN = /(?<![\p{L}\p{N}_#&])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*/gu;
const IDENTIFIER_PATTERN =
  /(?<![\p{L}\p{N}_])(?:\p{L}[\p{L}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*|\p{L}[\p{L}\p{N}]*(?:_[\p{L}\p{N}]+)+)(?![\p{L}\p{N}_])/gu;
const TRAILING_URL_PUNCTUATION = /[.,;:!?)\]}]+$/u;

const WORD_PATTERN = /[\p{L}\p{M}\p{N}]+(?:['’&.-][\p{L}\p{M}\p{N}]+)*(?:['’]s?)?/gu;
const POSSESSIVE = /['’]s?$/u;
const SENTENCE_BREAK = /[.!?…\n:"“”]/u;
const SPACES_ONLY = /^[ \t]+$/u;
const JOINING_AMPERSAND = /^[ \t]*&[ \t]*$/u;
const MASK = '\u0001';
const FULL_STOP = 0x2e;
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
const LOWER_S = 0x73;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
/** A character every match of the pattern contains. */
const PATTERN_MARKERS = new Map<RegExp, string>([
  [EMAIL_PATTERN, '@'],
  [HANDLE_PATTERN, '@'],
  [HASHTAG_PATTERN, '#'],
]);
/**
 * What a text holds wherever the pattern can match, tested before it (far cheaper than the pattern's
 * look-behinds and word boundaries at every position): a URL's scheme or `www.`, an identifier's
 * underscore or lower-to-upper step.
 */
const URL_MARK = /https?:\/\/|www\./iu;
const LOWER_TO_UPPER = /\p{Ll}\p{Lu}/u;
const PATTERN_PRECHECKS = new Map<RegExp, (text: string) => boolean>([
  [URL_PATTERN, (text) => URL_MARK.test(text)],
  [IDENTIFIER_PATTERN, (text) => text.includes('_') || LOWER_TO_UPPER.test(text)],
]);

const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'professor',
  'sir',
  'dame',
  'st',
  'rev',
  'gen',
  'capt',
  'sgt',
  'lt',
  'col',
  'president',
  'senator',
  'governor',
  'mayor',
]);
const CONNECTORS = new Set(['of', 'the', 'de', 'da', 'del', 'della', 'der', 'van', 'von', 'la', 'le', 'du', 'y']);
const NON_ENTITY_WORDS = new Set(
  `monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
  january february march april may june july august september october november december jan feb mar apr jun jul
  aug sep sept oct nov dec today tomorrow yesterday tonight morning afternoon evening night weekend week month year
  hi hello hey dear thanks thank congrats congratulations welcome sorry please yes no ok okay sure wow oh well
  great good nice cool awesome yeah yep nope lol haha omg btw fyi asap am pm tl dr eta etc re fw fwd note update
  christmas easter`
    .split(/\s+/u)
    .filter((word) => word.length > 0),
);

/**
 * Verbs that start terse notes ("Met Sarah at the cafe", "Email John the report"): capitalised only
 * because they open the sentence, they are not part of the name that follows. Words that are also
 * common given names (Will, Mark, Bill, Pat, Drew, Grant, Chase, Hope) are not listed.
 */
const LEADING_VERBS = new Set(
  `met meet told tell called call emailed email e-mailed texted text messaged message phoned phone pinged ping
  visited visit saw see asked ask bought buy paid pay sent send took take gave give got get went had made make
  said invited invite thanked thank helped help hired hire booked book ordered order flew drove watched watch
  wrote write finished finish started start talked talk spoke speak reminded remind moved move joined join
  hosted host interviewed interview contacted contact cancelled canceled cancel scheduled schedule rescheduled
  reschedule discussed discuss followed follow introduced introduce recommended recommend mentioned mention
  answered answer replied reply heard learned learnt found lost tried try used use attended attend checked
  check reviewed review approved approve rejected reject signed sign informed inform warned warn let read
  congratulated congratulate hugged visiting meeting calling emailing texting asking`
    .split(/\s+/u)
    .filter((word) => word.length > 0),
);

interface WordToken {
  raw: string;
  lower: string;
  start: number;
  end: number;
  capitalised: boolean;
  sentenceStart: boolean;
  joinsPrevious: boolean;
  possessive: boolean;
  acronym: boolean;
  innerCapital: boolean;
}

interface Found {
  position: number;
  value: string;
}

function normalizeEntity(value: string): string {
  // one form of a name however it was typed: a decomposed "São Paulo" (macOS) is the composed one
  return dropFormatCharacters(value.normalize('NFC')).trim().replace(/\s+/gu, ' ').replace(POSSESSIVE, '').toLowerCase();
}

/** Finds URL, e-mail, handle, hashtag and identifier spans and masks them so later passes skip them. */
function extractPatterns(text: string, found: Found[]): string {
  let masked = text;
  const patterns = [URL_PATTERN, EMAIL_PATTERN, HANDLE_PATTERN, HASHTAG_PATTERN, IDENTIFIER_PATTERN];
  for (const pattern of patterns) {
    const marker = PATTERN_MARKERS.get(pattern);
    // each of these patterns needs its marker character, and masking only removes characters
    if (marker !== undefined && !masked.includes(marker)) continue;
    if (PATTERN_PRECHECKS.get(pattern)?.(masked) === false) continue;
    // the masked text is put together once per pattern: rebuilding it at every match cost time that grew
    // with the square of the text ("#tag " × 40,000: 35 s)
    const pieces: string[] = [];
    let copied = 0;
    for (const match of masked.matchAll(pattern)) {
      let value = match[0];
      if (value.includes(MASK)) continue;
      if (pattern === URL_PATTERN) value = value.replace(TRAILING_URL_PUNCTUATION, '');
      found.push({ position: match.index, value: value.toLowerCase() });
      pieces.push(masked.slice(copied, match.index), MASK.repeat(value.length));
      copied = match.index + value.length;
    }
    if (pieces.length > 0) masked = pieces.join('') + masked.slice(copied);
  }
  return masked;
}

/**
 * The words of `masked` with what the entity passes ask of each. Most words are lowercase ASCII after a
 * single space: those skip the regular expressions (each answer is what the expression gives).
 */
function wordTokens(masked: string): WordToken[] {
  const tokens: WordToken[] = [];
  let previousEnd = 0;
  for (const match of masked.matchAll(WORD_PATTERN)) {
    const raw = match[0];
    const gap = masked.slice(previousEnd, match.index);
    const previous = tokens[tokens.length - 1];
    let sentenceStart: boolean;
    let joinsPrevious: boolean;
    if (previous !== undefined && gap === ' ') {
      sentenceStart = false;
      joinsPrevious = true;
    } else {
      // a title's full stop ("Dr. Sarah") neither ends the sentence nor parts the name
      const afterTitle =
        previous !== undefined &&
        gap.charCodeAt(0) === FULL_STOP &&
        /^\.[ \t]+$/u.test(gap) &&
        (HONORIFICS.has(previous.lower) || /^\p{Lu}$/u.test(previous.raw));
      sentenceStart = previous === undefined || (SENTENCE_BREAK.test(gap) && !afterTitle);
      joinsPrevious = previous !== undefined && (SPACES_ONLY.test(gap) || JOINING_AMPERSAND.test(gap) || afterTitle);
    }
    const last = raw.charCodeAt(raw.length - 1);
    const possessive = (last === APOSTROPHE || last === RIGHT_QUOTE || last === LOWER_S) && POSSESSIVE.test(raw) && /['’]/u.test(raw);
    const word = possessive ? raw.replace(POSSESSIVE, '') : raw;
    const first = word.charCodeAt(0);
    const lowerAscii = first >= LOWER_A && first <= LOWER_Z;
    const capitalised = lowerAscii ? false : first >= UPPER_A && first <= UPPER_Z ? true : /^\p{Lu}/u.test(word);
    // a word that starts with a lowercase letter has one among its letters: no acronym
    const letters = lowerAscii ? '' : word.replace(/[^\p{L}]/gu, '');
    tokens.push({
      raw: word,
      lower: word.toLowerCase(),
      start: match.index,
      end: match.index + word.length,
      capitalised,
      sentenceStart,
      joinsPrevious,
      possessive,
      acronym: !lowerAscii && letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase(),
      innerCapital: LOWER_TO_UPPER.test(word),
    });
    previousEnd = match.index + raw.length;
  }
  return tokens;
}

function isShouting(tokens: readonly WordToken[]): boolean {
  const alphabetic = tokens.filter((token) => /\p{L}{2,}/u.test(token.raw));
  if (alphabetic.length < 4) return false;
  return alphabetic.filter((token) => token.acronym).length / alphabetic.length >= 0.6;
}

function isExcluded(token: WordToken): boolean {
  return token.raw === 'I' || NON_ENTITY_WORDS.has(token.lower) || (STOP_WORDS.has(token.lower) && !token.acronym);
}

/** Maximal runs of capitalised tokens, joined by spaces, '&', titles or inner connectors ("of the"). */
function capitalisedRuns(tokens: readonly WordToken[]): WordToken[][] {
  const runs: WordToken[][] = [];
  let index = 0;
  while (index < tokens.length) {
    const first = tokens[index];
    if (first === undefined || !first.capitalised) {
      index++;
      continue;
    }
    const run = [first];
    let next = index + 1;
    while (next < tokens.length) {
      const token = tokens[next];
      if (token === undefined || !token.joinsPrevious || token.sentenceStart) break;
      if (token.capitalised) {
        run.push(token);
        next++;
        continue;
      }
      // connectors join only when a capitalised word follows ("Bank of America", not "Bob of course")
      let lookahead = next;
      while (lookahead < tokens.length && lookahead - next < 2 && CONNECTORS.has(tokens[lookahead]?.lower ?? '')) lookahead++;
      const after = tokens[lookahead];
      if (lookahead === next || after === undefined || !after.capitalised || !after.joinsPrevious) break;
      for (let connector = next; connector < lookahead; connector++) run.push(tokens[connector] as WordToken);
      next = lookahead;
    }
    runs.push(run);
    index = next;
  }
  return runs;
}

/** Splits a run at excluded words and titles, trimming connectors off the ends of each segment. */
function segmentsOf(run: readonly WordToken[]): WordToken[][] {
  const segments: WordToken[][] = [];
  let current: WordToken[] = [];
  const flush = (): void => {
    while (current.length > 0 && !current[0]?.capitalised) current.shift();
    while (current.length > 0 && !current[current.length - 1]?.capitalised) current.pop();
    if (current.length > 0) segments.push(current);
    current = [];
  };
  for (const token of run) {
    if (token.capitalised && (HONORIFICS.has(token.lower) || isExcluded(token))) flush();
    else current.push(token);
  }
  flush();
  return segments;
}

function capitalisedElsewhere(tokens: readonly WordToken[], word: WordToken): boolean {
  return tokens.some((token) => token !== word && token.lower === word.lower && token.capitalised && !token.sentenceStart);
}

function extractCapitalised(tokens: readonly WordToken[], found: Found[], covered: Set<WordToken>): void {
  const gazetteer = gazetteerEntries();
  for (const run of capitalisedRuns(tokens)) {
    for (const segment of segmentsOf(run)) {
      // "Met Sarah Lee": the verb that opens the sentence is not part of the name
      if (segment.length > 1 && segment[0]?.sentenceStart === true && LEADING_VERBS.has(segment[0].lower)) {
        segment.shift();
        while (segment.length > 0 && !segment[0]?.capitalised) segment.shift();
      }
      const first = segment[0];
      if (first === undefined) continue;
      if (segment.length === 1 && first.sentenceStart) {
        const known = gazetteer.has(first.lower) || first.acronym || first.innerCapital || first.possessive;
        if (!known && !capitalisedElsewhere(tokens, first)) continue;
      }
      found.push({ position: first.start, value: segment.map((token) => token.raw).join(' ') });
      for (const token of segment) covered.add(token);
    }
  }
}

function extractGazetteerWords(tokens: readonly WordToken[], found: Found[], covered: ReadonlySet<WordToken>): void {
  const gazetteer = gazetteerEntries();
  const starts = gazetteerFirstWords();
  for (let index = 0; index < tokens.length; index++) {
    // most words start no entry: no window from them can match
    const widths = starts.get((tokens[index] as WordToken).lower);
    if (widths === undefined) continue;
    for (let width = GAZETTEER_MAX_WORDS; width >= 1; width--) {
      if ((widths & (1 << width)) === 0) continue;
      const window = tokens.slice(index, index + width);
      if (window.length < width || window.some((token) => covered.has(token))) continue;
      const phrase = window.map((token) => token.lower).join(' ');
      if (!gazetteer.has(phrase)) continue;
      found.push({ position: window[0]?.start ?? 0, value: phrase });
      index += width - 1;
      break;
    }
  }
}

/**
 * A run of CJK characters. In mixed text it stands in for a lowercase word, so a Latin name next to
 * Chinese ("见了Alice") is its own capitalised word, not the tail of one word, and not a sentence start.
 */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Named entities in `text` (people, places, organisations, products, @handles, e-mails, URLs,
 * #hashtags, code identifiers), normalised (lowercase, trimmed, no possessive 's) and deduplicated.
 * @example extractEntities("Caroline met Dr. Sarah Connor in San Francisco; ping @devops") // ['caroline', 'sarah connor', 'san francisco', '@devops']
 */
export function extractEntities(text: string): string[] {
  const found: Found[] = [];
  const masked = extractPatterns(
    hasCjk(text) ? text.replace(CJK_RUN, (run) => ` ${'x'.repeat(Math.max(1, run.length - 2))} `) : text,
    found,
  );
  const tokens = wordTokens(masked);
  const covered = new Set<WordToken>();
  if (!isShouting(tokens)) extractCapitalised(tokens, found, covered);
  extractGazetteerWords(tokens, found, covered);
  found.sort((left, right) => left.position - right.position);
  const entities: string[] = [];
  const seen = new Set<string>();
  for (const { value } of found) {
    const entity = normalizeEntity(value);
    if (entity.length === 0 || seen.has(entity)) continue;
    seen.add(entity);
    entities.push(entity);
  }
  return entities;
}
