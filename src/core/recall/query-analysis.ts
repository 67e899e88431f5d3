/**
 * What a query asks for, read once per recall: its content terms, named entities, a date window,
 * its mood, and whether it is a question.
 */
import { analyzeEmotion, type EmotionAnalysis } from '../write/salience/index.js';
import { contentTerms, extractEntities, parseTemporalExpression } from '../text/index.js';

export interface QueryAnalysis {
  text: string;
  /** Distinct content terms (stop words removed), in order. */
  terms: string[];
  /** Normalised named entities. */
  entities: string[];
  /** A date window the query names, relative to the reference time. */
  window: { start: number; end: number; text: string } | null;
  /** The query's "now": its dates are read relative to it. */
  referenceTime: number;
  /**
   * The query asks for a time and nothing else: a window, and beside its words no content term but
   * ones that say "what went on" (`EVENT_WORDS`: "what did I do yesterday?", "summarise last week")
   * and no name.
   */
  windowOnly: boolean;
  emotion: EmotionAnalysis;
}

/** How to read a query: its reference time (the caller's "now") and wall clock, and its entities when already extracted. */
export interface QueryAnalysisOptions {
  referenceTime: number;
  /** Minutes east of UTC for the query's wall-clock dates ("on May 1"); default 0. */
  timezoneOffsetMinutes?: number;
  /** IANA time zone for the query's wall-clock dates, daylight saving included; wins over `timezoneOffsetMinutes`. */
  timeZone?: string;
  entities?: string[];
}

/** Analyses a query against a reference time and a wall clock (a time zone or a UTC offset). */
export function analyzeQuery(text: string, options: QueryAnalysisOptions): QueryAnalysis {
  const { referenceTime, timezoneOffsetMinutes, timeZone } = options;
  const entities = options.entities ?? extractEntities(text);
  const window = parseTemporalExpression(text, referenceTime, {
    ...(timezoneOffsetMinutes !== undefined ? { timezoneOffsetMinutes } : {}),
    ...(timeZone !== undefined ? { timeZone } : {}),
  });
  return {
    text,
    terms: [...new Set(contentTerms(text))].slice(0, 64),
    entities,
    window,
    referenceTime,
    windowOnly: window !== null && asksOnlyForTime(text, window.text, entities),
    emotion: analyzeEmotion(text),
  };
}

/**
 * Content words that ask what went on, not about what: a query with a date window and no other content
 * term but these asks for everything in the window.
 */
const EVENT_WORDS = new Set(
  `happen happens happened happening occur occurs occurred go goes going went gone work works worked working
  discuss discussed talk talked talking chat chatted say said up anything everything something stuff thing
  things activity activities event events day days summarise summarize summary recap overview review
  important notable interesting new news coming upcoming planned plan plans scheduled schedule agenda calendar`.split(/\s+/u),
);

/** Whether `text` names nothing beside its date window `windowText` but event words (and no entity outside the window's words). */
function asksOnlyForTime(text: string, windowText: string, entities: readonly string[]): boolean {
  const at = text.toLowerCase().indexOf(windowText.toLowerCase());
  const rest = at < 0 ? text : `${text.slice(0, at)} ${text.slice(at + windowText.length)}`;
  if (contentTerms(rest).some((term) => !EVENT_WORDS.has(term.toLowerCase()))) return false;
  const dateWords = windowText.toLowerCase();
  return entities.every((entity) => dateWords.includes(entity));
}

/**
 * How much of a memory is only a question (1 = nothing but a question, 0.5 = mostly, 0 = not one):
 * a question holds no answer, the turn after it usually does.
 */
export function questionShare(content: string): number {
  // most turns ask nothing: no question mark, no question (the regular expressions below are the cost)
  if (!content.includes('?')) return 0;
  const body = content.replace(/\[[^\]]*\]\s*$/, '').trim();
  if (!body.endsWith('?')) return 0;
  const sentences = body.split(/(?<=[.!?])\s+/).filter((s) => s.length > 3);
  const statements = sentences.filter((s) => !s.endsWith('?')).length;
  return statements <= 1 ? 1 : 0.5;
}
