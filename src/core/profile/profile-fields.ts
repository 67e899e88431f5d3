/**
 * Which fields of a profile schema the user's facts already answer, and which are still missing
 * (seed 003: "adding a field makes every agent session start asking for it").
 *
 * A fact answers a field by words, never by embedding: its claim slot (subject `user` + attribute
 * `budget range`, or subject `budget range` + a bare value, or a `Budget: 80L` label) is compared with
 * the field's name, the words of its description (its synonyms) and its example, all stemmed. A fact
 * whose words fit two fields equally well answers neither.
 */
import type { ClaimSlot } from '../memory.js';
import { contentTerms, stem } from '../text/index.js';
import type { ProfileField } from './profile-schema.js';

/** A field the facts answer: its value and since when it holds. */
export interface KnownProfileField {
  field: string;
  value: string;
  /** ISO instant the answering fact is valid from. */
  since: string;
  /** The fact that answers it. */
  id: string;
}

/** What `context` returns as `parts.profileFields`. */
export interface ProfileFieldsPart {
  known: KnownProfileField[];
  /** Names of the fields no current fact answers, in schema order. */
  missing: string[];
}

/** A current fact as the matcher reads it. */
export interface ProfileFactInput {
  id: string;
  content: string;
  claim?: ClaimSlot;
  validFrom: number;
}

/** Subjects that stand for the user the profile is about. */
const USER_SUBJECTS = new Set(['user', 'the user', 'i', 'me', 'my', 'we', 'our', 'us', 'you', 'your']);
/** Attributes that say nothing about which field ("is", "prefers", "wants"): their value carries the meaning. */
const GENERIC_ATTRIBUTES = new Set([
  'valu',
  'is',
  'be',
  'prefer',
  'want',
  'need',
  'like',
  'love',
  'has',
  'have',
  'requir',
  'choos',
  'pick',
  'go',
]);
/** A `Label: value` line without a claim slot. */
const LABELLED = /^\s*([^:\n]{2,60}?)\s*:\s*(.+?)\s*\.?\s*$/;

interface FieldWords {
  field: ProfileField;
  name: Set<string>;
  description: Set<string>;
  example: Set<string>;
}

function stems(text: string): string[] {
  return [...new Set(contentTerms(text).map((t) => stem(t)))];
}

function wordsOf(field: ProfileField): FieldWords {
  return {
    field,
    name: new Set(stems(field.name)),
    description: new Set(stems(field.description ?? '')),
    example: new Set(stems(field.example ?? '')),
  };
}

/** What a fact says about which field it answers: its slot's key words, a generic verb, and its value. */
interface FactEvidence {
  key: string[];
  verb: string[];
  value: string[];
  shown: string;
}

function evidenceOf(fact: ProfileFactInput): FactEvidence | undefined {
  const claim = fact.claim;
  if (claim !== undefined && !claim.negated) {
    const subject = claim.subject.toLowerCase().trim();
    const attribute = stems(claim.attribute);
    const genericAttribute = attribute.length === 0 || attribute.every((a) => GENERIC_ATTRIBUTES.has(a));
    const key = USER_SUBJECTS.has(subject)
      ? genericAttribute
        ? []
        : attribute
      : [...stems(subject), ...(genericAttribute ? [] : attribute)];
    return {
      key: key.filter((k) => !GENERIC_ATTRIBUTES.has(k)),
      verb: genericAttribute ? attribute : [],
      value: stems(claim.value),
      shown: claim.value,
    };
  }
  const labelled = LABELLED.exec(fact.content);
  if (labelled?.[1] !== undefined && labelled[2] !== undefined)
    return { key: stems(labelled[1]), verb: [], value: stems(labelled[2]), shown: labelled[2] };
  return undefined;
}

function overlap(words: readonly string[], set: ReadonlySet<string>): number {
  return words.reduce((n, w) => n + (set.has(w) ? 1 : 0), 0);
}

/**
 * How well a fact fits a field: key words in the name count 2, in the description 1; a generic verb
 * ("prefers") in the name or description 1; value words in the name 2 ("3 BHK" for "BHK requirement"),
 * in the description or example 1. A fact answers a field from 2 up.
 */
function fit(evidence: FactEvidence, field: FieldWords): number {
  const either = new Set([...field.name, ...field.description]);
  return (
    2 * overlap(evidence.key, field.name) +
    overlap(
      evidence.key.filter((k) => !field.name.has(k)),
      field.description,
    ) +
    overlap(evidence.verb, either) +
    2 * overlap(evidence.value, field.name) +
    overlap(
      evidence.value.filter((v) => !field.name.has(v)),
      new Set([...field.description, ...field.example]),
    )
  );
}

/** The smallest fit at which a fact answers a field. */
export const MIN_FIELD_FIT = 2;

/**
 * Known and missing fields: each fact answers the one field it fits best (at least {@link MIN_FIELD_FIT},
 * strictly better than any other field); a field answered by several facts shows the newest.
 */
export function matchProfileFields(fields: readonly ProfileField[], facts: readonly ProfileFactInput[]): ProfileFieldsPart {
  const words = fields.map(wordsOf);
  const answers = new Map<string, { fact: ProfileFactInput; value: string }>();
  for (const fact of facts) {
    const evidence = evidenceOf(fact);
    if (evidence === undefined) continue;
    let best: FieldWords | undefined;
    let bestFit = 0;
    let tie = false;
    for (const field of words) {
      const score = fit(evidence, field);
      if (score > bestFit) {
        best = field;
        bestFit = score;
        tie = false;
      } else if (score === bestFit && score > 0) tie = true;
    }
    if (best === undefined || tie || bestFit < MIN_FIELD_FIT) continue;
    const previous = answers.get(best.field.name);
    if (
      previous === undefined ||
      fact.validFrom > previous.fact.validFrom ||
      (fact.validFrom === previous.fact.validFrom && fact.id > previous.fact.id)
    ) {
      answers.set(best.field.name, { fact, value: evidence.shown });
    }
  }
  const known: KnownProfileField[] = [];
  const missing: string[] = [];
  for (const field of fields) {
    const answer = answers.get(field.name);
    if (answer === undefined) missing.push(field.name);
    else known.push({ field: field.name, value: answer.value, since: new Date(answer.fact.validFrom).toISOString(), id: answer.fact.id });
  }
  return { known, missing };
}
