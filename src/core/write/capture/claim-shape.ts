/**
 * Is a clause of a turn a claim the speaker makes (a preference, decision, tool choice, change, ownership,
 * schedule, constraint, fact about themselves, the people they name or the project)? The rules reject, in
 * order: questions, code and commands, quotes and reported speech, hypotheticals, plans, needs and hedges,
 * other people's opinions and wishes (not plain facts about them), requests and imperatives, banter,
 * clauses about an unnamed "that"/"it"; what is left must be a statement (a subject, then a verb, or a
 * clause the claim extractor reads a slot from). The subject rules read the clause after a leading time
 * adverbial ("These days we use Bun"). Each rule returns the reason, for debugging and the docs.
 */
import { extractClaim } from '../claims/claim-extractor.js';
import { termsOf } from '../claims/pos-tags.js';
import { hasCjk, segmentCjk } from '../../text/cjk.js';

/** Why a clause is not a claim, or undefined when it is one. */
export type NotAClaim =
  | 'question'
  | 'code'
  | 'quote'
  | 'reported'
  | 'hypothetical'
  | 'plan'
  | 'hedge'
  | 'other-person'
  | 'request'
  | 'chatter'
  | 'deictic'
  | 'too-short'
  | 'no-statement';

const QUESTION = /\?\s*$|^(?:what|which|who|whom|whose|where|when|why|how)\b.*\b(?:is|are|do|does|did|was|were|should|would|can|could)\b/i;

/** Shell, SQL and source-code shapes. */
const COMMAND_START =
  /^(?:npm|npx|pnpm|yarn|bun|bunx|deno|node|git|docker|kubectl|helm|terraform|uv|pip|pipx|python3?|cargo|go|make|cd|ls|cat|curl|wget|sudo|brew|apt|apt-get|export|import|const|let|var|function|def|class|return|select|insert|update|delete|create|alter)\s+\S/;
const SQL_START = /^(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH)\b/;
const CODE_MARKS = /=>|&&|\|\||::|[{}<>]|\(\)|\w\(|^\s*[$#]\s|--[a-z]|\s-[a-zA-Z]\s|\$[A-Za-z_{(]|;\s*\S/;
/** A sum of money ("$1800", "$8k", "€1,800.50", "£2.5m"): a value, not a shell variable. */
const CURRENCY = /(?<![\w$])[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:k|m|bn|b)?(?![\w$])/gi;
/** An error message pasted in. */
const ERROR_TEXT = /^(?:\w*Error|Exception|Traceback|ENOENT|EACCES|fatal|warning)\b|\bError:\s/;

/** A quoted passage of three words or more. */
const QUOTED = /["\u201c\u201d][^"\u201c\u201d]*\s[^"\u201c\u201d]*\s[^"\u201c\u201d]*["\u201c\u201d]/;
/** Reported speech and hearsay: what someone said, claims, heard. */
const REPORTED =
  /\b(?:says|said|say|claims?|claimed|told (?:me|us|the)|heard|reckons?|according to|apparently|supposedly|allegedly|swears? by|is what\b)/i;

const HYPOTHETICAL =
  /^(?:if|suppose|supposing|imagine|assuming|in case|what if|unless|hypothetically)\b|\b(?:if we|if i|if you|if they|what if|would (?:it|we|i|that|this)\b|would be\b|would probably)/i;
const PLAN =
  /\b(?:maybe|perhaps|might|could|should|ought to|let's|let us|let me|plan(?:ning)? to|thinking (?:about|of)|considering|consider|want to try|wants to try|going to try|will probably|probably|at some point|some day|someday|eventually|later this|next (?:week|month|quarter|year) (?:i|we) (?:will|might)|look into|looking into|try (?:out )?\w+ (?:and|to) see)\b/i;
/** A task or an unmet need: "I need to move the haircut", "we need a package manager" (not "we need two approvals", "we need to support Safari"). */
const NEED =
  /^i\s+(?:really\s+|still\s+|also\s+|just\s+)?need\s+to\s|^(?:i|we)\s+(?:really\s+|still\s+|also\s+)?need\s+(?:a|an|some|another|more)\s/i;
const HEDGE =
  /\b(?:not sure|unsure|i wonder|wondering|i doubt|doubt (?:we|it|that)|i don't know|i do not know|no idea|not clear|unclear|i think|i guess|i suppose|i never said|i'm not saying|i am not saying|nothing is decided|not decided|undecided|do not care|don't care|does not matter|doesn't matter)\b/i;

/** Subjects that are someone else, whose opinions and reports are theirs, not the user's. */
const OUTSIDER =
  /^(?:some(?:one|body| people| folks| users| teams)?|people|folks|others|everyone|everybody|nobody|the (?:vendor|vendors|competitor|competition|docs|documentation|readme|wiki|blog post|article|internet)|our (?:competitors?|old \w+|former \w+)|(?:a |my |our )?(?:competitor|vendor)\b)/i;
/** People the user names by their relation: facts about them are claims ("My sister lives in Porto"), their opinions are not. */
const RELATION =
  /^(?:a |my |our )?(?:friend|sister|brother|mother|mom|mum|father|dad|parents?|wife|husband|partner|colleague|coworker|co-worker|teammate|manager|boss|cto|ceo|lead)s?\b/i;
/** Verbs of opinion and wish: an opinion is a claim only when the speaker holds it. */
const OPINION =
  /\b(?:thinks?|thought|believes?|believed|feels?|felt|prefers?|preferred|loves?|loved|likes?|liked|hates?|hated|wants?|wanted|wishes|wished|hopes?|hoped|suggests?|suggested|recommends?|recommended|insists?|insisted|argues?|argued)\b/i;
const FIRST_PERSON = /^(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll|my|our|us|me)\b/i;

/** Openers of a request or instruction to the assistant. */
const REQUEST =
  /^(?:please|pls|can you|could you|would you|will you|do|don't|do not|let's|make sure|remember to|go ahead|here is|here's|here are|try|run|show|tell|give|add|use|check|ask|paste|fix|write|send|call|change|remove|make)\b/i;
/** A clause about an unnamed referent: "that did not work", "it is always DNS", "this line is wrong". */
const DEICTIC = /^(?:that|this|it|these|those|there|here|which)\b(?!\s+(?:repo|project|team|service|app|codebase)\b)/i;
/** A leading time adverbial, read past by the subject rules: "These days I prefer…", "Since March we use…". */
const TIME_ADVERBIAL =
  /^(?:these days|nowadays|lately|recently|currently|now|today|at the moment|from now on|going forward|(?:this|next|last) (?:week|month|year|quarter|sprint)|(?:since|as of|starting|from) (?:(?:this|next|last) )?(?:today|tomorrow|yesterday|week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|\d[\w:./-]*))\b[\s,]*/i;
/** Laughter marks banter ("Lol the coffee machine is broken again"), not a fact to keep. */
const CHATTER = /^(?:lol|lmao|rofl|haha\w*|hehe\w*)\b/i;
/** A clause opening with a verb in -ing and no subject: a status update ("starting on the rewrite this week"). */
const SUBJECTLESS_STATUS = /^(?:starting|working|heading|getting|finishing|wrapping|looking|trying|going|taking|grabbing|doing)\b/i;

/**
 * Why `clause` is not a claim, or undefined when it is one.
 * @example
 * notAClaim('we use pnpm'); // undefined
 * notAClaim('maybe we should try Turborepo'); // 'plan'
 */
export function notAClaim(clause: string): NotAClaim | undefined {
  const text = clause.trim();
  if (QUESTION.test(text)) return 'question';
  if (isCode(text)) return 'code';
  if (QUOTED.test(text)) return 'quote';
  if (REPORTED.test(text)) return 'reported';
  if (HYPOTHETICAL.test(text)) return 'hypothetical';
  if (HEDGE.test(text)) return 'hedge';
  if (PLAN.test(text)) return 'plan';
  if (CHATTER.test(text)) return 'chatter';
  const subject = text.replace(TIME_ADVERBIAL, '');
  if (NEED.test(subject)) return 'plan';
  if (OUTSIDER.test(subject)) return 'other-person';
  if (RELATION.test(subject) && OPINION.test(firstWords(subject, 5))) return 'other-person';
  if (!FIRST_PERSON.test(subject) && OPINION.test(firstWords(subject, 4))) return 'other-person';
  if (REQUEST.test(subject)) return 'request';
  if (DEICTIC.test(subject)) return 'deictic';
  if (SUBJECTLESS_STATUS.test(subject)) return 'no-statement';
  // words of a run written without spaces (Chinese, Japanese) are cut as the lexical channel cuts them
  const words = text
    .split(/\s+/)
    .flatMap((w) => (hasCjk(w) ? segmentCjk(w) : [w]))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < 2 || (words.length < 3 && !FIRST_PERSON.test(text))) return 'too-short';
  if (!isStatement(text) && extractClaim(text).length === 0) return 'no-statement';
  return undefined;
}

/** Code, a command, an error message, or mostly inline code. */
function isCode(text: string): boolean {
  if (ERROR_TEXT.test(text) || SQL_START.test(text)) return true;
  const inline = [...text.matchAll(/`[^`]*`/g)].reduce((n, m) => n + m[0].length, 0);
  if (inline > 0 && inline >= text.length * 0.3) return true;
  const prose = text.replace(/`[^`]*`/g, 'code').replace(CURRENCY, 'amount');
  return COMMAND_START.test(prose) || CODE_MARKS.test(prose);
}

function firstWords(text: string, n: number): string {
  return text.split(/\s+/).slice(0, n).join(' ');
}

/**
 * A subject then a verb. A bare verb first is an instruction ("run the tests"), unless another verb
 * follows, in which case the tagger read a noun as a verb ("Code reviews need two approvals").
 */
function isStatement(text: string): boolean {
  const terms = termsOf(text);
  return terms.length > 1 && terms.slice(1).some((t) => t.tags.has('Verb') || t.tags.has('Copula'));
}
