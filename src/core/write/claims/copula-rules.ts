/**
 * The two open-ended shapes, tried after the fixed-verb rules: the copula ("X is Y", "X's A is Y",
 * "the A of X is Y") and any other verb ("Dana works on the mobile team"), found with compromise.
 */
import { type Cardinality, cardinalityOf, polarityOf } from './attribute-families.js';
import { cleanPhrase, numbersIn } from './claim-text.js';
import { APPROXIMATELY, type ExtractedSlot, makeSlot, normalizeValue } from './extracted-slot.js';
import { analyzeNounPhrase, isPersonLike, isSlotLike, isTeamLike, normalizeSubject } from './noun-phrase.js';
import { mainVerbIndex, termsOf } from './pos-tags.js';
import { containsTemporal, isTemporal } from './temporal.js';
import { dictionary } from '../../text/dictionary.js';

const COPULA =
  /^(.+?) (?:(?:is|are|was|were|has been|have been) set to|defaults to|default to|is|are|was|were|will be|has been|have been|had been|remains|remain|stays|stay|became|becomes|become|equals)\s+(.+)$/i;

/** Free-verb attributes that name a known family. */
const VERB_FAMILIES: Readonly<Record<string, string>> = dictionary({
  'run on': 'platform',
  'live in': 'location',
  'report to': 'manager',
  'work at': 'workplace',
  'work for': 'workplace',
  // "I work as a nurse" names the job, as "my role is nurse" does: one at a time, "also" adds one
  'work as': 'role',
  'belong to': 'owner',
  'deploy to': 'deploy_target',
  'meet in': 'meeting_place',
  'meet at': 'meeting_place',
});

/** One or two capitalised words: a proper name ("Dana", "Acme Corp"). */
const PROPER_NAME = /^[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)?$/;

/** "34 years old" → age; the unit word names the attribute of a measured copula. */
const MEASURE_UNITS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:years? old|y\/?o|years of age)$/i, 'age'],
  [/\b(?:tall|high|foot|feet|ft|inches|cm|centimet(?:er|re)s?|met(?:er|re)s? tall)\b/i, 'height'],
  [/\b(?:long)$/i, 'length'],
  [/\b(?:wide)$/i, 'width'],
  [/\b(?:away|from here)$/i, 'distance'],
  [/\b(?:heavy|kg|kilos?|lbs?|pounds)\b/i, 'weight'],
];

/** Prepositional predicates that describe a state rather than a place ("in charge", "in progress"). */
const STATE_PHRASES =
  /^(?:in|at|on) (?:charge|progress|beta|alpha|review|trouble|danger|risk|favou?r|love|doubt|place|use|hold|track|time|budget|sync|call|leave|vacation|holiday)\b/i;

/** Verbs whose objects accumulate rather than replace each other. */
const MULTI_VERBS = new Set([
  'speak',
  'support',
  'know',
  'visit',
  'attend',
  'play',
  'read',
  'watch',
  'collect',
  'follow',
  'mentor',
  'teach',
  'study',
  'learn',
  'write',
  'contain',
  'include',
  'have',
  'integrate',
  'call',
  'email',
  'message',
  'meet',
  'join',
]);

const PREPOSITIONS = /^(on|in|to|at|with|for|from|about|into|onto|as|like|by|under|over|after|through|across|via)\s+(.+)$/i;

/** Is the phrase a verb phrase ("learning Spanish", "training for a marathon")? */
function isVerbPhrase(value: string): boolean {
  const first = termsOf(value)[0]?.tags;
  return first !== undefined && (first.has('Gerund') || (first.has('PastTense') && !first.has('Adjective')));
}

/**
 * Is a value with a number in it a measurement ("34", "34 years old", "$50k", "3 nodes", "99.9%")
 * rather than a sentence that happens to hold a number ("vegetarian since 2019 but eats eggs")?
 */
function isMeasure(value: string): boolean {
  if (MEASURE_UNITS.some(([re]) => re.test(value))) return true;
  const words = value.split(/\s+/).filter((w) => w.length > 0);
  return words.length <= 3 || /^[~≈<>]?[$€£]?[-+]?\d/.test(value);
}

/** A state word followed by a prepositional phrase ("slow on Firefox ESR", "available in Europe"). */
function isStateThenPreposition(value: string): boolean {
  const terms = termsOf(value);
  const first = terms[0];
  const second = terms[1];
  // compromise often tags a lone adjective as a verb ("slow"); a bare word before a preposition is a state.
  const stateWord =
    first !== undefined &&
    !first.tags.has('Noun') &&
    !first.tags.has('Determiner') &&
    !first.tags.has('Gerund') &&
    !first.tags.has('Value');
  return stateWord && second !== undefined && PREPOSITIONS.test(value.slice(value.indexOf(' ') + 1));
}

/** Is every word of a short phrase an adjective ("stable", "very fast")? */
function isAdjectivePhrase(value: string): boolean {
  const terms = termsOf(value);
  return terms.length > 0 && terms.length <= 3 && terms.every((t) => t.tags.has('Adjective') || t.tags.has('Adverb'));
}

function slot(subject: string, attribute: string, value: string, cardinality: Cardinality, rule: string, negated = false): ExtractedSlot {
  return makeSlot({ subject, attribute, value, cardinality, rule, negated });
}

/** Slots for "NP is VALUE", or undefined when the clause is not a copula. */
export function copulaSlots(clause: string): ExtractedSlot[] | undefined {
  const m = COPULA.exec(clause);
  if (!m?.[1] || !m[2]) return undefined;
  const np = m[1];
  const rawValue = m[2].trim().replace(APPROXIMATELY, '');
  const value = cleanPhrase(rawValue);
  if (value === '') return undefined;
  const key = analyzeNounPhrase(np);
  const plainSubject = normalizeSubject(np);

  const [firstWord = '', ...restWords] = value.split(' ');
  const polarity = polarityOf(firstWord, restWords.length === 0);
  if (polarity) {
    const rest = restWords.join(' ');
    return [slot(plainSubject, 'property', `${polarity.base} ${rest}`.trim(), 'multi', 'copula-property', polarity.negative)];
  }
  const prepless = value.replace(/^(?:on|at|for|by|in|during|around|until|from)\s+/i, '');
  if (isTemporal(value)) {
    if (key.named && ['deadline', 'start', 'end'].includes(key.attribute)) {
      return [slot(key.subject, key.attribute, prepless, 'single', 'copula-when')];
    }
    const subject = key.named && key.attribute === 'birthday' ? `${key.subject} birthday`.trim() : plainSubject;
    return [slot(subject, 'when', prepless, 'single', 'copula-when')];
  }
  const prep = PREPOSITIONS.exec(value);
  if (prep?.[1] && prep[2]) {
    const word = prep[1].toLowerCase();
    if (STATE_PHRASES.test(value)) return [slot(plainSubject, 'property', value, 'multi', 'copula-state')];
    if (word === 'in' || word === 'at') {
      const subject = key.named && key.attribute === 'location' ? key.subject : plainSubject;
      // "Hiro will be at a customer site all day Tuesday": a stay with a date is an event, not where Hiro is.
      if (containsTemporal(prep[2])) return [slot(subject, 'stay', prep[2], 'multi', 'copula-stay')];
      return [slot(subject, 'location', prep[2], 'single', 'copula-location')];
    }
    // People are on teams and committees; things are on a floor, a server, a wiki.
    const someone = !/'s |s' /.test(np) && (PROPER_NAME.test(np.trim()) || isPersonLike(np));
    if (word === 'on' && someone) return [slot(plainSubject, 'member_of', prep[2], 'multi', 'copula-on')];
    if (word === 'on') return [slot(plainSubject, 'location', prep[2], 'single', 'copula-location')];
    return [slot(plainSubject, `be ${word}`, prep[2], 'multi', 'copula-preposition')];
  }
  if (key.named) {
    const single = ['when', 'start', 'end', 'deadline'].includes(key.attribute)
      ? { ...key, subject: plainSubject, attribute: 'value' }
      : key;
    return [
      slot(
        single.subject,
        single.attribute,
        value.replace(/^(?:an?|the) /i, ''),
        cardinalityOf(single.attribute, 'noun'),
        'copula-attribute',
      ),
    ];
  }
  const properName = PROPER_NAME.test(np.trim());
  const personSubject = properName || isPersonLike(np);
  // "Amara is fostering three kittens": an activity, not a measurement, even with a number in it; but
  // "limited to $500", "capped at 100" state the subject's amount.
  const amount = /^\w+(?:ed|en) (?:to|at|by|around|under|below|above)\s+[~≈<>]?[$€£]?\d/i.test(value);
  // "a rented floor", "a coworking space": a participle after an article describes a thing, it is no verb
  const described = /^(?:an?|the) /i.test(rawValue);
  if (!amount && !described && isVerbPhrase(value) && (value.includes(' ') || personSubject)) return verbSlots(clause);
  if (numbersIn(value).length > 0 && isMeasure(value)) {
    const unit = MEASURE_UNITS.find(([re]) => re.test(value))?.[1];
    // A person "is 34": a bare number about a person is an age.
    const bare = /^\d{1,3}$/.test(value) && isPersonLike(np) ? 'age' : undefined;
    return [slot(plainSubject, unit ?? bare ?? key.attribute, value, 'single', 'copula-measure')];
  }
  // "The file browser is slow on Firefox": a state under a condition; other conditions coexist.
  if (isStateThenPreposition(value)) return [slot(plainSubject, 'property', value, 'multi', 'copula-state')];
  const properValue = PROPER_NAME.test(rawValue);
  const definiteSubject = /^(?:the|our|my|their|his|her|your) /i.test(np.trim());
  // "The CEO is Dana": a role named by a definite noun phrase, filled by a proper name.
  if (definiteSubject && properValue && !isPersonLike(np.replace(/^\w+ /, ''))) {
    return [slot(key.subject, key.attribute, value, 'single', 'copula-identity')];
  }
  // "Dana is our CEO", "Oscar is the release manager": the same slot, written the other way round.
  const possessiveValue = /'s /.test(rawValue) && analyzeNounPhrase(rawValue).named;
  if (possessiveValue || (personSubject && /^(?:the|our|my|their|his|her|your) /i.test(rawValue))) {
    const flipped = analyzeNounPhrase(value);
    return [slot(flipped.subject, flipped.attribute, np, cardinalityOf(flipped.attribute, 'noun'), 'copula-identity')];
  }
  if (/^(?:an?) /i.test(rawValue)) return [slot(plainSubject, 'is_a', value, 'multi', 'copula-is-a')];
  if (personSubject) return [slot(plainSubject, 'property', value, 'multi', 'copula-property')];
  if (!isSlotLike(np) && isAdjectivePhrase(value)) return [slot(plainSubject, 'property', value, 'multi', 'copula-property')];
  return [slot(key.subject, key.attribute, value, 'single', 'copula-value')];
}

/** The copula rules that say what a thing is: "X is a Y", "X is Y" (a name, a value). */
export const WHAT_IT_IS_RULES: ReadonlySet<string> = new Set(['copula-is-a', 'copula-value', 'copula-identity']);

/** Someone's (a possessive) one thing: "my car", "our office", "Maria's laptop"; the copula is singular. */
const POSSESSED = /^((?:my|our|your|his|her|their|\p{Lu}[\p{L}'-]*'s) ([\p{L}\p{N} -]+?)) is /iu;

/** People and animals someone has: what they now are adds to what they were ("my sister is now a mother"). */
const BEINGS =
  /\b(?:friends?|roommate|flatmate|housemate|neighbou?r|colleague|co-?worker|boss|manager|partner|wife|husband|spouse|fianc[eé]e?|girlfriend|boyfriend|kids?|child|son|daughter|baby|mo(?:ther|m)|mum|father|dad|parents?|brother|sister|sibling|cousin|aunt|uncle|niece|nephew|grand(?:mother|father|ma|pa|son|daughter|parent)|teacher|doctor|therapist|dentist|landlord|landlady|tenant|mentor|coach|lead|assistant|client|customer|student|intern|founder|co-?founder|dog|cat|puppy|kitten|pet|horse|parrot|bird|rabbit|hamster)$/i;

/**
 * Does the noun name a person or an animal someone has ("sister", "friends", "dog"), not a thing?
 * @example
 * isBeing('sister'); // true
 * isBeing('editor'); // false
 */
export function isBeing(noun: string): boolean {
  return BEINGS.test(noun.trim());
}

/**
 * Is the clause's copula about one thing someone has ("my car is …", "our office is …")? Such a thing is
 * one thing at a time: what it now is ("my car is now a red Tesla") replaces what it was. Not people,
 * animals or teams, whose new roles add to the old ones.
 * @example
 * isPossessedThing('My car is a red Tesla'); // true
 * isPossessedThing('My sister is a doctor'); // false
 */
export function isPossessedThing(clause: string): boolean {
  const m = POSSESSED.exec(clause);
  const np = m?.[1];
  const thing = m?.[2]?.trim();
  if (np === undefined || thing === undefined || thing === '') return false;
  return !BEINGS.test(thing) && !isPersonLike(np) && !isPersonLike(thing) && !isTeamLike(thing);
}

/**
 * Does the copula name what the thing is — a kind ("is a red Tesla", "is an office") or a name or model
 * ("is MacBook Air", "is 5G") — rather than a state or a role of it ("is my main machine", "is full of
 * tomatoes", "is worth more")? Only a kind or a name replaces what the thing was.
 * @example
 * namesWhatItIs('My car is a red Tesla'); // true
 * namesWhatItIs('My laptop is my main machine'); // false
 */
export function namesWhatItIs(clause: string): boolean {
  const copula = POSSESSED.exec(clause);
  if (copula === null) return false;
  return /^(?:(?:an?) \S|[\p{Lu}\p{N}])/u.test(clause.slice(copula[0].length).trim());
}

/** Rough infinitive of an inflected verb, for verbs compromise did not recognise ("runs" → "run"). */
function roughInfinitive(word: string): string {
  const w = word.toLowerCase();
  if (/ies$/.test(w)) return w.replace(/ies$/, 'y');
  if (/(?:ch|sh|x|ss|o)es$/.test(w)) return w.slice(0, -2);
  if (/ied$/.test(w)) return w.replace(/ied$/, 'y');
  if (/([b-df-hj-np-tv-z])\1ed$/.test(w)) return w.slice(0, -3);
  if (/ed$/.test(w)) return w.slice(0, -2);
  if (/s$/.test(w) && !/ss$/.test(w)) return w.slice(0, -1);
  return w;
}

const OBJECT_START = /^(?:the|a|an|our|my|his|her|their|its|every|each|once|twice|\d.*|[A-Z].*)$/;

/**
 * The main verb of a clause: compromise's first verb that is not an auxiliary, else an inflected word
 * followed by a preposition or an object ("Search runs on Elasticsearch", which compromise misreads).
 */
function mainVerb(clause: string): { at: number; text: string; infinitive: string } | undefined {
  const terms = termsOf(clause);
  const index = mainVerbIndex(terms);
  const verb = index > 0 ? terms[index] : undefined;
  if (verb) {
    const at = clause.toLowerCase().indexOf(` ${verb.text.toLowerCase()}`);
    const infinitive = verb.root === verb.text.toLowerCase() ? roughInfinitive(verb.text) : verb.root;
    if (at > 0 && infinitive !== 'be') return { at: at + 1, text: verb.text, infinitive };
  }
  const words = clause.split(' ');
  // After a personal pronoun the next word is the verb ("we self-host GitLab").
  if (/^(?:we|i|you|they|he|she)$/i.test(words[0] ?? '') && words.length > 2) {
    const word = words[1] ?? '';
    return { at: (words[0] ?? '').length + 1, text: word, infinitive: roughInfinitive(word) };
  }
  for (let i = 1; i < words.length - 1; i += 1) {
    const word = words[i] ?? '';
    const objectLike = PREPOSITIONS.test(words.slice(i + 1).join(' ')) || OBJECT_START.test(words[i + 1] ?? '');
    if (/^[a-z]+(?:s|ed)$/.test(word) && !/(?:ss|us|is)$/.test(word) && objectLike) {
      return { at: words.slice(0, i).join(' ').length + 1, text: word, infinitive: roughInfinitive(word) };
    }
  }
  return undefined;
}

/** Slots for a clause with any other verb: subject / verb (+ preposition) / rest. */
export function verbSlots(clause: string): ExtractedSlot[] | undefined {
  const verb = mainVerb(clause);
  if (!verb) return undefined;
  const subject = clause
    .slice(0, verb.at)
    // auxiliaries, and the "not" an idiom kept ("can't wait to …" negates nothing: clause-markers.ts)
    .replace(/(?:^|\s)(?:am|is|are|was|were|has|have|had|will|would|can|could|should|does|do|did|been|being|not)(?=\s|$)/gi, ' ')
    .trim();
  let rest = clause.slice(verb.at + verb.text.length).trim();
  let attribute = verb.infinitive;
  const prep = PREPOSITIONS.exec(rest);
  if (prep?.[1] && prep[2]) {
    attribute = `${verb.infinitive} ${prep[1].toLowerCase()}`;
    rest = prep[2];
  }
  if (rest !== '' && isTemporal(rest)) {
    // "The password rotates every 90 days": the schedule of the activity.
    return [slot(normalizeSubject(`${subject} ${verb.infinitive}`), 'when', rest, 'single', 'verb-when')];
  }
  const family = VERB_FAMILIES[attribute];
  if (family) return [slot(normalizeSubject(subject), family, normalizeValue(rest), cardinalityOf(family, 'verb'), 'verb')];
  const cardinality: Cardinality = MULTI_VERBS.has(verb.infinitive) ? 'multi' : 'dimension';
  return [slot(normalizeSubject(subject), attribute, normalizeValue(rest), cardinality, 'verb')];
}
