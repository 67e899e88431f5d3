/**
 * The normalised slot the comparison works on: a `ClaimSlot` plus how it was said (retracted value,
 * cardinality of its attribute, the rule that found it). Also turns raw rule output into this shape.
 */
import type { ClaimSlot } from '../../memory.js';
import { type Cardinality, cardinalityOf } from './attribute-families.js';
import type { RawSlot } from './claim-patterns.js';
import { cleanPhrase, numbersIn } from './claim-text.js';
import { analyzeNounPhrase, normalizeSubject } from './noun-phrase.js';
import { dictionary } from '../../text/dictionary.js';

/** A claim slot with the details supersession needs. */
export interface ExtractedSlot extends ClaimSlot {
  negated: boolean;
  /** The statement says this value no longer holds ("from A to B", "replaced A", "instead of A"). */
  retract: boolean;
  cardinality: Cardinality;
  /** Stated with a change verb ("moved to", "replaced", "took over"): the old value was left behind. */
  change: boolean;
  /** The extraction rule that produced the slot. */
  rule: string;
  /**
   * The closed past period the statement is about ("I lived in Lisbon from 2019 to 2022": "from 2019 to
   * 2022"): the slot is history, not the current value. Absent for statements about the present.
   */
  period?: string;
}

const RATE_UNITS: Readonly<Record<string, string>> = dictionary({
  second: 'per-second',
  minute: 'per-minute',
  hour: 'hourly',
  day: 'daily',
  night: 'nightly',
  week: 'weekly',
  month: 'monthly',
  quarter: 'quarterly',
  year: 'yearly',
  annum: 'yearly',
  sprint: 'per-sprint',
});
const SCHEDULE_FAMILIES = new Set(['when', 'start', 'end', 'deadline']);

/** Lowercase value without determiners or edge punctuation. */
export function normalizeValue(value: string): string {
  return cleanPhrase(value.toLowerCase())
    .replace(/^(?:to be|being) /, '')
    .replace(APPROXIMATELY, '');
}

/** "about $20k" is the amount $20k: hedges before a number are not part of the value. */
export const APPROXIMATELY =
  /^(?:about|around|roughly|approximately|approx\.?|nearly|almost|just over|just under|over|under|up to|at least|at most|~)\s+(?=[$£€~]?\d)/i;

/**
 * A rate is part of the attribute, not the value: "80L per month" → value "80l", attribute token "monthly",
 * so "the budget is 80L per month" and "the monthly budget is 80L" name the same slot.
 */
function splitRate(value: string): { value: string; rate?: string } {
  const m = /^(.+?) (?:per|a|an|each|every|\/) ?(second|minute|hour|day|night|week|month|quarter|year|annum|sprint)$/.exec(value);
  if (!m?.[1] || !m[2] || numbersIn(m[1]).length === 0) return { value };
  return { value: m[1], rate: RATE_UNITS[m[2]] };
}

/** Drops "date"/"time"/"day" from a schedule subject: "the release date" → "release". */
function scheduleSubject(subject: string): string {
  const trimmed = subject.replace(/ (?:date|time|day|schedule|slot)$/, '');
  return trimmed === '' ? subject : trimmed;
}

/** Builds a normalised slot from a subject, attribute and value already chosen by a rule. */
export function makeSlot(input: {
  subject: string;
  attribute: string;
  value: string;
  cardinality: Cardinality;
  rule: string;
  negated?: boolean;
  retract?: boolean;
  change?: boolean;
}): ExtractedSlot {
  const { value, rate } = splitRate(normalizeValue(input.value));
  const withRate = rate && !input.subject.split(' ').includes(rate) ? `${input.subject} ${rate}`.trim() : input.subject;
  const subject = SCHEDULE_FAMILIES.has(input.attribute) ? scheduleSubject(withRate) : withRate;
  return {
    subject,
    attribute: input.attribute,
    value,
    negated: input.negated ?? false,
    retract: input.retract ?? false,
    change: input.change ?? false,
    cardinality: input.cardinality,
    rule: input.rule,
  };
}

/** Normalises a raw rule slot: subject lemmas, attribute from the family or from the noun phrase. */
export function keyRawSlot(raw: RawSlot): ExtractedSlot {
  let subject: string;
  let attribute: string;
  let origin: 'noun' | 'verb' = raw.verbal ? 'verb' : 'noun';
  const named = raw.family === 'when' ? analyzeNounPhrase(raw.subject) : undefined;
  if (named?.named && SCHEDULE_FAMILIES.has(named.attribute)) {
    subject = named.subject;
    attribute = named.attribute;
  } else if (raw.family !== undefined) {
    subject = normalizeSubject(raw.subject);
    attribute = raw.family;
  } else {
    const key = analyzeNounPhrase(raw.subject);
    subject = key.subject;
    attribute = key.attribute;
    origin = 'noun';
  }
  return makeSlot({
    subject,
    attribute,
    value: raw.value,
    cardinality: raw.cardinality ?? cardinalityOf(attribute, origin),
    rule: raw.rule,
    negated: raw.negated,
    retract: raw.retract,
    change: raw.change,
  });
}
