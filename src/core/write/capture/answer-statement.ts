/**
 * A short answer put back into its question as a statement: "Which day do deploys happen now?" →
 * "Thursday" reads "Deploys happen on Thursday now."; "Which day is it [the piano lesson] on now?" →
 * "Thursday" reads "The piano lesson is on Thursday now." Only questions asked with a form of "be" or
 * "do" about a thing (or about the listener, "you" → "I") are restated; a question about the asker's
 * own action ("should I…", "do you want me to…") or about an unnamed "it" states nothing.
 */
import { inflect } from '../claims/inflect.js';
import { mainVerbIndex, termsOf } from '../claims/pos-tags.js';

/** "Sure - which day is …?": the wh-word, what it asks for, the auxiliary and the rest of the question. */
const WH_QUESTION =
  /^(?:(?:so|sure|ok|okay|and|then|got it|thanks)\b[\s,.!\u2014\u2013-]*)*(?:which|what)\s+([\p{L}\p{N} -]+?)\s+(is|are|was|were|do|does|did)\s+(.+?)\s*\?$/iu;
const PRONOUN = /^(?:it|that|this|they|these|those|he|she)$/i;
const DETERMINER = /^(?:the|your|our|his|her|their)$/i;
const PREPOSITION = /^(?:on|at|in|to|for|by|from|with|into|onto|until|till|of|about|under|near)$/i;
/** Words that close a question after its slot ("…on now?", "…these days?"). */
const TRAILING = /^(?:now|nowadays|currently|again|anymore|today|then|instead|these_days)$/i;
const THESE_DAYS = 'these_days';
/** The asker or the listener named after the subject ("do you want me to…"): a request, no fact. */
const ASKER = /\b(?:i|me|us|you|your|yours)\b/i;
const WEEKDAY = /^(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?\b/i;
const MONTH =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;
const CLOCK = /^(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|h)?|noon|midnight)$/i;
const OWN_PREPOSITION = /^(?:on|at|in|by|from|to|until|before|after|every|each|next|this|last|tomorrow|today|tonight)\b/i;

/**
 * The statement `answer` makes in the light of `question`; undefined when the question is not one this
 * can restate.
 * @example
 * restateAnswer('Which day do deploys happen now?', 'Thursday'); // 'Deploys happen on Thursday now.'
 */
export function restateAnswer(question: string, answer: string): string | undefined {
  const asked = WH_QUESTION.exec(question.trim());
  if (asked === null) return undefined;
  const [, topic = '', aux = '', rest = ''] = asked;
  const referent = /^(\S+)\s+\[([^\]]+)\]\s*(.*)$/.exec(rest);
  const clause = (referent !== null ? `${referent[1]} ${referent[3]}` : rest).replace(/\bthese days\b/gi, THESE_DAYS);
  const split = splitSubject(
    clause.split(/\s+/).filter((w) => w.length > 0),
    aux,
  );
  if (split === undefined) return undefined;
  const { verb, tail } = split;
  let { subject } = split;
  if (/^you(?:r\b|$)/i.test(subject)) {
    // the listener is the user: "you" → "I", "your car" → "my car"
    subject = subject.replace(/^you$/i, 'I').replace(/^your\b/i, 'my');
  } else if (PRONOUN.test(subject)) {
    if (referent?.[2] === undefined) return undefined;
    subject = referent[2];
  } else if (/^(?:i|me|my)\b/i.test(subject)) return undefined;
  if (ASKER.test(tail.join(' '))) return undefined;
  let trailing: string[] = [];
  const body = [...tail];
  while (body.length > 0 && TRAILING.test(body[body.length - 1] ?? '')) trailing = [body.pop() as string, ...trailing];
  const stranded = body.length > 0 && PREPOSITION.test(body[body.length - 1] ?? '');
  const value = answerPhrase(answer, topic, stranded);
  const predicate = verbFor(aux, subject === 'I', verb);
  const sentence = [subject, predicate, ...body, value, ...trailing.map((w) => (w === THESE_DAYS ? 'these days' : w))]
    .filter((w) => w.length > 0)
    .join(' ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** The subject of the question's clause, its main verb (for "do" questions) and what follows. */
function splitSubject(words: readonly string[], aux: string): { subject: string; verb?: string; tail: string[] } | undefined {
  const [first = ''] = words;
  if (/^(?:do|does|did)$/i.test(aux)) {
    const terms = termsOf(words.map((w) => (w === THESE_DAYS ? 'now' : w)).join(' '));
    if (terms.length !== words.length) return undefined;
    const at = mainVerbIndex(terms, 1);
    if (at < 1) return undefined;
    const verb = terms[at]?.root ?? '';
    return validSubject(words.slice(0, at)) ? { subject: words.slice(0, at).join(' '), verb, tail: words.slice(at + 1) } : undefined;
  }
  let end = 1;
  if (DETERMINER.test(first)) while (end < words.length && !stops(words[end] ?? '')) end += 1;
  return validSubject(words.slice(0, end)) ? { subject: words.slice(0, end).join(' '), tail: words.slice(end) } : undefined;
}

function stops(word: string): boolean {
  return PREPOSITION.test(word) || TRAILING.test(word) || /^(?:still|usually|always)$/i.test(word);
}

/** A pronoun, a determiner and a noun ("the piano lesson"), or one or two nouns ("deploys", "standup"). */
function validSubject(words: readonly string[]): boolean {
  if (words.length === 0 || words.length > 5) return false;
  if (words.length === 1 && (PRONOUN.test(words[0] ?? '') || /^(?:you|we)$/i.test(words[0] ?? ''))) return true;
  if (DETERMINER.test(words[0] ?? '')) return words.length >= 2;
  if (words.length > 2) return false;
  const terms = termsOf(words.join(' '));
  return terms.every((t) => !t.tags.has('Gerund') && !t.tags.has('Adverb') && !t.tags.has('Preposition'));
}

/** The verb of the statement: the question's "be" (agreeing with "I"), or its main verb in the tense "do" gave it. */
function verbFor(aux: string, firstPerson: boolean, verb: string | undefined): string {
  const lower = aux.toLowerCase();
  if (verb === undefined) return firstPerson ? ({ are: 'am', were: 'was' }[lower] ?? lower) : lower;
  if (lower === 'did') return inflect(verb, 'past');
  return lower === 'does' ? inflect(verb, 'third') : verb;
}

/** The answer as it sits in the statement: "Thursday" → "on Thursday", "10" → "at 10", after a stranded preposition as is. */
function answerPhrase(answer: string, topic: string, stranded: boolean): string {
  const value = answer.trim();
  if (stranded) return value.replace(/^(?:on|at|in|to)\s+/i, '');
  if (OWN_PREPOSITION.test(value)) return `${value.charAt(0).toLowerCase()}${value.slice(1)}`;
  if (WEEKDAY.test(value) || /^(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b/i.test(value) || (MONTH.test(value) && /\d/.test(value)))
    return `on ${value}`;
  if (CLOCK.test(value)) return `at ${value}`;
  if (MONTH.test(value) || /^\d{4}$/.test(value)) return `in ${value}`;
  if (/^(?:day|date|weekday)s?$/i.test(topic)) return `on ${value}`;
  if (/^(?:time|hour)s?$/i.test(topic)) return `at ${value}`;
  return value;
}
