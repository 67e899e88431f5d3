/**
 * Turns → claims without an LLM: the claim-shaped clauses of a conversation turn, each worded as a
 * self-contained statement to be stored as a semantic claim with the turn as its source.
 *
 * Only what the user (or a named human speaker) says is read: an assistant's suggestions and
 * explanations are not facts the user gave. A turn that comments on quoted material is skipped whole.
 * A clause a correction lead-in opened ("No wait, I prefer coffee") is worded with one marker,
 * "Actually, …": claim comparison reads it to replace the earlier value of a preference or other
 * many-valued slot, which a bare restatement would sit beside.
 */
import { notAClaim } from './claim-shape.js';
import { markedClauses, quotesMaterial } from './turn-sentences.js';

/** Who spoke a turn, as the capture reads it. */
export type TurnRole = 'user' | 'assistant' | 'other';

/** One turn, as written, with its speaker when the caller knows it. */
export interface CaptureTurn {
  content: string;
  tags?: readonly string[];
}

/** "user: …", "assistant: …", "Caroline: …" at the start of a stored turn. */
const SPEAKER_PREFIX = /^\s*([\p{L}][\p{L}\p{M}'’. -]{0,40}?):\s+/u;
const ASSISTANT = /^(?:assistant|ai|bot|claude|model|agent)$/i;
const USER = /^(?:user|human|me|you)$/i;

/** The speaker of a turn and its text without the speaker prefix. */
export function readTurn(turn: CaptureTurn): { role: TurnRole; speaker?: string; text: string } {
  const prefix = SPEAKER_PREFIX.exec(turn.content);
  const named = prefix?.[1]?.trim();
  // a role word ("user:", "assistant:") or a name ("Caroline:", "Ann Marie:"), not a heading ("Heads up:")
  const speaking =
    named !== undefined && (ASSISTANT.test(named) || USER.test(named) || /^\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*){0,2}$/u.test(named));
  const text = prefix !== null && speaking ? turn.content.slice(prefix[0].length) : turn.content;
  const speaker = text === turn.content ? undefined : named;
  const tags = turn.tags ?? [];
  if ((speaker !== undefined && ASSISTANT.test(speaker)) || (speaker === undefined && tags.includes('assistant')))
    return { role: 'assistant', text };
  if (speaker === undefined || USER.test(speaker)) return { role: 'user', text };
  // "Note: …", "Update: …" are labels, not speakers; a capitalised name is a person speaking.
  if (/^(?:note|update|todo|fyi|correction|context|decision|summary)$/i.test(speaker)) return { role: 'user', text: turn.content };
  return { role: 'other', speaker, text };
}

/**
 * The claims a turn states, each as a sentence (first letter capitalised, final period).
 * @example
 * captureClaims({ content: 'user: We use pnpm. Should we try bun?' }); // ['We use pnpm.']
 */
export function captureClaims(turn: CaptureTurn): string[] {
  const { role, speaker, text } = readTurn(turn);
  if (role === 'assistant' || quotesMaterial(text)) return [];
  const claims: string[] = [];
  for (const { text: clause, correction } of markedClauses(text)) {
    if (notAClaim(clause) !== undefined) continue;
    const sentence = correction ? `${CORRECTION_MARKER} ${asClause(clause)}.` : asSentence(clause);
    const worded = speaker !== undefined ? `${speaker}: ${sentence}` : sentence;
    if (!claims.includes(worded)) claims.push(worded);
  }
  return claims;
}

/** Names written in lower case keep it ("dbt models live…", "iOS 16", "npm"). */
const LOWER_CASE_NAME = /^(?:[a-z]+[A-Z]\w*|dbt|npm|pnpm|npx|uv|k8s|kubectl)\b/;

/** How a corrected clause is worded: the one marker claim comparison reads as a correction. */
const CORRECTION_MARKER = 'Actually,';

function asSentence(clause: string): string {
  const head = LOWER_CASE_NAME.test(clause) ? clause.charAt(0) : clause.charAt(0).toUpperCase();
  return `${head}${clause.slice(1)}.`;
}

/** The clause inside a sentence: "The launch…" → "the launch…"; "I", names and acronyms keep their case. */
function asClause(clause: string): string {
  return /^(?:The|My|Our|We|We['’]\w+|It|It['’]s|This|That|These|Those|A|An|His|Her|Their|There)\b/.test(clause)
    ? `${clause.charAt(0).toLowerCase()}${clause.slice(1)}`
    : clause;
}
