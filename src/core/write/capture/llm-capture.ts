/**
 * With an LLM configured for extraction, captured turns are read by it: one call per write, the turns
 * numbered, each fact assigned to the first turn it cites. A turn the LLM could not read (no LLM, the
 * use switched off, a failed or unusable answer) is left to the rules. Assistant turns state no claims.
 */
import type { LlmAssist } from '../../llm/llm-assist.js';
import type { ParsedRememberInput } from '../../schemas.js';
import { readTurn } from './capture-claims.js';

/** Claim sentences by captured input, for the turns the LLM read; undefined when it read none. */
export async function llmCapturedClaims(
  assist: LlmAssist,
  inputs: readonly ParsedRememberInput[],
): Promise<Map<ParsedRememberInput, string[]> | undefined> {
  if (!assist.enabled('extraction')) return undefined;
  const read = new Map<ParsedRememberInput, string[]>();
  const turns: { id: string; input: ParsedRememberInput; content: string; speaker?: string }[] = [];
  for (const input of inputs) {
    if (input.capture !== true) continue;
    const turn = readTurn({ content: input.content, ...(input.tags !== undefined ? { tags: input.tags } : {}) });
    if (turn.role === 'assistant') read.set(input, []);
    else
      turns.push({
        id: `t${turns.length + 1}`,
        input,
        content: turn.text,
        ...(turn.speaker !== undefined ? { speaker: turn.speaker } : {}),
      });
  }
  if (turns.length === 0) return read;
  const facts = await assist.extractFacts(
    turns.map(({ id, content, speaker }) => ({ id, content, ...(speaker !== undefined ? { speaker } : {}) })),
  );
  if (facts === null) return read.size > 0 ? read : undefined;
  const byId = new Map(turns.map((t) => [t.id, t.input]));
  for (const turn of turns) read.set(turn.input, []);
  for (const fact of facts) {
    const input = byId.get(fact.sourceIds[0] ?? '');
    if (input !== undefined) read.get(input)?.push(fact.content);
  }
  return read;
}
