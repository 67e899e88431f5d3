/**
 * Relations between two extracted slots: do they name the same subject and attribute (the same
 * "key"), and do their values agree? Kept apart from the decision logic in `claim-comparison.ts`.
 */
import { isKnownFamily, relatedAttributes } from './attribute-families.js';
import { GENERIC_HEADS, TIME_WORDS, contentTokens, isSubset, numbersIn, valueContentTokens } from './claim-text.js';
import type { ExtractedSlot } from './extracted-slot.js';
import { termsOf } from './pos-tags.js';
import { compareTemporal, isTemporal } from './temporal.js';

/** `same`: one slot; `related`: same subject, attributes in one family group; `none` otherwise. */
export type KeyRelation = 'same' | 'related' | 'none';
/** `unknown` when either value is empty or not comparable. */
export type ValueRelation = 'same' | 'different' | 'unknown';

const TEMPORAL_FAMILIES = new Set(['when', 'start', 'end', 'birthday', 'deadline']);
const ATOMIC_FAMILIES = new Set(['name', 'nickname', 'email', 'phone']);

function tokenSet(phrase: string): Set<string> {
  return new Set(contentTokens(phrase));
}

/** Value tokens also split letter-letter hyphens, so "Berlin-Kreuzberg" contains "Berlin". */
function valueTokens(phrase: string): Set<string> {
  return new Set(valueContentTokens(phrase.replace(/(?<=[a-z])-(?=[a-z])/gi, ' ')));
}

/** Containment counts only when the smaller side names something specific ("team" is inside every team). */
function specificSubset(small: Set<string>, large: Set<string>): boolean {
  return isSubset(small, large) && [...small].some((t) => !GENERIC_HEADS.has(t));
}

/** Drops generic heads ("service", "team") unless nothing else is left. */
function withoutGenericHeads(tokens: Set<string>): Set<string> {
  const specific = new Set([...tokens].filter((t) => !GENERIC_HEADS.has(t)));
  return specific.size > 0 ? specific : tokens;
}

function setsEqual(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}

/**
 * Same referent: equal lemma sets once generic heads are set aside ("billing" ≈ "billing service"), unless both
 * sides name different heads ("billing repo" is not "billing service").
 */
export function sameSubject(a: string, b: string): boolean {
  const ta = tokenSet(a);
  const tb = tokenSet(b);
  // two subjects without a content word are one only when written alike ("" and "" both name the scope)
  if (ta.size === 0 || tb.size === 0) return ta.size === tb.size && a.trim().toLowerCase() === b.trim().toLowerCase();
  if (setsEqual(ta, tb)) return true;
  const sa = new Set([...ta].filter((t) => !isQualifier(t)));
  const sb = new Set([...tb].filter((t) => !isQualifier(t)));
  if (sa.size === 0 || !setsEqual(sa, sb)) return false;
  const headsA = [...ta].filter(isQualifier);
  const headsB = [...tb].filter(isQualifier);
  return headsA.length === 0 || headsB.length === 0;
}

/**
 * The rate a measure is stated at ("$1,800 a month" reads as the subject "rent monthly"): like a generic
 * head, it qualifies the thing without naming another one, so "rent" meets "rent monthly", and "rent
 * monthly" does not meet "rent yearly".
 */
const RATE_WORDS = new Set(['hourly', 'daily', 'nightly', 'weekly', 'monthly', 'quarterly', 'yearly']);

function isQualifier(token: string): boolean {
  return GENERIC_HEADS.has(token) || RATE_WORDS.has(token);
}

/** Same attribute: equal canonical names, or free phrases with equal lemma sets ("budget laptop" ≈ "laptop budget"). */
export function sameAttribute(a: string, b: string): boolean {
  if (a === b) return true;
  if (isKnownFamily(a) || isKnownFamily(b)) return false;
  return setsEqual(tokenSet(a), tokenSet(b));
}

/** Subject plus attribute as one set, so different splits of one phrase still meet. */
function keyTokens(slot: ExtractedSlot): Set<string> {
  const tokens = tokenSet(slot.subject);
  if (slot.attribute !== 'value') for (const t of tokenSet(slot.attribute.replace(/_/g, ' '))) tokens.add(t);
  return tokens;
}

/** Rules that read a slot from a noun phrase and its value ("the X is V", "X: V", "the user's X is V"). */
const NOUN_SLOT_RULES = new Set(['copula-attribute', 'copula-measure', 'copula-value', 'copula-identity']);
/** Tails that name a measure of the labelled thing, not another thing: a "budget range" is the budget. */
const MEASURE_TAILS = new Set(['range', 'amount']);

/**
 * The label a noun-phrase slot is about, when that label is the user's or nobody's in particular:
 * "The user's budget range is 80 lakh" (user / budget range), "Budget range: 1 crore" and "My budget range
 * is 1 crore" (budget range / value), "Deploy target: staging" (scope / deploy_target). Someone else's
 * label ("Alice's budget") and slots read from verbs have none.
 */
function ownLabel(slot: ExtractedSlot): string | undefined {
  if (!NOUN_SLOT_RULES.has(slot.rule)) return undefined;
  if (slot.attribute === 'value') return slot.subject === '' || slot.subject === 'user' ? undefined : slot.subject;
  if (slot.subject === '' || (slot.subject === 'user' && slot.rule === 'copula-attribute')) return slot.attribute.replace(/_/g, ' ');
  return undefined;
}

function labelTokens(label: string): Set<string> {
  const tokens = tokenSet(label);
  const kept = new Set([...tokens].filter((t) => !MEASURE_TAILS.has(t)));
  return kept.size > 0 ? kept : tokens;
}

/**
 * One slot written in two forms: "the user's <label> is V" against "<label>: V" or "the <label> is V", or
 * "<label> range" against "<label>" ("Budget: 80L" / "The budget range is 1 crore"). The labels must name
 * the same thing word for word, a measure tail aside: "budget" is not "budget deadline" nor "project budget".
 */
function sameLabelledSlot(a: ExtractedSlot, b: ExtractedSlot): boolean {
  const la = ownLabel(a);
  const lb = ownLabel(b);
  if (la === undefined || lb === undefined) return false;
  // a named attribute family ("deadline", "location") is one slot only with the same family
  const familyA = a.attribute !== 'value' && isKnownFamily(a.attribute);
  const familyB = b.attribute !== 'value' && isKnownFamily(b.attribute);
  if ((familyA || familyB) && a.attribute !== b.attribute) return false;
  return setsEqual(labelTokens(la), labelTokens(lb));
}

/** How two slots' keys relate (see `KeyRelation`). */
export function keyRelation(a: ExtractedSlot, b: ExtractedSlot): KeyRelation {
  const subject = sameSubject(a.subject, b.subject);
  if (subject && sameAttribute(a.attribute, b.attribute)) return 'same';
  if (sameLabelledSlot(a, b)) return 'same';
  const free = (x: string): boolean => x === 'value' || !isKnownFamily(x);
  const freeOrSame = a.attribute === b.attribute || (free(a.attribute) && free(b.attribute));
  if (freeOrSame && sameSubject([...keyTokens(a)].join(' '), [...keyTokens(b)].join(' '))) return 'same';
  if (subject && relatedAttributes(a.attribute, b.attribute)) return 'related';
  return 'none';
}

/**
 * Compares values: schedules by calendar components, then numbers (any difference decides), then lemma
 * sets, where containment counts as the same value ("production" ≈ "production on Thursdays").
 */
export function valueRelation(a: ExtractedSlot, b: ExtractedSlot): ValueRelation {
  if (a.value === b.value) return 'same';
  // Names and addresses are atomic: "bluebird-core" is not "Bluebird", "Sam" is not "Samira".
  if (ATOMIC_FAMILIES.has(a.attribute) && ATOMIC_FAMILIES.has(b.attribute)) {
    const [na, nb] = [a.value, b.value].map((v) => valueContentTokens(v).join(' '));
    if (na === '' || nb === '') return 'unknown';
    return na === nb ? 'same' : 'different';
  }
  if (TEMPORAL_FAMILIES.has(a.attribute) || TEMPORAL_FAMILIES.has(b.attribute) || (isTemporal(a.value) && isTemporal(b.value))) {
    const temporal = compareTemporal(a.value, b.value);
    if (temporal !== 'unknown') return temporal;
  }
  const na = new Set(numbersIn(a.value));
  const nb = new Set(numbersIn(b.value));
  if (na.size > 0 && nb.size > 0 && !setsEqual(na, nb)) return 'different';
  const ta = valueTokens(a.value);
  const tb = valueTokens(b.value);
  // no word on a side is nothing to compare by, never a match (equal strings returned 'same' above)
  if (ta.size === 0 || tb.size === 0) return 'unknown';
  if (setsEqual(ta, tb) || specificSubset(ta, tb) || specificSubset(tb, ta)) return 'same';
  return 'different';
}

/** Do two different values lie along one dimension (a shared non-generic word: "dark mode" / "light mode")? */
export function shareDimension(a: ExtractedSlot, b: ExtractedSlot): boolean {
  const ta = withoutGenericHeads(valueTokens(a.value));
  const tb = valueTokens(b.value);
  // Only shared nouns count: "dark chocolate" / "dark mode" share a modifier, not a dimension.
  const adjectives = new Set(
    termsOf(a.value)
      .filter((t) => t.tags.has('Adjective'))
      .map((t) => t.text.toLowerCase()),
  );
  for (const t of ta) if (tb.has(t) && !/^\d/.test(t) && !GENERIC_HEADS.has(t) && !TIME_WORDS.has(t) && !adjectives.has(t)) return true;
  return false;
}

/** A bare number or clock time ("10", "9:30"): an hour, or an amount; never a day of a date. */
const BARE_NUMBER = /^\d{1,4}(?::\d{2})?$/;
/** A month or a weekday: the value names a date, whose number is a day. */
const DATE_WORD = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)(?:[a-z]*)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day/i;

/** Does a retracted value occur inside another slot's value ("API keys" in "API keys")? */
export function valueContains(container: ExtractedSlot, retracted: ExtractedSlot): boolean {
  // "not 10" (an hour) is not the day of "dec 10": a bare number retracts a date only when the date is that number
  if (BARE_NUMBER.test(retracted.value.trim()) && DATE_WORD.test(container.value)) return false;
  const inner = valueTokens(retracted.value);
  return inner.size > 0 && specificSubset(inner, valueTokens(container.value));
}

/**
 * The words of an attribute that name a thing: a free attribute's words, or the noun of a counted or
 * favourite family ("count engineer" → "engineer"); a family name itself ("when", "owner") names none.
 */
function topicWords(attribute: string): string[] {
  if (attribute === 'value') return [];
  const noun = /^(?:count|favourite) (.+)$/.exec(attribute.replace(/_/g, ' '))?.[1];
  if (noun !== undefined) return [...tokenSet(noun)];
  return isKnownFamily(attribute) ? [] : [...tokenSet(attribute.replace(/_/g, ' '))];
}

/**
 * Do two slots share a word of what they are about: their subjects, or the words of free attributes?
 * Unlike `keysOverlap`, a shared family name alone ("standup / when" and "dentist appointment / when") is
 * two different things with the same kind of value, not one thing.
 */
export function topicsOverlap(a: ExtractedSlot, b: ExtractedSlot): boolean {
  const ta = new Set([...tokenSet(a.subject), ...topicWords(a.attribute)]);
  for (const t of [...tokenSet(b.subject), ...topicWords(b.attribute)]) if (ta.has(t) && !GENERIC_HEADS.has(t)) return true;
  return false;
}

/** Do two slots share any subject or attribute word (a loose "about the same thing")? */
export function keysOverlap(a: ExtractedSlot, b: ExtractedSlot): boolean {
  const ka = keyTokens(a);
  const kb = new Set([...tokenSet(b.subject), ...tokenSet(b.attribute.replace(/_/g, ' '))]);
  for (const t of ka) if (kb.has(t) && !GENERIC_HEADS.has(t)) return true;
  return false;
}
