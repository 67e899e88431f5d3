/**
 * A question the assistant ends a write with is answered in a later one (a hook stores each exchange
 * as it ends): the open question of each conversation is kept as a state document of the scope, read
 * before a write with captured turns and updated in the write's transaction.
 */
import type { StoreReader, StoreTransaction } from '../../ports/store.js';
import type { ParsedRememberInput } from '../../schemas.js';
import { conversationKey, conversationOf, questionStateKey } from './answers.js';

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

/** Records what is open at the end of each conversation of a write (a question, or nothing once answered). */
export async function keepOpenQuestions(tx: StoreTransaction, open: ReadonlyMap<string, string | null>, at: number): Promise<void> {
  for (const [key, question] of open) {
    const [scope = '', conversation = ''] = key.split('\u0000');
    if (conversation === '') continue;
    if (question === null) await tx.deleteState(scope, questionStateKey(conversation));
    else await tx.setState(scope, questionStateKey(conversation), { question }, at);
  }
}
