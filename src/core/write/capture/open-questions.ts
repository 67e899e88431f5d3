/**
 * A question the assistant ends a write with is answered in a later one (a hook stores each exchange
 * as it ends): the open question of each conversation is kept as a state document of the scope, read
 * before a write with captured turns and updated in the write's transaction. Between a user turn and
 * the assistant's question the document keeps what the user spoke of, to resolve the question's "it".
 */
import type { StoreReader, StoreTransaction } from '../../ports/store.js';
import type { ParsedRememberInput } from '../../schemas.js';
import { conversationKey, conversationOf, questionStateKey, withReferent, type OpenTurn } from './answers.js';

/** The open questions of the conversations the captured turns of `inputs` belong to. */
export async function openQuestionsOf(store: StoreReader, inputs: readonly ParsedRememberInput[]): Promise<Map<string, string>> {
  const open = new Map<string, string>();
  const wanted = new Map<string, { scope: string; conversation: string }>();
  for (const input of inputs) {
    const conversation = conversationOf(input);
    if (input.capture === true && conversation !== undefined)
      wanted.set(conversationKey(input.scope, conversation), { scope: input.scope, conversation });
  }
  for (const [key, { scope, conversation }] of wanted) {
    const question = (await store.getState(scope, questionStateKey(conversation)))?.value as { question?: unknown } | null | undefined;
    if (typeof question?.question === 'string') open.set(key, question.question);
  }
  return open;
}

/** Records what is open at the end of each conversation of a write: a question, what the user spoke of, or nothing. */
export async function keepOpenQuestions(tx: StoreTransaction, open: ReadonlyMap<string, OpenTurn>, at: number): Promise<void> {
  for (const [key, { question, referent }] of open) {
    const [scope = '', conversation = ''] = key.split('\u0000');
    if (conversation === '') continue;
    const stateKey = questionStateKey(conversation);
    if (question !== undefined) {
      // without a user turn before it in this write, the one it follows was stored by an earlier write
      const earlier = referent === undefined ? ((await tx.getState(scope, stateKey))?.value as { referent?: unknown } | null) : null;
      const known = typeof earlier?.referent === 'string' ? earlier.referent : undefined;
      await tx.setState(scope, stateKey, { question: withReferent(question, known) }, at);
    } else if (referent !== undefined && referent !== '') await tx.setState(scope, stateKey, { referent }, at);
    else await tx.deleteState(scope, stateKey);
  }
}
