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
  return {
    text,
    terms: [...new Set(contentTerms(text))].slice(0, 64),
    entities: options.entities ?? extractEntities(text),
    window: parseTemporalExpression(text, referenceTime, {
      ...(timezoneOffsetMinutes !== undefined ? { timezoneOffsetMinutes } : {}),
      ...(timeZone !== undefined ? { timeZone } : {}),
    }),
    emotion: analyzeEmotion(text),
  };
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
