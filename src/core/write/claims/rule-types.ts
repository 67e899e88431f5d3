/**
 * What every extraction rule shares: the raw slot it returns, the rule shape, and small phrase helpers.
 */
import type { Cardinality } from './attribute-families.js';
import { NUMBER_PATTERN, numbersIn } from './claim-text.js';
import { isAgent, isPersonLike, isTeamLike } from './noun-phrase.js';

/** A slot before normalisation. */
export interface RawSlot {
  /** Subject noun phrase as written ("" for the speaking group). */
  subject: string;
  /** Canonical family; undefined means "derive subject and attribute from the subject noun phrase". */
  family?: string;
  value: string;
  negated?: boolean;
  /** The statement says this value no longer holds (from-to, replaced, instead of). */
  retract?: boolean;
  cardinality?: Cardinality;
  /** The attribute came from a verb (free verbs default to `dimension`). */
  verbal?: boolean;
  /** The verb itself says the old value was left behind ("moved to", "replaced", "took over"). */
  change?: boolean;
  /** Which rule produced it, for reasons and debugging. */
  rule: string;
}

/** A statement a rule must read, and the first slot it must yield (normalised, as extraction returns it). */
export interface RuleExample {
  text: string;
  slot: { subject: string; attribute: string; value: string; negated?: boolean };
}

/**
 * One declared extraction rule: its name (carried by every slot it yields), the clause shape it reads,
 * how it builds raw slots from the match, and the examples it must fire on (a test runs every rule on its
 * own examples). Rules are tried in the order of `RULES` (`claim-patterns.ts`); the first that builds wins.
 */
export interface Rule {
  name: string;
  examples: readonly RuleExample[];
  re: RegExp;
  build: (m: string[]) => RawSlot[] | undefined;
}

/** Optional auxiliary before a participle: "was moved", "has been transferred", "gets replaced". */
export const BE = '(?:(?:is|are|was|were|has been|have been|had been|will be|will|is being|are being|gets|get|got|has|have|had) )?';
/**
 * A lookahead for the object after a fixed verb: it does not open with a copula or an auxiliary. "The team
 * lead is Ana" has no verb "lead": "lead" ends the noun phrase "team lead", and "is Ana" is its predicate.
 */
export const NOT_A_PREDICATE =
  '(?!(?:is|are|was|were|be|been|has|have|had|will|would|can|could|should|may|might|must|does|do|did|remains|remain|stays|stay|became|becomes|become)\\b)';
/** A number as written in claims ("12", "$1,500", "two", "a dozen"). */
export const NUMBER = NUMBER_PATTERN;

/** Does the phrase start with a number ("12 services")? */
export const startsWithNumber = (phrase: string): boolean => numbersIn(phrase.split(' ')[0] ?? '').length > 0;

/** A person or team named by a bare noun phrase (no verb inside: "Erin is the tech" is not an actor). */
export function isActor(phrase: string): boolean {
  if (/\b(?:is|are|was|were|be|been|has|have|had|will)\b/i.test(phrase)) return false;
  return isTeamLike(phrase) || isPersonLike(phrase);
}

/** "Redis for the session store" → value "Redis", purpose "the session store". */
export function withPurpose(agent: string, purpose: string | undefined): string {
  if (!purpose) return isAgent(agent) ? '' : agent;
  return isAgent(agent) || agent === '' ? purpose : `${agent} ${purpose}`;
}
