/**
 * A conversation turn as candidate claim clauses: code and quoted material out, sentences split, the
 * conversational lead-ins ("Thanks!", "By the way,", "Just a reminder,") and trailing reasons (", so …",
 * "because …") trimmed. A lead-in that takes back what was said ("Actually", "No wait", "Scratch that",
 * "Sorry, I meant") is trimmed too, and the clause is marked a correction. Nothing here decides whether
 * a clause is a claim (see claim-shape.ts).
 */

import { isAbbreviationDot } from '../../text/sentences.js';

/** Fenced code blocks. */
const FENCE = /```[\s\S]*?(?:```|$)/g;
/** A quoted line of an earlier message or document. */
const BLOCKQUOTE = /^\s*>/m;

/** Does the turn comment on quoted material ("> we use yarn" … "this line is wrong")? */
export function quotesMaterial(text: string): boolean {
  return BLOCKQUOTE.test(text);
}

/** Lead-ins that carry no claim, at the start of a sentence. */
const LEAD_IN =
  /^(?:(?:thanks|thank you|ok|okay|sure|yes|yeah|yep|no|nope|great|perfect|cool|nice|hmm+|right|alright|got it|sounds good|looks good|that works|understood|fyi|by the way|btw|also|and|oh|ah+|well|so|anyway|hey|hi|hello|honestly|frankly|to be honest|tbh|for the record|fwiw|just so you know|(?:just )?(?:a )?(?:quick |friendly )?reminder|as a reminder|quick context(?: before we start)?|for context|context|background|some context|heads up|note|ps)\b[\s,:!.\u2014\u2013-]*)+/i;
/** Lead-ins that take back the speaker's earlier words: what follows corrects them. */
const CORRECTION_LEAD_IN =
  /^(?:(?:(?:oh|oops|no|um+|uh+|hmm+)[\s,]+)?wait(?=\s*[,:!.\u2014\u2013-]|\s+(?:actually|i|we|my|our|the|it)\b)|actually|scratch that|on second thought|never mind|(?:sorry|oops|my bad)(?:[\s,]+i meant?)?|i meant?(?=[\s,]+(?:i|we|my|our|it|they|he|she|the)\b)|i(?:'ve| have)? changed my mind)\b[\s,:!.\u2014\u2013-]*/i;
/** ", by the way" and friends at the end. */
const TRAILER = /,?\s*\b(?:by the way|btw|fyi|for what it's worth|for context)\s*$/i;
/** Where a reason or consequence starts: kept out of the claim's wording. */
const REASON = /,?\s+(?:because|since|so that|when (?:she|he|they|we|i)\b)\s.*$|,\s*so\s.*$/i;
/** Clause boundaries inside a sentence that join two claims: "; " and ", but ". */
const JOINS = /;\s+|,\s+but\s+/i;

/** A candidate clause, and whether a lead-in marked it as correcting the speaker's earlier words. */
export interface TurnClause {
  text: string;
  correction: boolean;
}

/**
 * Splits a turn into sentences and clauses, without fenced code, with lead-ins and reasons trimmed.
 * @example
 * turnClauses('Thanks! By the way, we use pnpm, so keep the lockfile.'); // ['we use pnpm']
 */
export function turnClauses(text: string): string[] {
  return markedClauses(text).map((c) => c.text);
}

/**
 * Like {@link turnClauses}, each clause marked when a correction lead-in opened it.
 * @example
 * markedClauses('No wait, I prefer coffee.'); // [{ text: 'I prefer coffee', correction: true }]
 */
export function markedClauses(text: string): TurnClause[] {
  const clauses: TurnClause[] = [];
  for (const sentence of sentencesOf(text.replace(FENCE, '\n'))) {
    const question = /\?\s*$/.test(sentence);
    for (const part of sentence.split(JOINS)) {
      const clause = trimClause(part);
      if (clause.text.length > 0) clauses.push(question ? { ...clause, text: `${clause.text}?` } : clause);
    }
  }
  return clauses;
}

/** Sentences at line breaks and at end punctuation before a space, not after a title or an initial ("Dr. Patel", "D.C."). */
function sentencesOf(prose: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const boundary of prose.matchAll(/\n+|(?<=[^\s.][.!?])\s+(?=\S)/g)) {
    const dot = boundary.index - 1;
    if (!boundary[0].startsWith('\n') && prose[dot] === '.' && isAbbreviationDot(prose, dot)) continue;
    sentences.push(prose.slice(start, boundary.index));
    start = boundary.index + boundary[0].length;
  }
  sentences.push(prose.slice(start));
  return sentences.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Strips lead-ins (noting a correction), a topic label ("Quick context: …"), trailers, reasons and the final punctuation. */
function trimClause(part: string): TurnClause {
  let clause = part
    .trim()
    .replace(/[.!?]+$/, '')
    .trim();
  let correction = false;
  for (let before = ''; before !== clause;) {
    before = clause;
    clause = clause.replace(LEAD_IN, '').trim();
    clause = clause.replace(CORRECTION_LEAD_IN, () => {
      correction = true;
      return '';
    });
    clause = clause.trim();
  }
  clause = clause.replace(TRAILER, '').replace(REASON, '').trim();
  return { text: clause.replace(/[\s,;:\u2014\u2013-]+$/, '').trim(), correction };
}
