#!/usr/bin/env node
// A chat agent with long-term memory on the Vercel AI SDK, runnable offline.
//
//   npm run build && node examples/ai-sdk/chat.mjs                 # the scripted demo conversation
//   node examples/ai-sdk/chat.mjs "I am vegetarian." "What should I cook tonight?"
//   ENGRAM_DB=./memory.db node examples/ai-sdk/chat.mjs ...        # keep the memory between runs
//
// The model is scripted (the AI SDK's MockLanguageModelV3): a statement is kept with the `remember`
// tool, a question is answered from the `recall` tool. Swap in a real one, e.g.
// `import { openai } from '@ai-sdk/openai'; const model = openai('gpt-4o-mini');`, and nothing else changes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Engram } from 'engram';
import { engramContextMiddleware, engramTools } from 'engram/ai-sdk';

const path = process.env.ENGRAM_DB ?? join(mkdtempSync(join(tmpdir(), 'engram-ai-sdk-')), 'memory.db');
const scope = 'demo/users/alice';
const turns =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['I am allergic to peanuts.', 'I moved to Lisbon in March.', 'Which snack should I avoid on my flight?'];

const engram = await Engram.open({ path });
try {
  const model = wrapLanguageModel({ model: scriptedModel(), middleware: engramContextMiddleware({ engram, scopes: [scope] }) });
  for (const turn of turns) {
    const { text } = await generateText({
      model,
      system: 'You are a helpful travel assistant.',
      tools: engramTools({ engram, scope }),
      stopWhen: stepCountIs(4),
      prompt: turn,
    });
    console.log(`you:   ${turn}\nagent: ${text}\n`);
  }
  console.log(`memory: ${path}`);
} finally {
  await engram.close();
}

/** A stand-in for an LLM: remembers statements, recalls for questions, answers from the tool result. */
function scriptedModel() {
  const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
  const say = (text) => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] });
  const call = (toolName, input) => ({
    content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: undefined },
    usage,
    warnings: [],
  });
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      if (last.role === 'tool') {
        const { toolName, output } = last.content[0];
        if (toolName === 'remember') return say(`Noted (${output.value.action}).`);
        const memories = output.value.memories.map((memory) => memory.content);
        return say(
          memories.length > 0 ? `From what I remember: ${memories.slice(0, 2).join(' ')}` : 'I do not remember anything about that.',
        );
      }
      const message = last.content.map((part) => part.text ?? '').join(' ');
      return message.trim().endsWith('?')
        ? call('recall', { query: message, k: 3 })
        : call('remember', { content: message, layer: 'semantic' });
    },
  });
}
