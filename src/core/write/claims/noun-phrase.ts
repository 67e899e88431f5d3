/**
 * Noun phrases: who a statement is about, and which attribute of it a copula names.
 * "the billing service" → subject "billing service"; "Bob's email address" → bob / email;
 * "the deploy target for the docs site" → docs site / deploy_target; "we" → the scope itself ("").
 */
import { canonicalAttribute, splitAttributeTail } from './attribute-families.js';
import { cleanPhrase, contentTokens } from './claim-text.js';
import { hasTag } from './pos-tags.js';

/** Pronouns that stand for the speaker's group: the scope itself, written as the empty subject. */
const AGENTS = new Set([
  'we',
  'us',
  'our',
  'ours',
  'you',
  'they',
  'one',
  'everyone',
  'everybody',
  'someone',
  'somebody',
  // Universal objects: "we moved everything to GCP" is about the scope as a whole.
  'everything',
  'all',
  'it all',
  'all of it',
  'all of them',
  'all our services',
  'all services',
  'the whole stack',
]);
/** First-person pronouns: in an agent's memory they are the user speaking. */
const FIRST_PERSON = new Set(['i', 'me', 'my', 'myself', 'mine']);

const PERSON_WORDS =
  /^(?:i|me|he|she|him|her|the user|user|the customer|customer|the client|client|my (?:wife|husband|partner|mother|father|mum|mom|dad|son|daughter|brother|sister|friend))$/i;
const TEAM_WORDS =
  /\b(?:team|group|squad|department|dept|org|organi[sz]ation|guild|crew|company|vendor|contractor|agency|tribe|unit|committee|board)s?$/i;
/** Adjectives that mark a noun as a unique selection ("the default branch"): its copula value is single. */
const SLOT_MODIFIERS = /^(?:the )?(?:default|primary|main|current|preferred|active|chosen|selected|official|standard|canonical)\b/i;

/** Is this noun phrase the speaking group ("we", "you", "they")? */
export function isAgent(phrase: string): boolean {
  return AGENTS.has(phrase.trim().toLowerCase());
}

/** Does the phrase name a person (a proper name, "the user", a pronoun)? */
export function isPersonLike(phrase: string): boolean {
  const trimmed = cleanPhrase(phrase);
  if (PERSON_WORDS.test(trimmed) || FIRST_PERSON.has(trimmed.toLowerCase())) return true;
  if (TEAM_WORDS.test(trimmed)) return false;
  return hasTag(trimmed, 'Person');
}

/** Does the phrase name a group of people (a team, a department, a company)? */
export function isTeamLike(phrase: string): boolean {
  return TEAM_WORDS.test(cleanPhrase(phrase));
}

/** Does the phrase name a unique selection ("the default branch", "the primary database")? */
export function isSlotLike(phrase: string): boolean {
  return SLOT_MODIFIERS.test(phrase.trim());
}

/** Normalised subject: lowercase lemmas without determiners or possessive marks; "" for the speaking group. */
export function normalizeSubject(phrase: string): string {
  const trimmed = cleanPhrase(phrase).toLowerCase();
  if (trimmed === '' || isAgent(trimmed)) return '';
  if (FIRST_PERSON.has(trimmed)) return 'user';
  const words = trimmed.split(' ');
  if (words.length > 1 && (AGENTS.has(words[0] ?? '') || FIRST_PERSON.has(words[0] ?? ''))) {
    const rest = words.slice(1).join(' ');
    return FIRST_PERSON.has(words[0] ?? '') ? `user ${normalizeSubject(rest)}`.trim() : normalizeSubject(rest);
  }
  // words cut from one Han run join up again: 张伟 stays 张伟, not 张 伟
  return contentTokens(trimmed)
    .join(' ')
    .replace(/(?<=\p{Script=Han}) (?=\p{Script=Han})/gu, '');
}

/** A subject and the attribute a noun phrase names. `family` is false when no attribute was found. */
export interface NounPhraseKey {
  subject: string;
  attribute: string;
  named: boolean;
}

/**
 * Splits a copula's noun phrase into subject and attribute: possessive ("X's A"), "the A of/for X",
 * or an attribute noun at the tail ("company headquarters"). Otherwise the whole phrase is the subject
 * and the attribute is `value` ("the primary database is PostgreSQL").
 */
export function analyzeNounPhrase(phrase: string): NounPhraseKey {
  const np = cleanPhrase(phrase);
  const possessive = /^(.+)(?:'s|s') (.+)$/i.exec(np);
  if (possessive?.[1] && possessive[2]) {
    return { subject: normalizeSubject(possessive[1]), attribute: canonicalAttribute(possessive[2]), named: true };
  }
  const pronounOwner = /^(my|our|their|his|her|its|your) (.+)$/i.exec(np);
  if (pronounOwner?.[1] && pronounOwner[2] && !/^(?:the|a|an)$/.test(pronounOwner[2])) {
    const owner = FIRST_PERSON.has(pronounOwner[1].toLowerCase()) ? 'user' : '';
    const inner = analyzeNounPhrase(pronounOwner[2]);
    const subject = [owner, inner.subject].filter(Boolean).join(' ');
    return { ...inner, subject };
  }
  const ofFor = /^(.+?) (?:of|for) (.+)$/i.exec(np);
  if (ofFor?.[1] && ofFor[2]) {
    return { subject: normalizeSubject(ofFor[2]), attribute: canonicalAttribute(ofFor[1]), named: true };
  }
  const tail = splitAttributeTail(np);
  if (tail) return { subject: normalizeSubject(tail[0]), attribute: tail[1], named: true };
  return { subject: normalizeSubject(np), attribute: 'value', named: false };
}
