/**
 * Clause splitting and discourse markers: what a statement says about itself ("correction:", "no longer",
 * "instead of X", "also") as opposed to what it says about the world. Markers are removed from the clause
 * before slot extraction and reported beside it.
 */
import { isAbbreviationDot } from '../../text/sentences.js';
import { normalizeSpacing } from './claim-text.js';

/**
 * - `correction`, `actually`: the speaker corrects an earlier statement (strong);
 * - `no-longer`: "no longer", "not … anymore" (strong, with negation);
 * - `instead`, `contrast`: "instead of X", ", not X" name a retracted value (strong);
 * - `changed`: a change verb ("moved", "switched", "renamed", "replaced") (strong);
 * - `now`, `update`: the statement describes the present state (weak);
 * - `additive`: "also", "too", "as well", "in addition", "another" (the value adds to the old ones).
 */
export type ClaimMarker = 'correction' | 'actually' | 'no-longer' | 'instead' | 'contrast' | 'changed' | 'now' | 'update' | 'additive';

/** Markers that by themselves signal that an earlier statement no longer holds. */
export const STRONG_MARKERS: ReadonlySet<ClaimMarker> = new Set(['correction', 'actually', 'no-longer', 'instead', 'contrast', 'changed']);

/** One clause with its markers removed. */
export interface MarkedClause {
  /** The clause text, original case, markers and negation removed. */
  text: string;
  markers: Set<ClaimMarker>;
  negated: boolean;
  /** Values the clause explicitly retracts ("instead of X", ", not X"). */
  retracted: string[];
}

const CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bwon't\b/gi, 'will not'],
  [/\bcan't\b/gi, 'can not'],
  [/\bcannot\b/gi, 'can not'],
  [/\bain't\b/gi, 'is not'],
  [/\b(\w+)n't\b/gi, '$1 not'],
  [/\b(we|they|you)'re\b/gi, '$1 are'],
  [/\b(we|they|you|i)'ve\b/gi, '$1 have'],
  [/\b(we|they|you|i|he|she|it)'ll\b/gi, '$1 will'],
  [/\b(we|they|you|i|he|she)'d\b/gi, '$1 would'],
  [/\bi'm\b/gi, 'I am'],
  [/\b(it|he|she|that|there)'s (?=been\b|got\b)/gi, '$1 has '],
  [/\b(it|he|she|that|there)'s\b/gi, '$1 is'],
];

const CHANGE_VERB_RE =
  /\b(?:moved|switched|changed|migrated|transferred|replaced|renamed|rescheduled|relocated|took over|taken over|postponed|pushed back|swapped|upgraded|downgraded|reassigned|handed over|raised|lowered|increased|decreased|reduced|bumped|went up|went down|no longer|rewritten|overtook|overtaken|supplanted|slipped|superseded)\b/i;

/** Stands in for the full stop of an abbreviation while clauses are split ("Dr. Patel" is one name). */
const ABBREVIATION_DOT = '\u2024';

/** Replaces the full stops of abbreviations inside a sentence ("Dr.", "St.", "e.g.", "a.m." before a lowercase word). */
function protectAbbreviations(text: string): string {
  let out = '';
  let from = 0;
  for (const m of text.matchAll(/\.(?=\s)/g)) {
    if (!isAbbreviationDot(text, m.index)) continue;
    out += `${text.slice(from, m.index)}${ABBREVIATION_DOT}`;
    from = m.index + 1;
  }
  return out + text.slice(from);
}

/**
 * Splits a statement into clauses at sentence ends and semicolons; dots inside tokens and the full stops of
 * abbreviations ("My dentist is Dr. Patel") do not split.
 */
export function splitClauses(text: string): string[] {
  let expanded = normalizeSpacing(text);
  for (const [re, replacement] of CONTRACTIONS) expanded = expanded.replace(re, replacement);
  return protectAbbreviations(expanded)
    .split(
      /(?<=[^\s.][.!?;])\s+|;\s*|(?<=[。！？；])\s*|\s+(?:but|whereas|while) (?=(?:it|he|she|they|we|the|this|that|[A-Z]\w*) )|,\s*(?=[^,.;]{1,30} (?:is|are|does|do|has|have|was|were)[.!]?$)/,
    )
    .map((c) =>
      c
        .replace(/[.!?;。！？；]+$/u, '')
        .replaceAll(ABBREVIATION_DOT, '.')
        .trim(),
    )
    .filter((c) => c.length > 0);
}

const REPORTED =
  /^([\w' -]{1,40}?) (said|says|mentioned|mentions|noted|notes|told (?:me|us|the team)|confirmed|confirms|explained|stated|reported|clarified|clarifies|added|wrote|indicated|shared|let (?:me|us) know|corrected (?:me|us|that)?)(?: that)?,? (.+)$/i;

/**
 * "The user said they moved to Lisbon" → "the user moved to Lisbon": the reporting frame is dropped and
 * the reported clause's pronouns point back to the reporter. "Clarified"/"corrected" mark a correction.
 */
function unwrapReported(clause: string): { text: string; correction: boolean } {
  const m = REPORTED.exec(clause);
  if (!m?.[1] || !m[2] || !m[3] || /\b(?:is|are|was|were|has|have)\b/i.test(m[1])) return { text: clause, correction: false };
  const reporter = m[1].trim();
  const text = m[3]
    .replace(/^(?:they|he|she|i)\b/i, reporter)
    .replace(/\b(?:their|his|her|my)\b(?= \w)/gi, `${reporter}'s`)
    .replace(/\b(?:they|he|she)\b/gi, reporter);
  return { text, correction: /clarif|correct/i.test(m[2]) };
}

/**
 * Negated idioms that state no negation of a fact: "can't wait to", "can't believe", "couldn't be happier",
 * "couldn't agree more", "can't stop/help …ing", "can't thank you enough", "don't forget to", "not bad",
 * "not only", "never mind". Their "not"/"never" is kept in the text and does not negate the clause.
 * Matched after contractions are expanded ("can't" → "can not").
 */
const NEGATED_IDIOMS = new RegExp(
  [
    '\\b(?:can|could) not (?:wait|believe)\\b',
    '\\b(?:can|could) not (?:stop|help|quit) \\w+ing\\b',
    '\\b(?:can|could) not \\w+(?: (?:it|you|them|him|her|this|that))? enough\\b',
    '\\bcould not (?:have )?(?:be|been|feel|felt|ask for|asked for|agree|wish for) (?:a |any )?(?:happier|prouder|better|more|gladder|luckier|nicer)\\b',
    '\\b(?:do|did) not (?:forget|worry|hesitate)\\b',
    '\\bnot (?:bad|only|just)\\b',
    '\\bnever mind\\b',
    '\\bwhy not\\b',
  ].join('|'),
  'gi',
);

/** Lead-ins that retract the speaker's previous words, up to the corrected statement. */
const SELF_CORRECTION =
  /^\s*(?:(?:(?:oh|oops|no|um+|uh+|hmm+)[\s,]+)?wait\b[\s,:!.\-\u2014\u2013]*|(?:sorry|oops|my bad|scratch that|no)\b[\s,:!.\-\u2014\u2013]*i meant?\b[\s,:\-\u2014\u2013]*|(?:sorry|oops|my bad|scratch that)\s*[,:!.\-\u2014\u2013]+\s*|i meant?\b(?:,\s*|\s+(?=(?:i|we|my|our|it|they|he|she|the)\b)))/i;

/** Detects and removes markers, negation and retracted values from one clause. */
export function markClause(clause: string): MarkedClause {
  const markers = new Set<ClaimMarker>();
  const retracted: string[] = [];
  let negated = false;
  const reported = unwrapReported(clause);
  if (reported.correction) markers.add('correction');
  let text = ` ${reported.text} `.replace(NEGATED_IDIOMS, (idiom) =>
    // the idiom's negation word stands aside while negation is taken from the clause, and is restored after
    idiom.replace(/\b(?:not|never)\b/gi, (word) => (word.toLowerCase() === 'not' ? '\u0001' : '\u0002')),
  );
  const take = (re: RegExp, marker?: ClaimMarker, replacement = ' '): boolean => {
    let hit = false;
    text = text.replace(re, () => {
      hit = true;
      return replacement;
    });
    if (hit && marker) markers.add(marker);
    return hit;
  };

  take(/^\s*(?:correction|corrected|clarification|to clarify|erratum|errata)\b\s*[:,\-\u2014\u2013]*\s*/i, 'correction');
  // a speaker taking back what they just said: "oh wait,", "no wait", "sorry, I mean", "I meant", "scratch that"
  take(SELF_CORRECTION, 'correction');
  take(/^\s*(?:update|fyi|note|heads up|btw|ps)\b\s*[:,\-\u2014\u2013]+\s*/i, 'update');
  take(/\b(?:actually|in fact|in reality|as it turns out|it turns out(?: that)?)\b,?/gi, 'actually');
  // "Turns out I'm not allergic …", "… after all": the speaker reverses what was believed
  take(/^\s*(?:so\s+)?turn(?:s|ed) out(?: that)?\b,?/i, 'actually');
  take(/,?\s*\bafter all\b,?/gi, 'actually');
  // "the new CTO", "a new phone number": the thing named has changed.
  text = text.replace(/\b(the|our|my|his|her|their|its|a|an) (?:brand[- ])?new\b/gi, (_m, det: string) => {
    markers.add('changed');
    return det;
  });
  if (CHANGE_VERB_RE.test(text)) markers.add('changed');

  // ", not X" at the end names the value being corrected: "is March 13, not March 3".
  const contrast = /,\s*(?:and )?not (?!only\b)([^,]+?)\s*$/i.exec(text);
  if (contrast?.[1]) {
    retracted.push(contrast[1].trim());
    markers.add('contrast');
    text = text.slice(0, contrast.index) + ' ';
  }
  for (const m of text.matchAll(/\b(?:instead of|rather than|in place of|in lieu of) ([^,;]+?)(?=\s*(?:,|$|\bfor\b|\bas\b))/gi)) {
    if (m[1]) retracted.push(m[1].trim());
  }
  take(/,?\s*\b(?:instead of|rather than|in place of|in lieu of) [^,;]+?(?=\s*(?:,|$|\bfor\b|\bas\b))/gi, 'instead');
  take(/,?\s*\binstead\b\s*$/i, 'instead');

  if (take(/\bno longer\b/gi, 'no-longer')) negated = true;
  // "stopped driving", "gave up coffee": the activity no longer holds.
  if (take(/\b(?:has |have |had )?(?:stopped|quit|gave up|given up|ceased)\b(?=\s+\w+ing\b)/gi, 'no-longer')) negated = true;
  if (take(/,?\s*\b(?:any ?more|any longer)\b/gi, 'no-longer')) negated = true;
  text = text.replace(/\b(do|does|did) not (?=\w)/gi, (_m, aux: string) => {
    negated = true;
    return `${aux} `;
  });
  if (take(/\b(?:not|never)\b/gi)) negated = true;

  take(
    /,?\s*\b(?:starting|effective|beginning|as of|from) (?:next|this|today|tomorrow|monday|tuesday|wednesday|thursday|friday|the (?:next|start))\b[\w ]*$/i,
    'now',
  );
  take(/\b(?:right now|now|currently|nowadays|these days|from now on|as of now|as of today|at the moment|at present)\b,?/gi, 'now');
  take(/\bas well as\b/gi, 'additive', ' and ');
  take(/\b(?:also|additionally|in addition(?: to that)?|besides)\b,?/gi, 'additive');
  take(/,?\s*\b(?:too|as well|either)\s*$/i, 'additive');
  take(/\banother\b/gi, 'additive', ' a ');
  take(/\b(?:still|again|just|really|definitely|officially|recently|finally)\b/gi);

  text = text
    .replace(/\u0001/g, 'not')
    .replace(/\u0002/g, 'never')
    .replace(/\s+/g, ' ')
    .replace(/\s+,/g, ',')
    .replace(/^[\s,]+|[\s,]+$/g, '');
  return { text, markers, negated, retracted };
}
