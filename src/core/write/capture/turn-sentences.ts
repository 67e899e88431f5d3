/**
 * A conversation turn as candidate claim clauses: code and quoted material out, sentences split, the
 * conversational lead-ins ("Thanks!", "By the way,", "Quick context:") and trailing reasons (", so …",
 * "because …") trimmed. Nothing here decides whether a clause is a claim (see claim-shape.ts).
 */

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
  /^(?:(?:thanks|thank you|ok|okay|sure|yes|yeah|yep|no|nope|great|perfect|cool|nice|hmm+|right|alright|got it|sounds good|looks good|that works|understood|fyi|by the way|btw|also|and|oh|well|so|anyway|quick context(?: before we start)?|for context|context|background|some context|heads up|note|ps)\b[\s,:!.\u2014\u2013-]*)+/i;
/** ", by the way" and friends at the end. */
const TRAILER = /,?\s*\b(?:by the way|btw|fyi|for what it's worth|for context)\s*$/i;
/** Where a reason or consequence starts: kept out of the claim's wording. */
const REASON = /,?\s+(?:because|since|so that|when (?:she|he|they|we|i)\b)\s.*$|,\s*so\s.*$/i;
/** Clause boundaries inside a sentence that join two claims: "; " and ", but ". */
const JOINS = /;\s+|,\s+but\s+/i;

/**
 * Splits a turn into sentences and clauses, without fenced code, with lead-ins and reasons trimmed.
 * @example
 * turnClauses('Thanks! By the way, we use pnpm, so keep the lockfile.'); // ['we use pnpm']
 */
export function turnClauses(text: string): string[] {
  const prose = text.replace(FENCE, '\n');
  const sentences = prose
    .split(/\n+|(?<=[^\s.][.!?])\s+(?=\S)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const clauses: string[] = [];
  for (const sentence of sentences) {
    const question = /\?\s*$/.test(sentence);
    for (const part of sentence.split(JOINS)) {
      const clause = trimClause(part);
      if (clause.length > 0) clauses.push(question ? `${clause}?` : clause);
    }
  }
  return clauses;
}

/** Strips lead-ins, a topic label ("Quick context: …"), trailers, reasons and the final punctuation. */
function trimClause(part: string): string {
  let clause = part
    .trim()
    .replace(/[.!?]+$/, '')
    .trim();
  clause = clause.replace(LEAD_IN, '').trim();
  clause = clause.replace(TRAILER, '').replace(REASON, '').trim();
  return clause.replace(/[\s,;:\u2014\u2013-]+$/, '').trim();
}
