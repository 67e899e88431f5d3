/**
 * Rule-based extraction of claim slots (subject / attribute / value, negated) from a statement.
 * Pipeline per clause: markers out ("correction:", "no longer", "also") → pronoun and ellipsis
 * resolution → fixed-verb rules → copula → any verb. No dictionary of entities: subjects and values
 * are the phrases as written, normalised.
 */
import type { ClaimSlot } from '../../memory.js';
import { hasCjk } from '../../text/cjk.js';
import { CHINESE_RULES, trimChineseClause } from './chinese-rules.js';
import { RULES } from './claim-patterns.js';
import { type ClaimMarker, markClause, splitClauses } from './clause-markers.js';
import { copulaSlots, isPossessedThing, namesWhatItIs, verbSlots, WHAT_IT_IS_RULES } from './copula-rules.js';
import { type ExtractedSlot, keyRawSlot, makeSlot } from './extracted-slot.js';
import { OMITTED_SPEAKER } from './departure-rules.js';
import { normalizeSubject } from './noun-phrase.js';
import { firstVerbIndex, termsOf } from './pos-tags.js';
import { splitClosedPeriod } from './temporal.js';

/** Everything extraction found in one statement. */
export interface ClaimAnalysis {
  text: string;
  slots: ExtractedSlot[];
  /** Discourse markers over all clauses ("correction", "no-longer", "additive", …). */
  markers: Set<ClaimMarker>;
  /** Values some clause retracts without a slot to attach them to. */
  retracted: string[];
  /** Some clause is negated ("never", "not") but yields no slot to carry it: the stance is in the text alone. */
  negatedWithoutSlot: boolean;
}

/** A value that points back to an earlier clause's value. */
const BACK_REFERENCE = /^(?:there|here|it|them|that|this)$/i;
const PRONOUN_START = /^(it|they|he|she|this|that|these|those)\b\s*/i;
const ELLIPSIS = /^(.+?) (is|are|was|were|does|do|did|has|have|will)$/i;
const PREDICATE = /^.+? (?:is|are|was|were|has|have|will be|does|do) (.+)$/i;

/** "Deploy target: production" is a note-style copula. */
const LABELLED = /^([^:]{2,60}?)\s*[:=]\s+(.+)$/;

/** Reads a clause with Chinese characters by the Chinese shapes; undefined when none matches. */
function chineseSlots(clause: string): ExtractedSlot[] | undefined {
  const text = trimChineseClause(clause);
  for (const rule of CHINESE_RULES) {
    const m = rule.re.exec(text);
    const raw = m ? rule.build(Array.from(m, (g) => g ?? '')) : undefined;
    if (raw !== undefined) return raw.filter((r) => r.value.trim() !== '').map(keyRawSlot);
  }
  return undefined;
}

/** Runs the rule cascade on one marker-free clause. */
function slotsForClause(clause: string): ExtractedSlot[] {
  const chinese = hasCjk(clause) ? chineseSlots(clause) : undefined;
  if (chinese !== undefined && chinese.length > 0) return chinese;
  const labelled = LABELLED.exec(clause);
  if (labelled?.[1] && labelled[2] && !/\b(?:is|are|was|were|has|have)\b/i.test(labelled[1])) {
    // "Budget request: the security team wants $57k" is a heading over a clause with its own subject;
    // only a bare value ("Deploy target: production") makes the label the subject.
    const body = labelled[2];
    // "Heads-up from Jamal: they are moving…", "Action item for Lucia: book…": the label names who.
    const named = LABEL_NAME.exec(labelled[1])?.[1];
    if (isImperative(body))
      return [
        makeSlot({
          subject: named ? normalizeSubject(named) : normalizeSubject(labelled[1]),
          attribute: 'todo',
          value: body,
          cardinality: 'multi',
          rule: 'labelled-todo',
        }),
      ];
    if (isClause(body)) {
      const inner = slotsForClause(named ? body.replace(PRONOUN_START, `${named} `) : body);
      if (inner.length > 0) return inner;
    }
    return copulaSlots(`${labelled[1]} is ${body}`) ?? [];
  }
  for (const rule of RULES) {
    const m = rule.re.exec(clause);
    if (!m) continue;
    const raw = rule.build(Array.from(m, (g) => g ?? ''));
    if (raw === undefined) continue;
    return raw.filter((r) => r.value.trim() !== '' || r.negated).map(keyRawSlot);
  }
  return copulaSlots(clause) ?? verbSlots(clause) ?? [];
}

/**
 * "I lived in Lisbon from 2019 to 2022": a past-tense clause about a closed period is history. Its slots are
 * read without the period (value "lisbon", not "lisbon from 2019 to 2022") and carry it. A change
 * ("moved to Porto in 2019 …") or a clause that is only its period is left to the usual cascade.
 */
function slotsForHistory(clause: string): ExtractedSlot[] | undefined {
  const split = splitClosedPeriod(clause);
  if (!split) return undefined;
  const found = slotsForClause(split.rest);
  if (found.length === 0 || found.some((s) => s.change || s.retract || s.value === '')) return undefined;
  for (const s of found) s.period = split.period;
  return found;
}

/** A person named in a label: "Update from Idris", "Action item for Lucia". */
const LABEL_NAME = /\b(?:from|for|by)\s+([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)\s*$/;

/** A body that starts with a bare verb ("book the offsite venue by Monday"): a to-do, one of many. */
function isImperative(text: string): boolean {
  const first = termsOf(text)[0]?.tags;
  return first !== undefined && first.has('Verb') && (first.has('Imperative') || first.has('Infinitive')) && !first.has('Noun');
}

/** A phrase of several words with a verb after its first word: a clause, not a bare value. */
function isClause(text: string): boolean {
  const terms = termsOf(text);
  return terms.length >= 3 && firstVerbIndex(terms) > 0;
}

const CONJOINED = /\s+and\s+(?=(?:now|then|also|later|since|has|have|had|is|was|will|\w+ed|\w+s)\b)/i;

/**
 * "The user left Google and now works at Stripe" → two clauses sharing the subject, when what follows
 * "and" starts with a verb (so "likes cats and dogs" stays whole). So are "I live in Lisbon and work as a
 * nurse", "I live in Lisbon, work as a nurse and drive a Tesla" and "I live in Lisbon and I work as a
 * nurse" (`coordinatedClause`): without the split, "lisbon and work as a nurse" was one location, and a
 * move superseded the job with it.
 */
function splitConjoinedPredicates(clause: string, depth = 0): string[] {
  if (clause.length > MAX_CLAIM_CLAUSE_CHARS || depth >= MAX_JOINED_PREDICATES) return [clause];
  const at = CONJOINED.exec(clause);
  if (at) {
    const first = clause.slice(0, at.index);
    const second = clause.slice(at.index + at[0].length);
    const predicate = second.replace(/^(?:now|then|also|later|since)\s+/i, '');
    const subject = leadingSubject(first);
    if (!subject || !termsOf(predicate)[0]?.tags.has('Verb')) return [clause];
    return [first, ...splitConjoinedPredicates(`${subject} ${second}`, depth + 1)];
  }
  let tried = 0;
  for (const join of clause.matchAll(PREDICATE_JOIN)) {
    // each try tags the text before it: a list of many commas is not read to its end
    if ((tried += 1) > MAX_JOINED_PREDICATES) break;
    const first = clause.slice(0, join.index);
    const next = coordinatedClause(first, clause.slice(join.index + join[0].length));
    if (next !== undefined) return [first, ...splitConjoinedPredicates(next, depth + 1)];
  }
  return [clause];
}

/**
 * A clause longer than this (some 70 words without a full stop) is prose or a paste, not a statement of
 * a fact: it carries no claim and is not split. Tagging it again at every "and" cost time that grew
 * with the square of its length ("… and is and is …": 2,000 characters took 4-8 s to write).
 */
const MAX_CLAIM_CLAUSE_CHARS = 400;
/** How many predicates one clause is split into at most. */
const MAX_JOINED_PREDICATES = 8;

/**
 * "and", a comma or ", and" before a lower-case word or "I", or a comma before a capital: where a second
 * predicate or a clause with its own subject may start.
 */
const PREDICATE_JOIN = /(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?=\p{Ll}|I\s)|\s*,\s*(?=\p{Lu})/gu;

/**
 * Words that open a clause's own subject: a definite determiner, a possessive or a personal pronoun. Not
 * "a"/"an": "X's fridge broke and a repair visit is booked for Friday" introduces a new thing, which is
 * no slot of its own (every such visit would be the same "repair visit", each superseding the last).
 */
const SUBJECT_START = /^(?:the|my|our|your|his|her|their|its|this|that|these|those|we|he|she|they|it)\s/i;

/**
 * "… , Marcus moved to the platform team", "… , the job is called ledger-main": after a comma, a clause
 * with a subject of its own (a determiner or pronoun, or a capitalised name, then a verb) is a second
 * statement, not more of the first one's value ("my car is a Civic, the check engine light is on").
 */
function ownSubjectClause(second: string): boolean {
  if (!SUBJECT_START.test(second) && !/^\p{Lu}/u.test(second)) return false;
  const terms = termsOf(second);
  const verb = firstVerbIndex(terms);
  return terms.length >= 3 && verb > 0 && !terms[0]?.tags.has('Verb');
}

/**
 * The clause that `second` makes after `first`, or undefined when it continues `first`'s value: its own
 * clause when it opens with "I" and a verb ("… and I work as a nurse"), else `first`'s subject before it
 * when its first word is a verb in the same tense as `first`'s ("I live in Lisbon and work as a nurse").
 * A gerund ("I like hiking, swimming and running") or a tense that differs ("I bought eggs and milk from
 * the store": "milk" tags as a verb) continues the value.
 */
function coordinatedClause(first: string, second: string): string | undefined {
  const firstTerms = termsOf(first);
  const firstVerb = firstVerbIndex(firstTerms);
  if (firstTerms.length < 3 || firstVerb <= 0) return undefined;
  if (/^I\s/.test(second)) return isClause(second) ? second : undefined;
  if (ownSubjectClause(second)) return second;
  if (/^\p{Lu}/u.test(second)) return undefined;
  const subject = leadingSubject(first);
  if (subject === undefined) return undefined;
  const joined = `${subject} ${second}`;
  const verb = termsOf(joined)[termsOf(subject).length]?.tags;
  if (verb === undefined || !verb.has('Verb') || verb.has('Gerund') || verb.has('Auxiliary') || verb.has('Copula')) return undefined;
  return tenseOf(verb) === tenseOf(firstTerms[firstVerb]?.tags) ? joined : undefined;
}

function tenseOf(tags: ReadonlySet<string> | undefined): string | undefined {
  if (tags?.has('PastTense')) return 'past';
  return tags?.has('PresentTense') ? 'present' : undefined;
}

/** The leading noun phrase of a clause, used to resolve "it"/"they" in the next one. */
function leadingSubject(clause: string): string | undefined {
  const terms = termsOf(clause);
  const index = firstVerbIndex(terms);
  const first = index > 0 ? terms[index]?.text : undefined;
  const at = first ? clause.toLowerCase().indexOf(` ${first.toLowerCase()}`) : -1;
  if (at > 0) return clause.slice(0, at).trim();
  return /^(.+?) (?:is|are|was|were|has|have|had|will|does|do|did|can|should)\b/i.exec(clause)?.[1];
}

/**
 * Extracts the claims a statement makes, with markers and retractions.
 * @example
 * const analysis = analyzeClaim('The deploy target moved from staging to production.');
 * analysis.slots[0]; // { subject: '', attribute: 'deploy_target', value: 'production', ... }
 */
export function analyzeClaim(text: string): ClaimAnalysis {
  const slots: ExtractedSlot[] = [];
  const markers = new Set<ClaimMarker>();
  const retracted: string[] = [];
  let negatedWithoutSlot = false;
  let previousSubject: string | undefined;
  let previousPredicate: string | undefined;

  for (const raw of splitClauses(text).flatMap((clause) => splitConjoinedPredicates(clause))) {
    if (raw.length > MAX_CLAIM_CLAUSE_CHARS) continue;
    const marked = markClause(raw);
    for (const m of marked.markers) markers.add(m);
    let clause = marked.text;
    // "Traded in the civic!", "Switched to Firefox": a change said without its "I" is the speaker's
    if (OMITTED_SPEAKER.test(clause)) clause = `I ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
    if (previousSubject && PRONOUN_START.test(clause)) clause = clause.replace(PRONOUN_START, `${previousSubject} `);
    const ellipsis = ELLIPSIS.exec(clause);
    if (ellipsis?.[1] && previousPredicate) clause = `${ellipsis[1]} ${ellipsis[2]} ${previousPredicate}`;

    const found = slotsForHistory(clause) ?? slotsForClause(clause);
    // "I have a new manager called Bob": the marker took "new" out of the clause, and what it named is
    // stated as a change, not as one more of several ("a manager called Tom" names one of several)
    if (marked.markers.has('changed')) for (const s of found) if (s.rule === 'called') s.change = true;
    // "My car is now a red Tesla": a thing someone has is one thing, and what it now is replaces what it was
    if (marked.markers.has('now') && isPossessedThing(clause) && namesWhatItIs(clause))
      for (const s of found) if (WHAT_IT_IS_RULES.has(s.rule)) s.change = true;
    const asserted = found.filter((s) => !s.retract);
    if (marked.negated) for (const s of asserted) s.negated = !s.negated;
    if (marked.negated && asserted.length === 0) negatedWithoutSlot = true;
    const anchor = asserted[0] ?? found[0];
    for (const value of marked.retracted) {
      if (anchor) {
        slots.push(makeSlot({ ...anchor, value, negated: true, retract: true, rule: 'retracted' }));
      } else {
        retracted.push(value);
      }
    }

    // "I moved to Lisbon in 2019 and lived there until 2022": the period closes what "there" points back to
    const history = found.find((s) => s.period !== undefined && BACK_REFERENCE.test(s.value));
    const earlier = history && slots.findLast((s) => !s.retract && s.period === undefined && s.subject === history.subject);
    if (history && earlier) {
      earlier.period = history.period;
      earlier.change = false;
      found.splice(found.indexOf(history), 1);
    }
    slots.push(...found);

    previousSubject = leadingSubject(clause) ?? previousSubject;
    previousPredicate = PREDICATE.exec(clause)?.[1] ?? previousPredicate;
  }
  return { text, slots, markers, retracted, negatedWithoutSlot };
}

/**
 * The clauses a statement's claims are read from, each a statement of its own ("Alice lives in Berlin.
 * She works at SAP." → "Alice lives in Berlin", "Alice works at SAP"), in order; "he" or "she" opening a
 * clause after a named person is that person.
 */
export function claimClauses(text: string): string[] {
  const clauses: string[] = [];
  let previousSubject: string | undefined;
  for (const raw of splitClauses(text).flatMap((clause) => splitConjoinedPredicates(clause))) {
    // "Alice lives in Berlin. She works at SAP." → "She" is Alice; any other pronoun stays as written
    // ("It is red" after "I drive a Tesla" is not about the user)
    const named = previousSubject !== undefined && PERSON_NAME.test(previousSubject);
    const clause =
      named && PERSONAL_PRONOUN_START.test(raw) ? raw.replace(PERSONAL_PRONOUN_START, `${previousSubject} `).trim() : raw.trim();
    if (clause.length > 0) clauses.push(clause);
    if (clause.length <= MAX_CLAIM_CLAUSE_CHARS) previousSubject = leadingSubject(clause) ?? previousSubject;
  }
  return clauses;
}

/** "he"/"she" opening a clause. */
const PERSONAL_PRONOUN_START = /^(?:he|she)\b\s*/i;
/** A person's name as a clause's subject: capitalised words, not "I". */
const PERSON_NAME = /^(?!I$)\p{Lu}[\p{L}'.-]*(?: \p{Lu}[\p{L}'-]*){0,2}$/u;

/**
 * Extracts `subject / attribute / value` claim slots from a statement; negated slots record what the
 * statement says no longer holds ("X moved from A to B" yields X = B and X ≠ A).
 * @example
 * extractClaim('The billing service is owned by the payments team.');
 * // [{ subject: 'billing service', attribute: 'owner', value: 'payments team', negated: false }]
 */
export function extractClaim(text: string): ClaimSlot[] {
  return claimAnalysisOf(text).slots.map(({ subject, attribute, value, negated }) => ({ subject, attribute, value, negated }));
}

const ANALYSIS_MEMO_LIMIT = 4096;
const analyses = new Map<string, Readonly<ClaimAnalysis>>();

/**
 * `analyzeClaim`, memoised (a bounded map: the analysis is pure and deterministic). A claim is compared
 * with up to ~30 candidates and candidates recur across claims, so the same texts are read again and
 * again. The result is shared: read it, never change it.
 */
export function claimAnalysisOf(text: string): Readonly<ClaimAnalysis> {
  const cached = analyses.get(text);
  if (cached !== undefined) {
    // least recently used first out: a hit moves to the back
    analyses.delete(text);
    analyses.set(text, cached);
    return cached;
  }
  const analysis = analyzeClaim(text);
  if (analyses.size >= ANALYSIS_MEMO_LIMIT) analyses.delete(analyses.keys().next().value as string);
  analyses.set(text, analysis);
  return analysis;
}
