/**
 * `engram/ai-sdk` in the AI SDK's own agent loop (`generateText` / `streamText` with tools and
 * `stopWhen`), driven by the SDK's scripted `MockLanguageModelV3` (no network) over a real Engram on a
 * temp SQLite file: the model calls `recall` and answers from what the tool returned; `remember`
 * writes into the application's scope only; the middleware puts the turn's context into the prompt the
 * model receives.
 */
import { generateText, simulateReadableStream, stepCountIs, streamText, wrapLanguageModel, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engramContextMiddleware, engramTools } from '../../src/adapters/ai-sdk/index.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
type Prompt = CallOptions['prompt'];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The JSON outputs of the tool results in a prompt, by tool name. */
function toolResults(prompt: Prompt): Array<{ toolName: string; value: unknown }> {
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' && part.output.type === 'json' ? [{ toolName: part.toolName, value: part.output.value }] : [],
        )
      : [],
  );
}

function systemText(prompt: Prompt): string[] {
  return prompt.flatMap((message) => (message.role === 'system' ? [message.content] : []));
}

/**
 * A scripted agent: with no tool result yet it calls `tool` with `input`; once the result is in the
 * prompt it answers with `answer(result)`.
 */
function scriptedAgent(toolName: string, input: Record<string, unknown>, answer: (result: unknown) => string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const result = toolResults(prompt).find((r) => r.toolName === toolName);
      if (result === undefined) {
        return {
          content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: answer(result.value) }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

describe('engramTools in generateText', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ engram, cleanup } = await tempEngram());
    await engram.remember([
      { scope: 'acme/users/alice', content: 'Alice prefers the window seat on long flights.', layer: 'semantic' },
      { scope: 'acme/users/alice', content: 'Alice is allergic to peanuts.', layer: 'semantic' },
      { scope: 'acme/users/bob', content: 'Bob prefers the aisle seat on long flights.', layer: 'semantic' },
    ]);
  });
  afterEach(() => cleanup());

  it('runs a loop where the model calls recall, then answers from the memories the tool returned', async () => {
    const model = scriptedAgent('recall', { query: 'which seat does the user prefer on flights?' }, (result) => {
      const { memories } = result as { memories: Array<{ content: string }> };
      return `From memory: ${memories[0]?.content ?? 'nothing'}`;
    });
    const result = await generateText({
      model,
      tools: engramTools({ engram, scope: 'acme/users/alice' }),
      stopWhen: stepCountIs(4),
      prompt: 'Book my usual seat.',
    });

    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['recall']);
    expect(result.text).toBe('From memory: Alice prefers the window seat on long flights.');
    const returned = result.steps[0]?.toolResults[0]?.output as {
      memories: Array<{ id: string; scope: string; relevance: number; layer: string }>;
    };
    // the scopes are the application's: Bob's memory never reaches Alice's agent
    expect(returned.memories.every((memory) => memory.scope === 'acme/users/alice')).toBe(true);
    expect(returned.memories[0]).toMatchObject({ layer: 'semantic', id: expect.stringMatching(/\S/) });
    expect(returned.memories[0]?.relevance).toBeGreaterThan(0);
    // the second call saw the tool's real output
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('window seat');
  });

  it('lets the model remember into the fixed scope, and a later recall finds it', async () => {
    const tools = engramTools({ engram, scope: 'acme/users/alice' });
    const writer = scriptedAgent(
      'remember',
      { content: 'Alice moved to Lisbon in March.', layer: 'semantic', tags: ['profile'] },
      (result) => `stored ${(result as { action: string }).action}`,
    );
    const written = await generateText({
      model: writer,
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'I moved to Lisbon in March, remember that.',
    });
    expect(written.text).toBe('stored created');

    const { items } = await engram.list({ scopes: ['acme/users/alice'], tag: 'profile' });
    expect(items.map((item) => [item.content, item.layer])).toEqual([['Alice moved to Lisbon in March.', 'semantic']]);
    const reader = scriptedAgent('recall', { query: 'where does the user live now?', k: 1 }, (result) =>
      (result as { memories: Array<{ content: string }> }).memories.map((m) => m.content).join('|'),
    );
    const read = await generateText({ model: reader, tools, stopWhen: stepCountIs(3), prompt: 'Where do I live?' });
    expect(read.text).toBe('Alice moved to Lisbon in March.');
  });

  it('advertises zod schemas the model can fill, without a scope to choose', async () => {
    const tools: ToolSet = engramTools({ engram, scope: 'acme/users/alice' });
    expect(Object.keys(tools).sort()).toEqual(['context', 'recall', 'remember']);
    const model = new MockLanguageModelV3({
      doGenerate: { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    });
    await generateText({ model, tools, prompt: 'hi' });
    const advertised = model.doGenerateCalls[0]?.tools ?? [];
    const byName = Object.fromEntries(
      advertised.map((t) => [
        t.name,
        t.type === 'function' ? (t.inputSchema as { properties: Record<string, unknown>; required?: string[] }) : undefined,
      ]),
    );
    expect(Object.keys(byName).sort()).toEqual(['context', 'recall', 'remember']);
    expect(Object.keys(byName.remember?.properties ?? {}).sort()).toEqual(['content', 'importance', 'layer', 'tags']);
    expect(byName.recall?.required).toEqual(['query']);
    expect(byName.context?.required).toEqual(['message']);
  });

  it('reports an invalid tool input back to the model as a tool error, and the store is unchanged', async () => {
    const before = (await engram.stats({ scopes: ['acme/users/alice'] })).total;
    expect(before).toBe(2);
    const model = scriptedAgent('remember', { content: '' }, () => 'unused');
    const result = await generateText({
      model,
      tools: engramTools({ engram, scope: 'acme/users/alice' }),
      stopWhen: stepCountIs(2),
      prompt: 'remember nothing',
    });
    const errors = result.steps[0]?.content.filter((part) => part.type === 'tool-error') ?? [];
    expect(errors).toHaveLength(1);
    expect((await engram.stats({ scopes: ['acme/users/alice'] })).total).toBe(before);
  });

  it('refuses missing or mistyped options when made, with INVALID_INPUT naming the field', () => {
    const made = (options: unknown) => () => engramTools(options as Parameters<typeof engramTools>[0]);
    const invalid = (pattern: RegExp) =>
      expect.objectContaining({ name: 'EngramError', code: 'INVALID_INPUT', message: expect.stringMatching(pattern) });
    expect(made({ engram })).toThrow(invalid(/engramTools: scope is missing: name the scope remember writes to/));
    expect(made({ engram, scope: 'acme/users/alice', readScopes: [] })).toThrow(invalid(/readScopes is empty/));
    expect(made({ engram, scope: 'acme/users/alice', readScopes: 'acme/users/alice' })).toThrow(invalid(/readScopes must be a list/));
    expect(made({ engram, scopes: ['acme/users/alice'] })).toThrow(invalid(/scope is missing.*unknown option\(s\) scopes/));
    expect(made({ engram: {}, scope: 'acme/users/alice' })).toThrow(invalid(/engram must be an open Engram/));
  });

  it('gives the context tool the rendered Markdown of the turn', async () => {
    const model = scriptedAgent(
      'context',
      { message: 'I need a snack for the flight' },
      (result) => (result as { markdown: string }).markdown,
    );
    // a generous budget: these tests check what the context holds, not how fast it is built
    const result = await generateText({
      model,
      tools: engramTools({ engram, scope: 'acme/users/alice', contextBudgetMs: 30_000 }),
      stopWhen: stepCountIs(3),
      prompt: 'I need a snack for the flight',
    });
    expect(result.text).toContain('peanuts');
    expect(result.text).not.toContain('Bob');
  });
});

describe('engramContextMiddleware around a model', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ engram, cleanup } = await tempEngram());
    await engram.remember([
      { scope: 'acme/users/alice', content: 'Always answer Alice in French.', layer: 'procedural' },
      { scope: 'acme/users/alice', content: 'Alice is allergic to peanuts.', layer: 'semantic' },
      { scope: 'acme/users/bob', content: 'Bob is allergic to shellfish.', layer: 'semantic' },
    ]);
  });
  afterEach(() => cleanup());

  it('puts the context of the turn into the prompt the model receives, after the app system prompt', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => ({
        content: [{ type: 'text', text: systemText(prompt).join('\n---\n') }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      }),
    });
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramContextMiddleware({ engram, scopes: ['acme/users/alice'], budgetMs: 30_000 }),
    });
    await generateText({ model: wrapped, system: 'You are a travel assistant.', prompt: 'Order me a snack with peanuts for the flight.' });

    const prompt = model.doGenerateCalls[0]?.prompt as Prompt;
    expect(prompt.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    const [app, memory] = systemText(prompt);
    expect(app).toBe('You are a travel assistant.');
    expect(memory).toContain('Alice is allergic to peanuts.');
    expect(memory).toContain('Always answer Alice in French.');
    expect(memory).not.toContain('Bob');
  });

  it('injects on every step of a tool loop', async () => {
    const model = scriptedAgent('recall', { query: 'allergies' }, () => 'No peanuts for you.');
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramContextMiddleware({ engram, scopes: ['acme/users/alice'], budgetMs: 30_000 }),
    });
    const result = await generateText({
      model: wrapped,
      tools: engramTools({ engram, scope: 'acme/users/alice' }),
      stopWhen: stepCountIs(3),
      prompt: 'Can I eat peanut butter?',
    });
    expect(result.text).toBe('No peanuts for you.');
    expect(model.doGenerateCalls).toHaveLength(2);
    for (const call of model.doGenerateCalls) expect(systemText(call.prompt).join('\n')).toContain('Alice is allergic to peanuts.');
  });

  it('injects into streamed calls', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Pas de cacahuètes.' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
          ],
        }),
      }),
    });
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramContextMiddleware({ engram, scopes: ['acme/users/alice'], budgetMs: 30_000 }),
    });
    const result = streamText({ model: wrapped, prompt: 'Can I eat peanut butter?' });
    expect(await result.text).toBe('Pas de cacahuètes.');
    expect(systemText(model.doStreamCalls[0]?.prompt as Prompt).join('\n')).toContain('allergic to peanuts');
  });

  it('refuses missing or empty scopes when made, with INVALID_INPUT, not a TypeError on the first call', async () => {
    const made = (options: unknown) => () => engramContextMiddleware(options as Parameters<typeof engramContextMiddleware>[0]);
    const invalid = (pattern: RegExp) =>
      expect.objectContaining({ name: 'EngramError', code: 'INVALID_INPUT', message: expect.stringMatching(pattern) });
    expect(made({ engram })).toThrow(invalid(/engramContextMiddleware: scopes is missing: name the scopes the context may read/));
    expect(made({ engram, scopes: [] })).toThrow(invalid(/scopes is empty/));
    expect(made({ engram, scopes: 'acme/users/alice' })).toThrow(invalid(/scopes must be a list of scope paths/));
    expect(made({ engram, scopes: ['acme/users/alice'], maxTokens: -1 })).toThrow(invalid(/maxTokens/));
    expect(made({ engram, scope: ['acme/users/alice'] })).toThrow(invalid(/unknown option\(s\) scope\b/));
    expect(made(undefined)).toThrow(invalid(/must be an options object/));
    // the model is never reached with options that could not work
    const model = new MockLanguageModelV3({
      doGenerate: async () => ({ content: [], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
    });
    expect(() => wrapLanguageModel({ model, middleware: engramContextMiddleware({ engram } as never) })).toThrow(
      invalid(/scopes is missing/),
    );
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('passes a call through unchanged when memory has nothing for it', async () => {
    const empty = await tempEngram();
    try {
      const model = new MockLanguageModelV3({
        doGenerate: { content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      });
      const wrapped = wrapLanguageModel({
        model,
        middleware: engramContextMiddleware({ engram: empty.engram, scopes: ['acme/users/alice'], budgetMs: 30_000 }),
      });
      await generateText({ model: wrapped, prompt: 'hello' });
      expect(model.doGenerateCalls[0]?.prompt.map((message) => message.role)).toEqual(['user']);
    } finally {
      await empty.cleanup();
    }
  });
});
