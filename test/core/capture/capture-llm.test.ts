/**
 * Capture with an LLM configured: its extraction is used, one call per write for the captured user
 * turns; a failed or unusable answer leaves the turns to the rules. The LLM is a real HTTP server
 * speaking the chat-completions protocol (test/helpers/llm-stub.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { startLlmStub, type LlmStub, type StubAnswer, type StubRequest } from '../../helpers/llm-stub.js';
import { enginesPerTest } from './engines.js';

const SCOPE = 't/llm-capture';
const engines = enginesPerTest();
let stub: LlmStub | undefined;

async function open(respond: (r: StubRequest) => StubAnswer): Promise<Engram> {
  const started = await startLlmStub(respond);
  stub = started;
  engines.later(() => started.close());
  return engines.open({
    llm: { baseUrl: started.baseUrl, model: 'stub', timeoutMs: 20_000, retries: 0 },
    llmUses: { importance: false, supersession: false },
    logger: { warn: () => undefined },
  });
}

const turn = (messageId: string, role: string, text: string) => ({
  scope: SCOPE,
  content: `${role}: ${text}`,
  capture: true,
  source: { conversationId: 'c1', messageId },
});
const semantic = async (engram: Engram): Promise<string[]> =>
  (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10 })).map((r) => r.content).sort();

describe('capture with an LLM', () => {
  it('uses the LLM extraction, one call for the user turns of a write, none afterwards', async () => {
    const engram = await open((r) =>
      r.use === 'extraction'
        ? {
            content: JSON.stringify({
              facts: [
                { content: 'The project uses bun as its package manager.', sources: ['t2'] },
                { content: 'The team deploys on Fridays.', sources: ['t1'] },
              ],
            }),
          }
        : { content: '{}' },
    );
    const results = await engram.remember([
      turn('m1', 'user', 'Deploys are on Fridays here.'),
      turn('m2', 'user', 'Bun is what we settled on for packages.'),
      turn('m3', 'assistant', 'Great, I will use bun from now on.'),
    ]);
    await engram.flushLlm();
    expect(results.map((r) => r.claims?.length)).toEqual([1, 1, 0]);
    expect(await semantic(engram)).toEqual(['The project uses bun as its package manager.', 'The team deploys on Fridays.']);
    const extraction = stub!.requests.filter((r) => r.use === 'extraction');
    expect(extraction).toHaveLength(1);
    const sent = extraction[0]?.body.messages?.find((m) => m.role === 'user')?.content ?? '';
    expect(sent).toContain('[t1] Deploys are on Fridays here.');
    expect(sent).not.toContain('I will use bun');
  });

  it('falls back to the rules when the LLM fails', async () => {
    const engram = await open(() => ({ status: 500, raw: 'upstream error' }));
    const result = await engram.remember(turn('m1', 'user', 'We use pnpm for this repo. Should we try bun?'));
    expect(result.claims).toHaveLength(1);
    expect(await semantic(engram)).toEqual(['We use pnpm for this repo.']);
  });
});
