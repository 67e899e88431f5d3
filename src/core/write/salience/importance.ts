/**
 * A poignancy-like importance score 0..1 without an LLM (seed 004 asks an LLM "how important was
 * this, 0 to 1"; without an LLM a deterministic fallback is required). Content signals, each a strength
 * f in 0..1 with a weight w, are combined as a noisy-OR, so every signal raises the score and none
 * alone saturates it:
 *
 *   importance = 1 - (1 - 0.10) * Π (1 - w_i * f_i)
 *
 * | signal                                              | w    | f                                    |
 * |-----------------------------------------------------|------|--------------------------------------|
 * | explicit marker: important, remember, never forget, must, always, never, deadline, critical | 0.55 | 0.8 for one, 1 for two or more |
 * | preference: prefer, favourite, I love / hate, allergic, can't stand | 0.50 | 0.8 for one, 1 for two or more |
 * | personal fact: my daughter / birthday / job, I live in, I work at, born, married | 0.40 | 0.8 for one, 1 for two or more |
 * | decision or commitment: decided, agreed, chose, switch to, moved to, plan to | 0.35 | 0.8 for one, 1 for two or more |
 * | emotional intensity (analyzeEmotion, 0..10)         | 0.30 | intensity / 10                       |
 * | named entities (extractEntities)                    | 0.20 | min(1, count / 3)                    |
 * | information: content terms n                        | 0.20 | min(1, ln(1 + n) / ln(41))           |
 * | surprise (scoreSurprise), when given                | 0.15 | surprise                             |
 * | numbers or dates                                    | 0.12 | 1 if any                             |
 *
 * Chit-chat (no content terms beyond fillers such as "ok", "thanks", "cool", "lol", and no marker)
 * scores at most 0.05. Tiers: below 0.5 ordinary, 0.5 to 0.7 notable, above 0.7 essential.
 */
import { countedContentTerms } from '../../text/tokenize.js';
import { extractEntities } from '../../text/entities.js';
import { analyzeEmotion } from './emotion.js';

/** Signals already computed by the caller; whatever is missing is derived from the text. */
export interface ImportanceSignals {
  /** Emotion intensity 0..10 (from `analyzeEmotion`). */
  emotionIntensity?: number;
  /** Named entities (from `extractEntities`). */
  entities?: readonly string[];
  /** Novelty 0..1 against what the scope holds (from `scoreSurprise`). */
  surprise?: number;
}

interface MarkerSignal {
  pattern: RegExp;
  weight: number;
}

const MARKERS: MarkerSignal = {
  pattern:
    /\b(?:important(?:ly)?|remember|don't forget|do not forget|never forget|keep in mind|make sure|note that|must|mustn't|always|never|critical|crucial|essential|vital|urgent|asap|deadline|due (?:date|by|on)|priority|mandatory|required|for future reference|from now on)\b/g,
  weight: 0.55,
};
const PREFERENCES: MarkerSignal = {
  pattern:
    /\b(?:prefers?|preferred|preference|favou?rite|(?:i|we|he|she|they) (?:really |absolutely |totally )?(?:like|love|loves|hate|hates|enjoy|enjoys|dislike|dislikes|adore)|can't stand|allergic|allergy|vegetarian|vegan|i'd rather|would rather|my go-to|i(?:'m| am) (?:not )?(?:a fan|into)|don't (?:like|want|eat|drink))\b/g,
  weight: 0.5,
};
const PERSONAL_FACTS: MarkerSignal = {
  pattern:
    /\b(?:my (?:name|birthday|wife|husband|partner|boyfriend|girlfriend|son|daughter|kids?|children|mom|mother|dad|father|parents|sister|brother|family|grand(?:mother|father|ma|pa)|dog|cat|pet|job|boss|team|address|phone|email|home|doctor|friend|best friend|anniversary|wedding)|i (?:work (?:at|as|for|in)|live (?:in|at|with)|was born|grew up|moved to|study|studied|graduated)|i(?:'m| am) (?:a|an) \w+|my name is|years old|birthday|anniversary|married|divorced|pregnant|diagnosed|retired|engaged)\b/g,
  weight: 0.4,
};
const DECISIONS: MarkerSignal = {
  pattern:
    /\b(?:decided|decide|decision|agreed|agree to|chose|chosen|choose|settled on|opted|go(?:ing)? with|switch(?:ed|ing)? (?:to|from)|mov(?:e|ed|ing) (?:to|from)|plan(?:ning|s)? to|commit(?:ted)? to|approved|rejected|cancell?ed|policy|rule)\b/g,
  weight: 0.35,
};
const NUMBER_OR_DATE =
  /\d|\b(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|yesterday|today|tonight|next week|last week)\b/;
const FILLERS = new Set(
  'ok okay cool nice great good awesome perfect sure thanks thank thx lol lmao haha hahaha yes no yeah yep nope hi hello hey bye goodbye morning night later sounds got see alright fine np ty welcome wow oh ah hmm'.split(
    ' ',
  ),
);

const BASE = 0.1;
const CHIT_CHAT_CEILING = 0.05;
const WEIGHTS = { emotion: 0.3, entities: 0.2, information: 0.2, surprise: 0.15, numbers: 0.12 } as const;

function markerStrength(text: string, signal: MarkerSignal): number {
  const hits = text.match(signal.pattern)?.length ?? 0;
  return hits === 0 ? 0 : hits === 1 ? 0.8 : 1;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/**
 * Importance 0..1 of a memory's text from content signals (explicit markers, preferences, personal
 * facts, decisions, emotion, entities, information, numbers and dates); chit-chat scores near 0.
 * @example scoreImportance("My daughter's birthday is on March 3rd, never forget it") > scoreImportance('ok cool') // true
 */
export function scoreImportance(text: string, signals: ImportanceSignals = {}): number {
  // on the write path: the count is read again for the stored BM25 length (`contentTermCount`)
  const terms = countedContentTerms(text);
  const lower = text.toLowerCase().replace(/[\u2019\u02BC]/gu, "'");
  const substantive = terms.filter((term) => !FILLERS.has(term));
  const strengths: [weight: number, strength: number][] = [
    [MARKERS.weight, markerStrength(lower, MARKERS)],
    [PREFERENCES.weight, markerStrength(lower, PREFERENCES)],
    [PERSONAL_FACTS.weight, markerStrength(lower, PERSONAL_FACTS)],
    [DECISIONS.weight, markerStrength(lower, DECISIONS)],
  ];
  if (substantive.length === 0 && strengths.every(([, strength]) => strength === 0)) {
    return CHIT_CHAT_CEILING * clamp01(terms.length / 4);
  }
  const intensity = signals.emotionIntensity ?? analyzeEmotion(text).intensity;
  const entityCount = (signals.entities ?? extractEntities(text)).length;
  strengths.push(
    [WEIGHTS.emotion, clamp01(intensity / 10)],
    [WEIGHTS.entities, clamp01(entityCount / 3)],
    [WEIGHTS.information, clamp01(Math.log1p(substantive.length) / Math.log(41))],
    [WEIGHTS.surprise, clamp01(signals.surprise ?? 0)],
    [WEIGHTS.numbers, NUMBER_OR_DATE.test(lower) ? 1 : 0],
  );
  const remaining = strengths.reduce((product, [weight, strength]) => product * (1 - weight * strength), 1 - BASE);
  return Math.round(clamp01(1 - remaining) * 1000) / 1000;
}
