/**
 * Decides whether a new claim supersedes, agrees with, or coexists with an existing claim in the same scope.
 *
 * Both texts are read into slots (`analyzeClaim`); every (new slot, old slot) pair gets a verdict, the strongest
 * supersession wins, else agreement (when every asserted new slot is covered), else the text-level checks.
 * False supersession is worse than a miss: every supersession needs a slot-level reason or an explicit
 * retraction found in the old text, and the embedding similarity never decides alone.
 *
 * Thresholds and confidences (tuned on test/core/claims/pairs.ts and probe-pairs.ts, checked on heldout-pairs.ts):
 *
 *   Slot pairs (same subject = equal lemma sets, generic heads like "service"/"team" optional; same key = same
 *   subject and attribute, or equal subject+attribute word sets; related = same subject, attributes of one group)
 *   1. Retraction: the new claim names a value as gone ("from A to B", "replaced A", "instead of A", ", not A",
 *      "left A") and the old slot's value contains A, about the same key or a subject sharing a word (a
 *      shared attribute family alone, "standup / when" and "dentist / when", is not enough; a bare "10"
 *      is not the day of "dec 10")                                                          → supersedes 0.85
 *   History: a slot about a closed past period ("lived in Lisbon from 2019 to 2022") against the present or
 *      another period, same or related key (before rules 2-4)                              → compatible 0.60
 *   2. Negation: same key, same value, opposite polarity ("no longer", "not … anymore",
 *      "disabled" vs "enabled", "stopped driving")                                         → supersedes 0.85, 0.95 with a strong marker
 *   3. Same key, same value                                                                → agrees 0.85 (related attribute 0.70)
 *   4. Same key, different value:
 *      - additive marker ("also", "too", "as well", "another", "in addition")             → compatible
 *      - the new value is stated with a change verb (moved, switched, renamed, took over)  → supersedes 0.85
 *      - single-valued attribute (owner, location, name, schedule, role, "X is Y")       → supersedes 0.75 (+0.15 strong, +0.05 weak marker)
 *      - dimension attribute (prefers, uses, free verbs): strong marker                    → supersedes 0.75
 *        weak marker ("now") and the values share a noun ("dark mode" / "light mode")      → supersedes 0.70
 *      - multi-valued attribute (is-a, likes, speaks, has, member of): explicit correction
 *        ("correction:", "actually", "instead of")                                         → supersedes 0.65
 *      - related attribute: strong marker or a change verb ("pushed to Monday" / "starts on Friday"), or
 *        weak marker with a shared noun; never on the bare scope subject ("we") unless the values share
 *        a noun                                                                             → supersedes 0.60
 *      - a possessed thing that "is now" something else ("my car is now a red Tesla"; "is a" or "is")   → supersedes 0.85
 *   5. Unnamed change ("X switched to Y", no attribute): same subject, old value a tool/platform/"X is Y"
 *      value or on the same dimension, never on the bare scope subject alone               → supersedes 0.70
 *
 *   Departures (departure-rules.ts; before agreement, when no slot pair superseded): "left/quit/sold/gave up/
 *      moved off P", "moved from P", "was not P after all" with P stated by the old claim about the same
 *      subject → 0.75-0.80; a new holder of exactly the old claim's role → 0.80; "we switched to T" replacing
 *      the speaker's tool of the same kind (tool-kinds.ts) → 0.75
 *
 *   Text level (when no slot pair superseded or agreed)
 *   6. A negated or retracted phrase of the new claim occurs in the old text, and the new subject's specific
 *      words do too (or, for the scope subject, the verb does or word overlap ≥ 0.25); an old claim with a
 *      negation of its own must assert the phrase in a slot ("won't stay" twice retracts nothing) → supersedes 0.60
 *   7. Word overlap (Jaccard of stemmed content words) ≥ 0.60, or ≥ 0.45 with similarity ≥ 0.85; same numbers,
 *      same polarity (a "never"/"not" clause without a slot counts), no strong or additive marker, no
 *      same-family slots with different subjects, no noun the new wording adds ("…Biscuit is a beagle")   → agrees 0.60
 *   8. Word overlap ≥ 0.15 or a shared subject word                                       → compatible; otherwise unrelated
 *
 * A supersession below 0.55 is reported as compatible. The optional similarity (embedding cosine, 0..1) only
 * nudges confidence by ±0.05, lowers the bar of rule 7, and vetoes supersessions under 0.70 when it is below 0.20.
 */
import type { ClaimSlot } from '../../memory.js';
import { type ClaimAnalysis, claimAnalysisOf } from './claim-extractor.js';
import { type ClaimMarker, STRONG_MARKERS } from './clause-markers.js';
import { GENERIC_HEADS, intersects, isSubset, jaccard, lexicalTokens, numbersIn } from './claim-text.js';
import type { ExtractedSlot } from './extracted-slot.js';
import { isKnownFamily } from './attribute-families.js';
import { WHAT_IT_IS_RULES } from './copula-rules.js';
import { departureVerdict } from './departure-rules.js';
import { termsOf } from './pos-tags.js';
import { toolKindsIn } from './tool-kinds.js';
import { keyRelation, keysOverlap, sameSubject, shareDimension, topicsOverlap, valueContains, valueRelation } from './slot-matching.js';

/** How a new claim relates to an existing one. */
export type ClaimRelation = 'supersedes' | 'agrees' | 'compatible' | 'unrelated';

/** Options for `compareClaims`. */
export interface CompareClaimsOptions {
  /** Embedding cosine similarity of the two texts (0..1), if the caller has it. One signal among several. */
  similarity?: number;
}

/** The verdict, with the slots both sides were read as. */
export interface ClaimComparison {
  relation: ClaimRelation;
  /** 0..1. */
  confidence: number;
  /** One short sentence a person can check. */
  reason: string;
  newSlots: ClaimSlot[];
  oldSlots: ClaimSlot[];
}

const MIN_SUPERSEDE_CONFIDENCE = 0.55;
const LEXICAL_AGREE = 0.6;
const LEXICAL_AGREE_WITH_SIMILARITY = 0.45;
const SIMILARITY_FOR_AGREE = 0.85;
const SIMILARITY_VETO = 0.2;
const WEAK_SUPERSESSION = 0.7;
const LEXICAL_COMPATIBLE = 0.15;
const SCOPE_SUBJECT_OVERLAP = 0.1;
/** Rule 6 for the scope subject ("we"): the word overlap that stands in for a named subject. */
const SCOPE_SUBJECT_RETRACTION_OVERLAP = 0.25;
/** How far the similarity (0..1, centred on 0.5) moves a confidence: ±0.05 at the extremes. */
const SIMILARITY_NUDGE = 0.1;

/** The confidence of each verdict, named after the numbered rules above: one table to tune. */
const CONFIDENCE = {
  /** 1. the new claim retracts the old value. */
  retraction: 0.85,
  /** 2. same key and value, opposite polarity. */
  negation: 0.85,
  negationStrongMarker: 0.95,
  /** 3. same key, same value. */
  agrees: 0.85,
  agreesRelatedAttribute: 0.7,
  /** 4. same key, different value. */
  changeVerb: 0.85,
  singleValued: 0.75,
  strongMarkerBonus: 0.15,
  weakMarkerBonus: 0.05,
  singleValuedCeiling: 0.97,
  dimensionStrongMarker: 0.75,
  dimensionWeakMarker: 0.7,
  explicitCorrection: 0.65,
  relatedAttribute: 0.6,
  /** 5. an unnamed change ("X switched to Y"). */
  unnamedChange: 0.7,
  /** 6. a retracted phrase of the new claim stands in the old text. */
  textRetraction: 0.6,
  /** 7. near-identical wording. */
  lexicalAgreement: 0.6,
  /** Both can hold: an additive marker, or several values of one attribute. */
  additive: 0.8,
  compatible: 0.6,
  /** No evidence either way. */
  undecided: 0.5,
  /** No verdict is certain. */
  ceiling: 0.99,
} as const;

interface Verdict {
  relation: Exclude<ClaimRelation, 'unrelated'>;
  confidence: number;
  reason: string;
}

interface Signals {
  strong: boolean;
  weak: boolean;
  additive: boolean;
  explicitCorrection: boolean;
}

function signalsOf(markers: ReadonlySet<ClaimMarker>): Signals {
  return {
    strong: [...markers].some((m) => STRONG_MARKERS.has(m)),
    weak: markers.has('now') || markers.has('update'),
    additive: markers.has('additive'),
    explicitCorrection: markers.has('correction') || markers.has('actually') || markers.has('instead'),
  };
}

const describe = (s: ExtractedSlot): string => `${s.subject || '(scope)'} / ${s.attribute} / ${s.value}`;

/** The stricter reading of two cardinalities: multi if either is multi, single only if both are. */
function cardinality(a: ExtractedSlot, b: ExtractedSlot): ExtractedSlot['cardinality'] {
  if (a.cardinality === 'multi' || b.cardinality === 'multi') return 'multi';
  return a.cardinality === 'single' && b.cardinality === 'single' ? 'single' : 'dimension';
}

/** Are both values tools of one kind ("chrome" / "firefox": browsers)? */
function sameToolKind(a: string, b: string): boolean {
  const kinds = toolKindsIn(a);
  return [...toolKindsIn(b).keys()].some((kind) => kinds.has(kind));
}

/** Verdict for a value change on a matching key, or undefined when it is not a supersession. */
function changedValueVerdict(n: ExtractedSlot, o: ExtractedSlot, related: boolean, s: Signals): Verdict | undefined {
  const what = `${describe(o)} → ${n.value}`;
  if (related) {
    // The scope subject ("we") relates everything; there the values must share a dimension too.
    // So does the speaker ("I use Chrome" / "I switched to oat milk"), unless the values are tools of one kind.
    const aboutOneThing = (n.subject !== '' && n.subject !== 'user') || shareDimension(n, o) || sameToolKind(n.value, o.value);
    // "the deploy freeze was pushed to Monday" against "… starts on Friday": a change verb moves the named thing
    const changeVerb = n.change && n.subject !== '' && !WHAT_IT_IS_RULES.has(n.rule);
    if ((s.strong || changeVerb) && aboutOneThing)
      return { relation: 'supersedes', confidence: CONFIDENCE.relatedAttribute, reason: `change marker on a related attribute: ${what}` };
    if (s.weak && n.subject !== '' && shareDimension(n, o)) {
      return {
        relation: 'supersedes',
        confidence: CONFIDENCE.relatedAttribute,
        reason: `now-marker on a related attribute, same dimension: ${what}`,
      };
    }
    return undefined;
  }
  if (n.change) return { relation: 'supersedes', confidence: CONFIDENCE.changeVerb, reason: `stated as a change: ${what}` };
  switch (cardinality(n, o)) {
    case 'single':
      return {
        relation: 'supersedes',
        confidence: Math.min(
          CONFIDENCE.singleValuedCeiling,
          CONFIDENCE.singleValued + (s.strong ? CONFIDENCE.strongMarkerBonus : 0) + (s.weak ? CONFIDENCE.weakMarkerBonus : 0),
        ),
        reason: `single-valued attribute changed: ${what}`,
      };
    case 'dimension':
      if (s.strong) return { relation: 'supersedes', confidence: CONFIDENCE.dimensionStrongMarker, reason: `change marker on ${what}` };
      if (s.weak && shareDimension(n, o))
        return { relation: 'supersedes', confidence: CONFIDENCE.dimensionWeakMarker, reason: `now-marker, same dimension: ${what}` };
      return undefined;
    case 'multi':
      return s.explicitCorrection
        ? { relation: 'supersedes', confidence: CONFIDENCE.explicitCorrection, reason: `explicit correction of ${what}` }
        : undefined;
  }
}

/** Attributes an unnamed change ("X switched to Y") may refer to: what a thing is, uses or runs on. */
function unnamedChangeTarget(attribute: string): boolean {
  return ['value', 'tool', 'uses', 'platform', 'host'].includes(attribute);
}

/**
 * "My car is now a red Tesla" against "My car is a blue Toyota Corolla" (or "… is MacBook Air" against
 * "… is a ThinkPad X1"): a possessed thing stated anew with "now" (the only way a copula slot carries a
 * change, see claim-extractor.ts) replaces what the old claim said it is, whichever copula named it.
 */
function thingChangedVerdict(n: ExtractedSlot, o: ExtractedSlot): Verdict | undefined {
  if (!n.change || !WHAT_IT_IS_RULES.has(n.rule) || !WHAT_IT_IS_RULES.has(o.rule) || n.negated || o.negated) return undefined;
  if (n.subject === '' || !sameSubject(n.subject, o.subject) || valueRelation(n, o) !== 'different') return undefined;
  return { relation: 'supersedes', confidence: CONFIDENCE.changeVerb, reason: `now "${n.value}", no longer ${describe(o)}` };
}

/**
 * "X switched to Y" / "X was upgraded to Y" names no attribute: it replaces an old value of the same subject
 * that is a tool, platform or preference, or that lies on the same dimension ("PostgreSQL 13" → "PostgreSQL 15").
 */
function unnamedChangeVerdict(n: ExtractedSlot, o: ExtractedSlot): Verdict | undefined {
  if (!n.change || n.attribute !== 'value' || WHAT_IT_IS_RULES.has(n.rule) || n.negated || o.negated) return undefined;
  if (!sameSubject(n.subject, o.subject) || valueRelation(n, o) !== 'different') return undefined;
  const sameDimension = shareDimension(n, o);
  if (!sameDimension && (n.subject === '' || o.cardinality === 'multi' || !unnamedChangeTarget(o.attribute))) return undefined;
  return { relation: 'supersedes', confidence: CONFIDENCE.unnamedChange, reason: `change to "${n.value}" replaces ${describe(o)}` };
}

/**
 * Slots about different times: history ("lived in Lisbon from 2019 to 2022") against the present ("lives in
 * Porto"), or two different closed periods. Both can hold, whatever their values.
 */
function differentTimes(n: ExtractedSlot, o: ExtractedSlot): Verdict | undefined {
  // a flat denial ("I never lived in Lisbon") covers every time
  if (n.period === o.period || (n.negated && n.period === undefined)) return undefined;
  const when = (x: ExtractedSlot): string => x.period ?? 'now';
  return {
    relation: 'compatible',
    confidence: CONFIDENCE.compatible,
    reason: `about another time (${when(n)} / ${when(o)}): ${describe(n)} alongside ${describe(o)}`,
  };
}

/** Verdict for one (new slot, old slot) pair, or undefined when the slots are about different things. */
function pairVerdict(n: ExtractedSlot, o: ExtractedSlot, s: Signals): Verdict | undefined {
  const key = keyRelation(n, o);
  if (key !== 'none' && !n.retract) {
    const times = differentTimes(n, o);
    if (times) return times;
  }
  if (n.retract) {
    // about the same thing: the same key, a shared subject word, or a correction of the speaker's own (no
    // subject); sharing only the kind of value ("standup / when" and "dentist appointment / when") is not
    const about = key !== 'none' || topicsOverlap(n, o) || n.subject === '';
    if (!o.negated && about && valueContains(o, n)) {
      return { relation: 'supersedes', confidence: CONFIDENCE.retraction, reason: `retracts "${n.value}" asserted by ${describe(o)}` };
    }
    return undefined;
  }
  if (key === 'none') return thingChangedVerdict(n, o) ?? unnamedChangeVerdict(n, o);
  const values = valueRelation(n, o);
  if (n.negated !== o.negated) {
    if (values === 'same') {
      return {
        relation: 'supersedes',
        confidence: s.strong ? CONFIDENCE.negationStrongMarker : CONFIDENCE.negation,
        reason: `negates ${describe(o)}`,
      };
    }
    return { relation: 'compatible', confidence: CONFIDENCE.compatible, reason: `negation of a different value than ${describe(o)}` };
  }
  if (values === 'same') {
    return {
      relation: 'agrees',
      confidence: key === 'same' ? CONFIDENCE.agrees : CONFIDENCE.agreesRelatedAttribute,
      reason: `restates ${describe(o)}`,
    };
  }
  if (values === 'unknown' || n.negated) {
    return { relation: 'compatible', confidence: CONFIDENCE.undecided, reason: `same slot, values not comparable: ${describe(o)}` };
  }
  if (s.additive)
    return { relation: 'compatible', confidence: CONFIDENCE.additive, reason: `additive marker: ${describe(n)} alongside ${describe(o)}` };
  return (
    changedValueVerdict(n, o, key === 'related', s) ?? {
      relation: 'compatible',
      confidence: CONFIDENCE.compatible,
      reason: `${n.attribute} holds several values: ${describe(n)} alongside ${describe(o)}`,
    }
  );
}

/** Lexical tokens without generic heads ("billing service" → "billing"), unless nothing else is left. */
function specific(tokens: Set<string>): Set<string> {
  const kept = new Set([...tokens].filter((t) => !GENERIC_HEADS.has(t)));
  return kept.size > 0 ? kept : tokens;
}

function hasNegation(a: ClaimAnalysis): boolean {
  return a.slots.some((s) => s.negated && !s.retract) || a.markers.has('no-longer') || a.negatedWithoutSlot;
}

/** Text-level retraction: a phrase the new claim negates or retracts occurs in the old claim, about the same subject. */
function textRetraction(newA: ClaimAnalysis, oldA: ClaimAnalysis): Verdict | undefined {
  const oldTokens = lexicalTokens(oldA.text);
  const overlap = jaccard(lexicalTokens(newA.text), oldTokens);
  const retractions = [
    ...newA.slots.filter((x) => x.negated || x.retract).map((x) => ({ value: x.value, subject: x.subject, attribute: x.attribute })),
    ...newA.retracted.map((value) => ({ value, subject: '', attribute: '' })),
  ];
  // An old claim with a negation of its own may state the phrase only under it ("Gina: can't stay for the
  // concert"): saying again that it is not so retracts nothing. There the phrase must be in what it asserts.
  const oldAsserted = hasNegation(oldA)
    ? lexicalTokens(
        oldA.slots
          .filter((x) => !x.negated)
          .map((x) => `${x.subject} ${x.attribute.replace(/_/g, ' ')} ${x.value}`)
          .join(' '),
      )
    : oldTokens;
  for (const r of retractions) {
    const phrase = lexicalTokens(r.value);
    if (!isSubset(phrase, oldAsserted)) continue;
    const subject = lexicalTokens(r.subject);
    const aboutIt =
      subject.size === 0
        ? overlap >= SCOPE_SUBJECT_RETRACTION_OVERLAP || intersects(lexicalTokens(r.attribute), oldTokens)
        : isSubset(specific(subject), oldTokens);
    if (isSubset(phrase, oldTokens) && aboutIt) {
      return {
        relation: 'supersedes',
        confidence: CONFIDENCE.textRetraction,
        reason: `the old claim states "${r.value}", which the new one retracts`,
      };
    }
  }
  return undefined;
}

/** Wording-level fallback when no slot pair decided: near-identical wording agrees, some overlap is compatible. */
function lexicalVerdict(newA: ClaimAnalysis, oldA: ClaimAnalysis, s: Signals, similarity?: number): Verdict | undefined {
  const overlap = jaccard(lexicalTokens(newA.text), lexicalTokens(oldA.text));
  const numbersMatch = numbersIn(newA.text).sort().join() === numbersIn(oldA.text).sort().join();
  const bar = similarity !== undefined && similarity >= SIMILARITY_FOR_AGREE ? LEXICAL_AGREE_WITH_SIMILARITY : LEXICAL_AGREE;
  // Slots that already tell the claims apart: the same family about different subjects, or different values
  // about the same subject ("the demo went well" / "the demo is on Friday").
  const distinctSubjects = newA.slots.some((n) =>
    oldA.slots.some(
      (o) =>
        (n.attribute === o.attribute && n.attribute !== 'value' && isKnownFamily(n.attribute) && !sameSubject(n.subject, o.subject)) ||
        (n.subject !== '' && sameSubject(n.subject, o.subject) && valueRelation(n, o) === 'different'),
    ),
  );
  const sameStance = hasNegation(newA) === hasNegation(oldA) && !s.strong && !s.additive;
  if (overlap >= bar && numbersMatch && sameStance && !distinctSubjects) {
    return {
      relation: 'agrees',
      confidence: CONFIDENCE.lexicalAgreement,
      reason: `near-identical wording (overlap ${overlap.toFixed(2)})`,
    };
  }
  const shared = newA.slots.some((n) => oldA.slots.some((o) => keysOverlap(n, o)));
  if (overlap >= LEXICAL_COMPATIBLE || shared) {
    return {
      relation: 'compatible',
      confidence: CONFIDENCE.undecided,
      reason: `related wording, no conflicting slot (overlap ${overlap.toFixed(2)})`,
    };
  }
  return undefined;
}

/** Applies the similarity nudge and veto, and the minimum supersession confidence. */
function finalize(v: Verdict, similarity: number | undefined): Verdict {
  let confidence = v.confidence;
  if (similarity !== undefined) {
    if (v.relation === 'supersedes' && confidence < WEAK_SUPERSESSION && similarity < SIMILARITY_VETO) {
      return { relation: 'compatible', confidence: CONFIDENCE.undecided, reason: `${v.reason} (vetoed: texts are dissimilar)` };
    }
    confidence = Math.max(0, Math.min(CONFIDENCE.ceiling, confidence + (similarity - 0.5) * SIMILARITY_NUDGE));
  }
  if (v.relation === 'supersedes' && confidence < MIN_SUPERSEDE_CONFIDENCE) {
    return { relation: 'compatible', confidence: CONFIDENCE.undecided, reason: `${v.reason} (below the supersession bar)` };
  }
  return { ...v, confidence: Number(confidence.toFixed(3)) };
}

const toClaimSlot = ({ subject, attribute, value, negated }: ExtractedSlot): ClaimSlot => ({ subject, attribute, value, negated });

/**
 * The nouns or numbers one text has where the other has different ones ("Jonas asked…" / "Bilal asked…",
 * "a whippet puppy" / "a dachshund puppy"): the same sentence about a different thing is a different fact,
 * however much wording the two share. A paraphrase swaps verbs and function words, not the things named.
 * Words of slots that were compared and agreed are not counted, nor spelling variants.
 */
function substitutedNoun(newA: ClaimAnalysis, oldA: ClaimAnalysis, slotsCompared: boolean): string | undefined {
  const newTokens = lexicalTokens(newA.text);
  const oldTokens = lexicalTokens(oldA.text);
  const onlyNew = [...newTokens].filter((t) => !oldTokens.has(t));
  const onlyOld = [...oldTokens].filter((t) => !newTokens.has(t));
  if (onlyNew.length === 0 || onlyOld.length === 0) return undefined;
  const nounOf = (analysis: ClaimAnalysis, only: readonly string[], other: readonly string[]): string | undefined => {
    const inSlots = slotsCompared
      ? lexicalTokens(analysis.slots.map((x) => `${x.subject} ${x.attribute.replace(/_/g, ' ')} ${x.value}`).join(' '))
      : new Set<string>();
    const wanted = new Set(only.filter((t) => !inSlots.has(t) && !other.some((o) => nearlySame(t, o))));
    if (wanted.size === 0) return undefined;
    for (const term of termsOf(analysis.text)) {
      if (!term.tags.has('Noun') && !term.tags.has('Value') && !/\d/.test(term.text)) continue;
      if ([...lexicalTokens(term.text)].some((t) => wanted.has(t))) return term.text;
    }
    return undefined;
  };
  const mine = nounOf(newA, onlyNew, onlyOld);
  const theirs = nounOf(oldA, onlyOld, onlyNew);
  return mine !== undefined && theirs !== undefined ? `${theirs} → ${mine}` : undefined;
}

/**
 * A noun or number the new wording names that the old one does not ("Alice's dog Biscuit is a beagle" /
 * "Alice's dog is called Biscuit": beagle): near-identical wording that says more is a new fact, not a
 * restatement. Spelling variants do not count.
 */
function addedNoun(newA: ClaimAnalysis, oldA: ClaimAnalysis): string | undefined {
  const oldTokens = [...lexicalTokens(oldA.text)];
  const added = new Set([...lexicalTokens(newA.text)].filter((t) => !oldTokens.includes(t) && !oldTokens.some((o) => nearlySame(t, o))));
  if (added.size === 0) return undefined;
  for (const term of termsOf(newA.text)) {
    if (!term.tags.has('Noun') && !term.tags.has('Value') && !/\d/.test(term.text)) continue;
    if ([...lexicalTokens(term.text)].some((t) => added.has(t))) return term.text;
  }
  return undefined;
}

/** Spelling variants ("favorite" / "favourite"): one edit apart, five letters or more. */
function nearlySame(a: string, b: string): boolean {
  if (Math.min(a.length, b.length) < 5 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const rest = (x: string, skip: number): string => x.slice(i + skip);
  return rest(a, 1) === rest(b, 1) || rest(a, 1) === rest(b, 0) || rest(a, 0) === rest(b, 1);
}

/**
 * Compares a new claim with an existing current claim of the same scope.
 * @example
 * compareClaims('The deploy target moved from staging to production.', 'The deploy target is staging.').relation;
 * // 'supersedes'
 * compareClaims('The payments team also owns the refunds service.', 'Billing is owned by the payments team.').relation;
 * // 'compatible'
 */
export function compareClaims(newText: string, oldText: string, options: CompareClaimsOptions = {}): ClaimComparison {
  const newA = claimAnalysisOf(newText);
  const oldA = claimAnalysisOf(oldText);
  const signals = signalsOf(newA.markers);
  const verdicts: Verdict[] = [];
  const matchedNew = new Set<ExtractedSlot>();
  // Two claims about the scope itself (no subject: "it is at reception", "moves them to Glacier") share
  // a subject only nominally; without a shared word they are about different things.
  let textOverlap: number | undefined; // computed only for claims about an unnamed subject
  const unrelatedUnnamed = (n: ExtractedSlot, o: ExtractedSlot): boolean =>
    n.subject === '' &&
    o.subject === '' &&
    !shareDimension(n, o) &&
    (textOverlap ??= jaccard(lexicalTokens(newText), lexicalTokens(oldText))) < SCOPE_SUBJECT_OVERLAP;
  let differing: string | undefined;
  for (const n of newA.slots) {
    for (const o of oldA.slots) {
      let v = pairVerdict(n, o, signals);
      if (!v) continue;
      if (v.relation === 'supersedes' && unrelatedUnnamed(n, o)) {
        v = {
          relation: 'compatible',
          confidence: CONFIDENCE.undecided,
          reason: `${v.reason} (no shared wording about an unnamed subject)`,
        };
      }
      verdicts.push(v);
      matchedNew.add(n);
      // a value one side negates or retracts is not a value the other side differs on ("moved from A to B" twice)
      if (
        v.relation === 'compatible' &&
        differing === undefined &&
        n.negated === o.negated &&
        keyRelation(n, o) === 'same' &&
        valueRelation(n, o) === 'different'
      )
        differing = `${describe(o)} / ${n.value}`;
    }
  }
  const best = (relation: Verdict['relation']): Verdict | undefined =>
    verdicts.filter((v) => v.relation === relation).sort((a, b) => b.confidence - a.confidence)[0];

  let verdict = best('supersedes') ?? departureVerdict(newText, oldText);
  const agree = verdict === undefined ? best('agrees') : undefined;
  if (!verdict) {
    const extra = newA.slots.find((n) => !n.negated && !n.retract && !matchedNew.has(n));
    if (agree && extra) {
      verdict = { relation: 'compatible', confidence: CONFIDENCE.compatible, reason: `${agree.reason}, and adds ${describe(extra)}` };
    } else if (agree && differing !== undefined) {
      // "Vera is recovering from a sprained ankle…" / "…from a dislocated finger…": one slot agrees, another differs.
      verdict = { relation: 'compatible', confidence: CONFIDENCE.compatible, reason: `${agree.reason}, but ${differing} differs` };
    } else {
      verdict = agree ?? textRetraction(newA, oldA) ?? best('compatible') ?? lexicalVerdict(newA, oldA, signals, options.similarity);
    }
  }
  if (verdict?.relation === 'agrees') {
    // Slot-level agreement compared the slots' words already; wording-level agreement compared none.
    const swapped = substitutedNoun(newA, oldA, verdict === agree);
    const added = swapped === undefined && verdict !== agree ? addedNoun(newA, oldA) : undefined;
    if (swapped !== undefined)
      verdict = {
        relation: 'compatible',
        confidence: CONFIDENCE.compatible,
        reason: `${verdict.reason}, but about something else (${swapped})`,
      };
    else if (added !== undefined)
      // merging would keep the old wording as current and the new fact only in its history
      verdict = { relation: 'compatible', confidence: CONFIDENCE.compatible, reason: `${verdict.reason}, but adds "${added}"` };
  }
  const slots = { newSlots: newA.slots.map(toClaimSlot), oldSlots: oldA.slots.map(toClaimSlot) };
  if (!verdict)
    return { relation: 'unrelated', confidence: CONFIDENCE.undecided, reason: 'no shared subject, attribute or wording', ...slots };
  return { ...finalize(verdict, options.similarity), ...slots };
}
