/**
 * Canonical attribute families and how many values each may hold at once.
 *
 * A family groups the many wordings of one attribute ("owned by", "maintained by", "responsible for"
 * → `owner`). Its cardinality decides what a different value means:
 * - `single`: one value at a time (location, owner, name, schedule): a different value replaces the old one;
 * - `dimension`: usually several values, but two values along the same dimension conflict when the new
 *   statement signals a change ("prefers dark mode" → "now prefers light mode");
 * - `multi`: values accumulate (is-a, likes, speaks, has): only a negation, a retraction or an explicit
 *   correction replaces anything.
 */
import { contentTokens, lemma, tokenize } from './claim-text.js';
import { dictionary } from '../../text/dictionary.js';

/** How many values an attribute holds at once. */
export type Cardinality = 'single' | 'dimension' | 'multi';

/** Attribute nouns and the family they name, matched against the tail of a noun phrase. */
const ATTRIBUTE_NOUNS: ReadonlyArray<readonly [string, string]> = [
  ['deploy target', 'deploy_target'],
  ['deployment target', 'deploy_target'],
  ['deploy destination', 'deploy_target'],
  ['deployment environment', 'deploy_target'],
  ['target environment', 'deploy_target'],
  ['owner', 'owner'],
  ['ownership', 'owner'],
  ['maintainer', 'owner'],
  ['steward', 'owner'],
  ['custodian', 'owner'],
  ['responsible team', 'owner'],
  ['owning team', 'owner'],
  ['location', 'location'],
  ['headquarters', 'location'],
  ['hq', 'location'],
  ['home town', 'location'],
  ['hometown', 'location'],
  ['base', 'location'],
  ['whereabouts', 'location'],
  ['region', 'location'],
  ['home', 'location'],
  ['home city', 'location'],
  ['city', 'location'],
  ['town', 'location'],
  ['country', 'location'],
  ['address', 'location'],
  ['home address', 'location'],
  ['residence', 'location'],
  ['meeting room', 'location'],
  ['venue', 'location'],
  ['name', 'name'],
  ['full name', 'name'],
  ['working title', 'name'],
  ['nickname', 'nickname'],
  ['email address', 'email'],
  ['e-mail address', 'email'],
  ['email', 'email'],
  ['e-mail', 'email'],
  ['phone number', 'phone'],
  ['phone', 'phone'],
  ['mobile number', 'phone'],
  ['line manager', 'manager'],
  ['manager', 'manager'],
  ['boss', 'manager'],
  ['supervisor', 'manager'],
  ['job title', 'role'],
  ['title', 'role'],
  ['role', 'role'],
  ['job', 'role'],
  ['position', 'role'],
  ['time zone', 'timezone'],
  ['timezone', 'timezone'],
  ['date of birth', 'birthday'],
  ['birth date', 'birthday'],
  ['birthday', 'birthday'],
  ['date', 'when'],
  ['time', 'when'],
  ['day', 'when'],
  ['schedule', 'when'],
  ['start date', 'start'],
  ['size', 'size'],
  ['headcount', 'size'],
  ['start time', 'start'],
  ['end date', 'end'],
  ['deadline', 'deadline'],
  ['due date', 'deadline'],
];

/** Families and their cardinality; anything not listed is a free attribute phrase (see `cardinalityOf`). */
const FAMILY_CARDINALITY: Readonly<Record<string, Cardinality>> = dictionary({
  owner: 'single',
  lead: 'single',
  manager: 'single',
  location: 'single',
  work_location: 'single',
  workplace: 'single',
  host: 'single',
  name: 'single',
  nickname: 'single',
  email: 'single',
  phone: 'single',
  role: 'single',
  timezone: 'single',
  birthday: 'single',
  when: 'single',
  deadline: 'single',
  destination: 'single',
  start: 'single',
  end: 'single',
  deploy_target: 'single',
  tool: 'single',
  value: 'single',
  assignment: 'single',
  prefers: 'dimension',
  uses: 'dimension',
  platform: 'dimension',
  duration: 'single',
  cost: 'single',
  weight: 'single',
  size: 'single',
  plan: 'dimension',
  age: 'single',
  height: 'single',
  meeting_place: 'single',
  likes: 'multi',
  is_a: 'multi',
  property: 'multi',
  has: 'multi',
  member_of: 'multi',
});

/** Families that describe the same slot in looser words; a shared value across them is agreement. */
const RELATED_GROUPS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['prefers', 'likes', 'favourite']),
  new Set(['tool', 'uses', 'value', 'platform', 'host']),
  new Set(['when', 'start', 'deadline']),
  new Set(['location', 'work_location', 'host']),
];

/**
 * Adjectives with a negative counterpart: the negative form is stored as the positive one, negated,
 * so "has been disabled" contradicts "is enabled".
 */
const NEGATIVE_ADJECTIVES: Readonly<Record<string, string>> = dictionary({
  off: 'on',
  disabled: 'enabled',
  closed: 'open',
  shut: 'open',
  inactive: 'active',
  private: 'public',
  unavailable: 'available',
  offline: 'online',
  unlocked: 'locked',
  hidden: 'visible',
  invisible: 'visible',
  forbidden: 'allowed',
  banned: 'allowed',
  blocked: 'allowed',
  disallowed: 'allowed',
  optional: 'required',
  down: 'up',
  unhealthy: 'healthy',
  broken: 'working',
  failing: 'passing',
  unsupported: 'supported',
  deprecated: 'supported',
  stopped: 'running',
  paused: 'running',
  archived: 'active',
  unpaid: 'paid',
  unmarried: 'married',
  unemployed: 'employed',
  incomplete: 'complete',
  unfinished: 'finished',
});

/** Positive forms of the adjectives above, so they are recognised as properties too. */
const POSITIVE_ADJECTIVES = new Set(Object.values(NEGATIVE_ADJECTIVES));

/** Canonical spelling for a few British/American pairs, so "favorite color" ≈ "favourite colour". */
const SPELLING: Readonly<Record<string, string>> = dictionary({
  favorite: 'favourite',
  color: 'colour',
  colors: 'colour',
  colours: 'colour',
  organization: 'organisation',
  center: 'centre',
  theater: 'theatre',
});

/** Canonical attribute for a phrase: a family name, `favourite <thing>`, or the lemmatised phrase. */
export function canonicalAttribute(phrase: string): string {
  const tokens = tokenize(phrase).map((t) => SPELLING[t] ?? t);
  if (tokens.length === 0) return 'value';
  const fav = tokens.findIndex((t) => t === 'favourite' || t === 'preferred');
  if (fav >= 0 && fav < tokens.length - 1)
    return `favourite ${tokens
      .slice(fav + 1)
      .map(lemma)
      .join(' ')}`;
  const joined = tokens.join(' ');
  for (const [noun, family] of ATTRIBUTE_NOUNS) if (joined === noun) return family;
  return contentTokens(joined).join(' ') || 'value';
}

/**
 * Splits a noun phrase whose tail is an attribute noun: "company headquarters" → ["company", "location"],
 * "deploy target" → ["", "deploy_target"]. Returns undefined when the tail names no known attribute.
 */
export function splitAttributeTail(phrase: string): [string, string] | undefined {
  const words = phrase
    .toLowerCase()
    .split(' ')
    .filter(Boolean)
    .map((w) => SPELLING[w] ?? w);
  const fav = words.findIndex((w) => w === 'favourite');
  if (fav >= 0 && fav < words.length - 1) {
    return [
      words.slice(0, fav).join(' '),
      `favourite ${words
        .slice(fav + 1)
        .map(lemma)
        .join(' ')}`,
    ];
  }
  for (let start = 0; start < words.length; start += 1) {
    const tail = words.slice(start).join(' ');
    const family = ATTRIBUTE_NOUNS.find(([noun]) => noun === tail || `${noun}s` === tail)?.[1];
    if (family !== undefined) return [words.slice(0, start).join(' '), family];
  }
  return undefined;
}

/** Cardinality of a canonical attribute; free phrases from copulas are single, verb phrases dimension. */
export function cardinalityOf(attribute: string, origin: 'noun' | 'verb'): Cardinality {
  const known = FAMILY_CARDINALITY[attribute];
  if (known !== undefined) return known;
  if (attribute.startsWith('favourite ') || attribute.startsWith('count ')) return 'single';
  return origin === 'noun' ? 'single' : 'dimension';
}

/** Do two canonical attributes name related slots (same group, or both `favourite …`)? */
export function relatedAttributes(a: string, b: string): boolean {
  const groupOf = (x: string): string => (x.startsWith('favourite') ? 'favourite' : x);
  const ga = groupOf(a);
  const gb = groupOf(b);
  if (ga === gb) return true;
  return RELATED_GROUPS.some((g) => g.has(ga) && g.has(gb));
}

/** Is this a known family (as opposed to a free attribute phrase)? */
export function isKnownFamily(attribute: string): boolean {
  return attribute in FAMILY_CARDINALITY || attribute.startsWith('favourite ') || attribute.startsWith('count ');
}

/** For a property adjective, its positive form and whether the word itself was the negative one. */
export function polarityOf(adjective: string, whole: boolean): { base: string; negative: boolean } | undefined {
  const word = adjective.toLowerCase();
  if (!whole && (word === 'on' || word === 'off' || word === 'up' || word === 'down')) return undefined;
  const positive = NEGATIVE_ADJECTIVES[word];
  if (positive !== undefined) return { base: positive, negative: true };
  if (POSITIVE_ADJECTIVES.has(word)) return { base: word, negative: false };
  return undefined;
}
