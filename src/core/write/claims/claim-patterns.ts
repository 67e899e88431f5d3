/**
 * Statement shapes with a fixed verb, in the order they are tried: changes first (their verbs overlap the
 * others: "moved to", "is now owned by"), then relations, then activities. Each rule reads one marker-free
 * clause and returns raw slots; `claim-extractor.ts` normalises them, and the copula and free-verb shapes
 * in `copula-rules.ts` are tried when none matches.
 */
import { ACTIVITY_RULES } from './activity-rules.js';
import { CHANGE_RULES } from './change-rules.js';
import { RELATION_RULES } from './relation-rules.js';
import type { Rule } from './rule-types.js';

export type { RawSlot } from './rule-types.js';

/** All fixed-verb rules, most specific first. */
export const RULES: readonly Rule[] = [...CHANGE_RULES, ...RELATION_RULES, ...ACTIVITY_RULES];
