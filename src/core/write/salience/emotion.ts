/**
 * Lexicon-based emotion analysis for the `emotion` field of a memory (seed 001: valence, intensity and
 * mood; high intensity is a flashbulb memory that decays slower).
 *
 * Each sentiment word scores -5..5 ({@link emotionTables}); a booster ("very") within two tokens
 * multiplies it, an ALL-CAPS word counts 1.5 times, a negator ("not", "never", "n't") within three tokens
 * flips and halves it ("not good" -1, "not bad" +1), and around "but" the clause before counts half and
 * the clause after 1.5 times. Emoji and emoticons score like words. With S the sum and e the number of
 * exclamation marks (at most 4):
 *   valence   = S' / sqrt(S'^2 + 15), where S' = S + sign(S) * 0.3 * e   (VADER's normalisation)
 *   intensity = 10 * (1 - exp(-A / 6)), where A = sum of |scores| + 0.5 * e + 0.5 * (ALL-CAPS sentiment words)
 * Mood tags are the categories (joy, sadness, anger, fear, surprise, trust, frustration, excitement,
 * gratitude, pride, calm, disgust) with the most weight among words that are not negated, at most three.
 */
import { stem } from '../../text/stem.js';
import { BOOSTERS, EMOTICONS, NEGATORS, PHRASES, emotionTables } from './emotion-lexicon.js';

/** Valence -1..1, intensity 0..10 and mood tags of a text. */
export interface EmotionAnalysis {
  valence: number;
  intensity: number;
  mood: string[];
}

const TOKEN_PATTERN =
  /(?<![\p{L}\p{N}:;=<])(?:[:;=]['-]?[)(\][dpo|]|<\/?3|xd)(?![\p{L}\p{N}])|\p{Extended_Pictographic}|[\p{L}\p{N}]+(?:'[\p{L}]+)*|[.!?,;:]+/gu;
const CAPS_WORD = /\b\p{Lu}{3,}\b/gu;
const HAS_CAPS_WORD = new RegExp(CAPS_WORD.source, 'u');
const LIKE_OPENERS = new Set([
  'i',
  'we',
  'you',
  'they',
  'he',
  'she',
  'really',
  'also',
  'totally',
  'still',
  'just',
  'do',
  'does',
  'did',
  "don't",
  "doesn't",
  "didn't",
  'would',
  "i'd",
  "we'd",
  'definitely',
  'actually',
  'genuinely',
  'kinda',
  'always',
  'not',
  'never',
]);
/** Matches where any of PHRASES does: a text without one skips their replacements. */
const ANY_PHRASE = new RegExp(PHRASES.map(([pattern]) => `(?:${pattern.source})`).join('|'));
const NEGATION_SCOPE = 3;
const BOOST_SCOPE = 2;
const NORMALIZATION_ALPHA = 15;
const MAX_MOODS = 3;

function capsWords(text: string): Set<string> {
  // no capitalised word, nothing to weigh (the same empty set the ratio below may give)
  if (!HAS_CAPS_WORD.test(text)) return new Set();
  const letters = text.replace(/[^\p{L}]/gu, '');
  const upper = letters.replace(/[^\p{Lu}]/gu, '');
  // a text written all in capitals is shouting as a whole, not emphasis on words
  if (letters.length === 0 || upper.length / letters.length > 0.6) return new Set();
  return new Set([...text.matchAll(CAPS_WORD)].map((match) => match[0].toLowerCase()));
}

function isNegator(word: string): boolean {
  return NEGATORS.has(word) || word.endsWith("n't");
}

/**
 * What the lexicon says of one token, whatever its context: the loop below asked each of these of
 * every token (seven table lookups and a stem), and a vocabulary is mostly the same few thousand words,
 * so each token's answers are worked out once (bounded, like the stems).
 */
interface TokenFacts {
  /** Made only of `.!?,;:`. */
  readonly marks: boolean;
  readonly emoticon: readonly [score: number, mood: string] | undefined;
  readonly negator: boolean;
  readonly booster: number | undefined;
  /** The word's score (exact, else by its stem) and mood, as a sentiment word. */
  readonly score: number | undefined;
  readonly mood: string | undefined;
  /** "like", "likes" or "liked": scores 2 after an opener ("I like"). */
  readonly likeForm: boolean;
}

const TOKEN_FACTS_LIMIT = 50_000;
const tokenFacts = new Map<string, TokenFacts>();

function factsOf(token: string): TokenFacts {
  const known = tokenFacts.get(token);
  if (known !== undefined) return known;
  const { exact, stemmed, moodExact, moodStemmed } = emotionTables();
  const stemmedToken = stem(token);
  const facts: TokenFacts = {
    marks: /^[.!?,;:]+$/u.test(token),
    emoticon: EMOTICONS[token],
    negator: isNegator(token),
    booster: BOOSTERS[token],
    score: exact.get(token) ?? stemmed.get(stemmedToken),
    mood: moodExact.get(token) ?? moodStemmed.get(stemmedToken),
    likeForm: /^lik(e|es|ed)$/u.test(token),
  };
  if (tokenFacts.size >= TOKEN_FACTS_LIMIT) tokenFacts.clear();
  tokenFacts.set(token, facts);
  return facts;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Valence (-1..1), intensity (0..10) and mood tags of `text`, from a sentiment lexicon with negation,
 * boosters, "but" clauses, exclamation marks, ALL-CAPS emphasis and emoji.
 * @example analyzeEmotion('I am not happy, the deploy failed again 😡') // { valence: -0.8…, intensity: 6.…, mood: ['anger', 'frustration'] }
 */
export function analyzeEmotion(text: string): EmotionAnalysis {
  const emphasised = capsWords(text);
  let lower = text
    .replace(/[\u2019\u02BC]/gu, "'")
    .replace(/\uFE0F/gu, '')
    .toLowerCase();
  if (ANY_PHRASE.test(lower)) for (const [pattern, replacement] of PHRASES) lower = lower.replace(pattern, replacement);

  const scores: number[] = [];
  const moodWeights = new Map<string, number>();
  let clauseStart = 0;
  let afterBut = false;
  let negationLeft = 0;
  let boost = 1;
  let boostLeft = 0;
  let exclamations = 0;
  let absoluteSum = 0;
  let emphasisedHits = 0;
  let previousWord = '';

  const addMood = (mood: string | undefined, weight: number): void => {
    if (mood !== undefined) moodWeights.set(mood, (moodWeights.get(mood) ?? 0) + Math.max(1, weight));
  };
  const tick = (): void => {
    if (negationLeft > 0) negationLeft--;
    if (boostLeft > 0 && --boostLeft === 0) boost = 1;
  };

  for (const match of lower.matchAll(TOKEN_PATTERN)) {
    const token = match[0];
    const facts = factsOf(token);
    if (facts.marks) {
      exclamations += token.split('!').length - 1;
      negationLeft = 0;
      boostLeft = 0;
      boost = 1;
      if (/[.!?]/u.test(token)) {
        afterBut = false;
        clauseStart = scores.length;
      }
      previousWord = '';
      continue;
    }
    const emoticon = facts.emoticon;
    if (emoticon !== undefined) {
      const [score, mood] = emoticon;
      scores.push(score);
      absoluteSum += Math.abs(score);
      addMood(mood, Math.abs(score));
      continue;
    }
    if (facts.negator) {
      negationLeft = NEGATION_SCOPE + 1;
    } else if (facts.booster !== undefined) {
      boost = facts.booster;
      boostLeft = BOOST_SCOPE + 1;
    } else if (token === 'but') {
      for (let index = clauseStart; index < scores.length; index++) scores[index] = (scores[index] ?? 0) * 0.5;
      afterBut = true;
    } else {
      let score = facts.score;
      if (score === undefined && facts.likeForm && LIKE_OPENERS.has(previousWord)) score = 2;
      const mood = facts.mood;
      if (score !== undefined || mood !== undefined) {
        const emphasis = emphasised.has(token) && score !== undefined;
        if (emphasis) emphasisedHits++;
        let adjusted = (score ?? 0) * (boostLeft > 0 ? boost : 1) * (emphasis ? 1.5 : 1) * (afterBut ? 1.5 : 1);
        const negated = negationLeft > 0;
        if (negated) adjusted *= -0.5;
        if (adjusted !== 0) scores.push(adjusted);
        absoluteSum += Math.abs(adjusted);
        if (!negated) addMood(mood, Math.abs(adjusted));
        negationLeft = 0;
        boostLeft = 0;
        boost = 1;
      }
    }
    previousWord = token;
    tick();
  }

  let sum = scores.reduce((total, score) => total + score, 0);
  const bangs = Math.min(exclamations, 4);
  if (sum !== 0) sum += Math.sign(sum) * 0.3 * bangs;
  const valence = sum / Math.sqrt(sum * sum + NORMALIZATION_ALPHA);
  const arousal = absoluteSum + 0.5 * bangs + 0.5 * emphasisedHits;
  const intensity = 10 * (1 - Math.exp(-arousal / 6));
  const mood = [...moodWeights.entries()]
    .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
    .slice(0, MAX_MOODS)
    .map(([name]) => name);
  return { valence: round(Math.max(-1, Math.min(1, valence)), 3), intensity: round(Math.min(10, intensity), 2), mood };
}
