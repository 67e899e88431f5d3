/**
 * Clarifying questions: an assistant turn that ends with a question and the user turn that answers it
 * are read together. A short answer naming a choice ("Which package manager should I use?" → "bun")
 * is a stable fact ("The package manager is bun."); an answer to a question about a thing is put back
 * into the question ("Which day do deploys happen now?" → "Thursday": "Deploys happen on Thursday
 * now."), with an "it" the question leaves unnamed resolved to what the user's turn before it spoke of
 * ("The piano lesson moved." … "Which day is it [the piano lesson] on now?"). A fact without a real
 * subject ("The day is Thursday.") is not stated. An answer that decides or rejects, or gives its
 * reason ("No, not yet, because traffic is low"), is a decision: its episode is tagged `decision`, with
 * the question in its context and the reason as its rationale.
 */
import type { ParsedRememberInput } from '../../schemas.js';
import { firstVerbIndex, termsOf } from '../claims/pos-tags.js';
import { restateAnswer } from './answer-statement.js';
import { readTurn } from './capture-claims.js';
import { turnClauses } from './turn-sentences.js';

/** How an answer reads in the light of its question. */
export interface AnswerReading {
  /** A stable fact the answer states, as a claim sentence. */
  fact?: string;
  /** The answer decides or rejects something: what, and why when it says so. */
  decision?: { intent: string; rationale?: string };
}

/** The question an assistant turn ends with, if it ends with one. */
export function closingQuestion(text: string): string | undefined {
  const last = text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .trim()
    .split(/(?<=[.!?])\s+/)
    .pop()
    ?.trim();
  return last !== undefined && last.endsWith('?') && last.split(/\s+/).length >= 3 ? last : undefined;
}

const CHOICE = /^(?:so,?\s+)?(?:which|what)\s+(.+?)\s+(?:should|shall|do|does|would|will|can|could)\s/i;
const PREFERRED = /^(?:so,?\s+)?(?:which|what)(?:\s+(?:is|are)|['’]s|['’]re)\s+(?:your|the)\s+(?:preferred\s+|favou?rite\s+)?(.+?)\s*\?$/i;
const YES_NO = /^(?:so,?\s+)?(?:should|shall|do|does|did|would|will|can|could|is|are|want me to|may i)\b/i;
/** "tabs or spaces", "REST or GraphQL for the API", "in SQL or with the ORM": one word each side. */
const ALTERNATIVES = /([\w.+#-]+)\s+or\s+(?:(?:with|in|on|using|via)\s+)?(?:the\s+|a\s+|an\s+)?([\w.+#-]+)/i;
const REJECTION =
  /^(?:no|nope|nah|not|never|don't|do not|let's not|skip|neither|none|rather not)\b|\b(?:rather not|no need|not yet|not now|let's not)\b/i;
const ACCEPTANCE = /^(?:yes|yep|yeah|sure|ok|okay|go ahead|please do|do it|sounds good)\b/i;
/** What a question asks for that names no subject: "the day is Thursday" says nothing on its own. */
const GENERIC_TOPIC = /^(?:day|date|time|hour|week|month|year|weekday|one|option|way|place|thing|kind|type|choice|value|number|name)s?$/i;
const REASON =
  /\s*(?:,|;|\s[\u2014\u2013-])?\s*\b(?:because|since|as|so that|due to|given that|otherwise)\b\s+(.+)$|\s[\u2014\u2013-]\s(.+)$/i;

/** "npm, please." → "npm": the named choice without politeness and punctuation. */
function bare(answer: string): string {
  return answer
    .replace(/^(?:let's go with|let's use|go with|use|we'll use|i'd say|i prefer|i'd prefer|probably|definitely)\s+/i, '')
    .replace(/[\s,]*(?:please|thanks|thank you|i think|for now|i guess)\s*[.!]*$/i, '')
    .replace(/[.!]+$/, '')
    .trim();
}

/**
 * Reads `answer` in the light of `question`; undefined when the pair says nothing beyond the answer itself.
 * @example
 * readAnswer('Which package manager should I use?', 'bun'); // { fact: 'The package manager is bun.' }
 * readAnswer('Should I add Redis caching?', 'No, because traffic is low.'); // { decision: { intent: 'No', rationale: 'traffic is low' } }
 */
export function readAnswer(question: string, answer: string): AnswerReading | undefined {
  const text = answer.trim();
  if (text.endsWith('?')) return undefined;
  const reason = REASON.exec(text);
  const rationale = (reason?.[1] ?? reason?.[2])?.replace(/[.!]+$/, '').trim();
  const main = (reason ? text.slice(0, reason.index) : text).replace(/[\s,;.!]+$/, '').trim();
  const rejects = REJECTION.test(main);
  const reading: AnswerReading = {};
  const topic = CHOICE.exec(question)?.[1] ?? PREFERRED.exec(question)?.[1];
  const choice = bare(main);
  const options = ALTERNATIVES.exec(question);
  if (!rejects && !ACCEPTANCE.test(main) && choice.length > 0 && choice.split(/\s+/).length <= 5) {
    const restated = restateAnswer(question, choice);
    const named = topic?.replace(/^(?:the|a|an)\s+/i, '').toLowerCase();
    if (restated !== undefined) reading.fact = restated;
    else if (named !== undefined && !GENERIC_TOPIC.test(named)) reading.fact = `The ${named} is ${choice}.`;
    else if (topic === undefined && options?.[1] && options[2]) {
      const picked = [options[1], options[2]].find((o) => choice.toLowerCase().split(/\s+/)[0] === o.toLowerCase());
      const other = picked === options[1] ? options[2] : options[1];
      if (picked !== undefined) reading.fact = `The user prefers ${picked} over ${other}.`;
    }
  }
  if (rejects || rationale !== undefined || (YES_NO.test(question) && reading.fact === undefined && (ACCEPTANCE.test(main) || rejects))) {
    reading.decision = { intent: main.length > 0 ? main : text, ...(rationale !== undefined && rationale.length > 0 ? { rationale } : {}) };
  }
  return reading.fact !== undefined || reading.decision !== undefined ? reading : undefined;
}

/** Where the open question of a conversation is kept between writes (a state document of the scope). */
export function questionStateKey(conversation: string): string {
  return `capture/open-question/${conversation}`;
}

/** The conversation of a turn, or undefined when it names none. */
export function conversationOf(input: ParsedRememberInput): string | undefined {
  return input.source?.conversationId ?? input.context?.sessionId;
}

/** The key of a turn's conversation within a write: its scope and conversation. */
export function conversationKey(scope: string, conversation: string | undefined): string {
  return `${scope}\u0000${conversation ?? ''}`;
}

/**
 * What a conversation leaves open after a write: the question asked last, or what the user last spoke
 * of. With a question, `referent` is set ('' for none) when the user turn before it was in the same write.
 */
export interface OpenTurn {
  question?: string;
  referent?: string;
}

/** "The piano lesson moved." → "the piano lesson": the noun phrase a user turn opens its last statement with. */
export function referentOf(text: string): string | undefined {
  for (const clause of turnClauses(text).reverse()) {
    if (clause.endsWith('?') || !/^(?:the|my|our)\s/i.test(clause)) continue;
    const terms = termsOf(clause);
    const verb = firstVerbIndex(terms, 2);
    if (verb >= 2 && verb <= 5 && terms.slice(1, verb).every((t) => t.tags.has('Noun') || t.tags.has('Adjective'))) {
      const phrase = terms
        .slice(0, verb)
        .map((t) => t.text)
        .join(' ');
      return `${phrase.charAt(0).toLowerCase()}${phrase.slice(1)}`;
    }
  }
  return undefined;
}

/** "Which day is it on now?" with "the piano lesson" → "Which day is it [the piano lesson] on now?" (wh-questions only). */
export function withReferent(question: string, referent: string | undefined): string {
  if (referent === undefined || /\[[^\]]*\]/.test(question)) return question;
  return question.replace(
    /^(.*?\b(?:which|what)\s[^?]*?\b(?:is|are|was|were|do|does|did)\s+)(it|that|this)\b(?!\s*\[)/i,
    `$1$2 [${referent}]`,
  );
}

/**
 * The question each captured user turn answers: the given `context.question`, else the closing question
 * of the assistant turn just before it in the same conversation (in this write, or `pending` from earlier
 * writes, by {@link conversationKey}), its "it" resolved to what the user's turn before it spoke of.
 * Returns the pairs, and what is open at the end of each conversation.
 */
export function answeredQuestions(
  inputs: readonly ParsedRememberInput[],
  pending: ReadonlyMap<string, string> = new Map(),
): { answers: Map<ParsedRememberInput, string>; open: Map<string, OpenTurn> } {
  const answers = new Map<ParsedRememberInput, string>();
  const open = new Map<string, OpenTurn>();
  const current = (key: string): string | undefined => (open.has(key) ? open.get(key)?.question : pending.get(key));
  for (const input of inputs) {
    if (input.capture !== true) continue;
    const key = conversationKey(input.scope, conversationOf(input));
    const turn = readTurn({ content: input.content, ...(input.tags !== undefined ? { tags: input.tags } : {}) });
    if (turn.role === 'assistant') {
      const question = closingQuestion(turn.text);
      const before = open.get(key);
      // an assistant turn that speaks of more than the question may mean something of its own by "it"
      const alone = question !== undefined && turn.text.slice(0, turn.text.lastIndexOf(question)).split(/\s+/).filter(Boolean).length <= 4;
      const referent = !alone ? '' : before !== undefined ? (before.referent ?? '') : undefined;
      open.set(
        key,
        question === undefined
          ? {}
          : { question: withReferent(question, referent || undefined), ...(referent !== undefined ? { referent } : {}) },
      );
      continue;
    }
    const question = input.context?.question ?? current(key);
    if (question !== undefined) answers.set(input, question);
    const referent = referentOf(turn.text);
    open.set(key, referent !== undefined ? { referent } : {});
  }
  return { answers, open };
}

/**
 * The input a captured user turn becomes in the light of its question, and the fact it states (to be
 * stored in `userScope`, else the write scope). Without a reading the input is unchanged.
 */
export function answeredInput(input: ParsedRememberInput, question: string): { input: ParsedRememberInput; fact?: ParsedRememberInput } {
  const reading = readAnswer(question, readTurn({ content: input.content }).text);
  if (reading === undefined) return { input };
  const tags = reading.decision !== undefined ? [...new Set([...(input.tags ?? []), DECISION_TAG])] : input.tags;
  const answered: ParsedRememberInput = {
    ...input,
    ...(tags !== undefined ? { tags } : {}),
    context: { ...input.context, question },
    ...(reading.decision !== undefined ? { decision: { ...reading.decision, ...input.decision } } : {}),
  };
  if (reading.fact === undefined) return { input: answered };
  return { input: answered, fact: { ...input, scope: input.userScope ?? input.scope, content: reading.fact } };
}

/** The tag of an episode that records a decision. */
export const DECISION_TAG = 'decision';
