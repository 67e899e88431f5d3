/**
 * Corrections stated as a departure from the old value rather than a new value of a named attribute:
 *
 *   1. Leaving: "X left/quit/sold/gave up/got rid of/stopped/dropped/moved off/traded in/replaced P" (a
 *      clause that opens with the verb, "Traded in the civic!", is the speaker's),
 *      "moved … from P to …", "X is no longer P", "X was not (in/caused by) P after all" — P is gone.
 *      The old claim supersedes when it states P (all of P's words) about the same subject: the new
 *      subject's words occur in it, or both speak of the speaker ("I", "we", "my", "the user").
 *   2. A new holder of a role: "Y took over as R", "Y is now the R", "Y now leads T", "Y succeeded X as R",
 *      "X stepped down" — the old claim names another holder of exactly that role.
 *   3. An unnamed switch: "we switched/moved/migrated to T" replaces the speaker's tool of the same kind
 *      ("we use pnpm" → "we switched to bun": both package managers; see tool-kinds.ts).
 *
 * Each is checked clause by clause; the old claim must not itself be negated or a departure.
 */
import { lexicalTokens } from './claim-text.js';
import { isBeing } from './copula-rules.js';
import { toolKindsIn } from './tool-kinds.js';

/** A departure verdict: always a supersession, with its reason. */
export interface DepartureVerdict {
  relation: 'supersedes';
  confidence: number;
  reason: string;
}

/** The confidence of each departure: leaving or moving from P, a reversal, a new holder, a stepping down, a switch. */
const CONFIDENCE = { leaving: 0.8, reversal: 0.75, newHolder: 0.8, steppedDown: 0.75, switchedTo: 0.75 } as const;

const SPEAKER = /^(?:i|we|the user|user|my|our|me|us)\b/i;
const WHO = "((?:the |our |my )?[\\w.' -]{1,40}?)";
/** Where the departed phrase ends: a preposition of purpose, time or replacement, or the next clause. */
const PHRASE = '((?:(?!\\b(?:and|for|with|onto|to|in favou?r of|in|on|since|last|this|after|before|but|because)\\b)[^,;.])+)';
const LEAVING = new RegExp(
  `^${WHO} (?:has |have |had )?(?:left|quit|quitted|sold|gave up|given up|got rid of|gotten rid of|stopped|dropped|ditched|abandoned|moved off|moved off of|migrated off|moved away from|migrated away from|switched away from|switched off|traded in|gave away|retired|replaced|is no longer|are no longer|no longer uses?|no longer has|no longer have) (?:of )?(?:the |a |an |my |our |his |her |their )?${PHRASE}`,
  'i',
);
const MOVED_FROM = new RegExp(
  `^${WHO} (?:has |have )?(?:moved|migrated|switched|changed|ported|transitioned)(?: [\\w.' -]{1,30}?)? from (?:the |a |an |my |our )?${PHRASE}`,
  'i',
);
const NOT_AFTER_ALL = new RegExp(`^${WHO} (?:was|is|were|are) not (?:caused by |due to |in |on |at |from )?(?:the |a |an )?${PHRASE}`, 'i');
const REVERSAL_SIGNAL = /\b(?:after all|turned out|turns out|actually|it was|but (?:in|on|at|the)|instead)\b/i;
const STEPPED_DOWN = /^([A-Z][\w'-]+(?: [A-Z][\w'-]+)?) (?:stepped down|resigned|retired|left|quit)$/;

const NEW_HOLDER =
  /^([A-Z][\w'-]+(?: [A-Z][\w'-]+)?) (?:took over as|has taken over as|is now (?:the |our )?|is (?:the |our )?new |now (?:leads|manages|runs|heads|owns)|(?:replaced|succeeded) [A-Z][\w'-]+ as|is (?:the |our )(?=.+ now$))(?:the |our )?(.+?)(?: now)?$/;
const HOLDER = /^([A-Z][\w'-]+(?: [A-Z][\w'-]+)?) (?:is (?:the |our )|(?:leads|manages|runs|heads|owns) (?:the |our )?)(.+)$/;

/**
 * A first-person clause said without its "I" ("Traded in the civic!", "Sold the car last week", "Switched
 * to Firefox"): a past-tense change verb opening the clause.
 */
export const OMITTED_SPEAKER =
  /^(?:left|quit|sold|gave up|got rid of|stopped|dropped|ditched|abandoned|traded in|gave away|moved off|switched|moved|migrated|changed)\b/i;

const SWITCHED_TO =
  /^(?:we|i|the user|user|the team|our team|the project|the repo) (?:have |has )?(?:switched|moved|migrated|changed|transitioned)(?: over)? to (.+)$/i;

/** Light stem for comparing a departed phrase with the old wording ("smoking" ≈ "smokes" ≈ "smoke"). */
function stems(text: string): Set<string> {
  return new Set([...lexicalTokens(text)].map((t) => t.replace(/(?:ing|es|s|e)$/, '')));
}
const within = (small: Set<string>, large: Set<string>): boolean => small.size > 0 && [...small].every((t) => large.has(t));

function clausesOf(text: string): string[] {
  return text
    .split(
      /[.;!?]\s*|,\s+(?:and |but )?(?=(?:it|the|they|we|i|he|she|[A-Z]\w*) )|\s+and\s+(?=(?:now |then )?(?:[A-Z]\w*|i|we|the \w+|they|he|she) )/,
    )
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Same subject: the new subject's words occur in the old claim, or both speak of the speaker. */
function aboutSameSubject(subject: string, oldText: string, oldStems: Set<string>): boolean {
  if (SPEAKER.test(subject.trim())) return SPEAKER.test(oldText.trim());
  return within(stems(subject), oldStems);
}

/** Someone the speaker names by a possessive ("my sister's editor", "our CTO uses Vim"): not the speaker. */
const SOMEONE_OF_THE_SPEAKER = /^(?:my|our)\s+([\p{L}-]+?)(?:'s)?\s/iu;

/** Does the old claim speak of the speaker's own things ("I use pnpm", "my editor is Vim"), not a person of theirs? */
function speakersOwn(oldText: string): boolean {
  if (!SPEAKER.test(oldText)) return false;
  const someone = SOMEONE_OF_THE_SPEAKER.exec(oldText)?.[1];
  return someone === undefined || !isBeing(someone);
}

/** Was the old claim itself a denial or a departure (then nothing is left to supersede)? */
function oldIsNegative(oldText: string): boolean {
  return /\b(?:not|never|no longer|n't)\b/i.test(oldText) || LEAVING.test(oldText) || MOVED_FROM.test(oldText);
}

function leaving(clause: string, oldText: string, oldStems: Set<string>): DepartureVerdict | undefined {
  const candidates: Array<[RegExpExecArray | null, number]> = [
    [LEAVING.exec(clause), CONFIDENCE.leaving],
    [MOVED_FROM.exec(clause), CONFIDENCE.leaving],
    [REVERSAL_SIGNAL.test(clause) || /\b(?:after all)\b/i.test(oldText) ? NOT_AFTER_ALL.exec(clause) : null, CONFIDENCE.reversal],
  ];
  for (const [m, confidence] of candidates) {
    const subject = m?.[1];
    const phrase = m?.[2]?.trim();
    if (subject === undefined || phrase === undefined || phrase.length === 0) continue;
    if (within(stems(phrase), oldStems) && aboutSameSubject(subject, oldText, oldStems)) {
      return { relation: 'supersedes', confidence, reason: `"${phrase}" is gone: ${clause}` };
    }
  }
  return undefined;
}

const sameRole = (a: string, b: string): boolean => {
  const x = stems(a);
  const y = stems(b);
  return x.size > 0 && x.size === y.size && within(x, y);
};

function newHolder(clause: string, oldText: string): DepartureVerdict | undefined {
  const old = HOLDER.exec(oldText.replace(/[.!]+$/, '').trim());
  if (!old?.[1] || !old[2]) return undefined;
  const stepped = STEPPED_DOWN.exec(clause);
  if (stepped?.[1] === old[1])
    return { relation: 'supersedes', confidence: CONFIDENCE.steppedDown, reason: `${old[1]} stepped down from ${old[2]}` };
  const m = NEW_HOLDER.exec(clause);
  if (!m?.[1] || !m[2] || m[1] === old[1] || !sameRole(m[2], old[2])) return undefined;
  return { relation: 'supersedes', confidence: CONFIDENCE.newHolder, reason: `${m[1]} holds ${old[2]} now, not ${old[1]}` };
}

function switchedTo(clause: string, oldText: string): DepartureVerdict | undefined {
  const target = SWITCHED_TO.exec(clause)?.[1];
  if (target === undefined || (!speakersOwn(oldText.trim()) && !/^the (?:team|project|repo)\b/i.test(oldText.trim()))) return undefined;
  const newKinds = toolKindsIn(target);
  if (newKinds.size === 0 || within(stems(target), stems(oldText))) return undefined;
  const shared = [...toolKindsIn(oldText)].filter(([kind]) => newKinds.has(kind));
  if (shared.length === 0 || otherPurpose(target, oldText)) return undefined;
  const [[kind, tool] = ['', '']] = shared;
  return { relation: 'supersedes', confidence: CONFIDENCE.switchedTo, reason: `switched to ${target}, replacing ${tool} (both ${kind})` };
}

/** What a tool is said to be used for: "MySQL for the main database" → "main database". */
const PURPOSE = /\bfor (?:the |our |my |a |an )?([\w .'-]+?)\s*[.!]?$/i;

/**
 * Do the two say their tools serve different purposes ("MySQL for the main database" against "SQLite for
 * the mobile app")? Then the switch replaces the one of its purpose only.
 */
function otherPurpose(target: string, oldText: string): boolean {
  const mine = PURPOSE.exec(target.trim())?.[1];
  const theirs = PURPOSE.exec(oldText.trim())?.[1];
  if (mine === undefined || theirs === undefined) return false;
  const a = stems(mine);
  const b = stems(theirs);
  return a.size > 0 && b.size > 0 && ![...a].some((stem) => b.has(stem));
}

/**
 * The departure a new claim states about the old one, if any.
 * @example
 * departureVerdict('Priya left Spotify and joined Klarna.', 'Priya works at Spotify.')?.relation; // 'supersedes'
 * departureVerdict('Priya left her laptop at the office.', 'Priya works at Spotify.'); // undefined
 */
export function departureVerdict(newText: string, oldText: string): DepartureVerdict | undefined {
  if (oldIsNegative(oldText)) return undefined;
  const oldStems = stems(oldText);
  for (const written of clausesOf(newText)) {
    const clause = OMITTED_SPEAKER.test(written) ? `I ${written}` : written;
    const verdict = leaving(clause, oldText, oldStems) ?? newHolder(clause, oldText) ?? switchedTo(clause, oldText);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}
