import { afterEach, describe, expect, it } from 'vitest';
import { Engram, type Logger } from '../../src/index.js';
import { scoreImportance } from '../../src/core/write/salience/index.js';
import { startLlmStub, type LlmStub, type StubAnswer, type StubRequest } from '../helpers/llm-stub.js';
import { tempEngram } from '../helpers/temp.js';

const scope = 'acme/users/alice';
const TIMEOUT_MS = 1_500;

describe('the LLM in the write path and for reflection (each use falls back on its own)', () => {
  let stub: LlmStub | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    await stub?.close();
    cleanup = undefined;
  });

  async function open(
    respond: (r: StubRequest) => StubAnswer,
    extra: { llmUses?: Record<string, boolean> } = {},
  ): Promise<{ engram: Engram; warnings: string[] }> {
    stub = await startLlmStub(respond);
    const warnings: string[] = [];
    const logger: Logger = { warn: (message) => warnings.push(message) };
    // Generous per-attempt timeout: the test machine may be loaded; the timeout case answers far later.
    const opened = await tempEngram({
      llm: { baseUrl: stub.baseUrl, model: 'stub', timeoutMs: TIMEOUT_MS, retries: 1, backoffMs: 5 },
      logger,
      ...extra,
    });
    cleanup = opened.cleanup;
    return { engram: opened.engram, warnings };
  }

  it('importance: pending (null) while the LLM scores, then the LLM score', async () => {
    const { engram } = await open((r) => (r.use === 'importance' ? { content: '{"importance": 0.93}' } : { content: '{}' }));
    const { id } = await engram.remember({ scope, content: 'We talked about the weather for a bit.' });
    expect((await engram.get(id, { scopes: [scope] })).importance).toBeNull();
    await engram.flushLlm();
    expect((await engram.get(id, { scopes: [scope] })).importance).toBe(0.93);
    // An explicit importance is never sent to the LLM.
    const explicit = await engram.remember({ scope, content: 'Explicitly scored.', importance: 0.2 });
    await engram.flushLlm();
    expect((await engram.get(explicit.id, { scopes: [scope] })).importance).toBe(0.2);
    expect(stub!.requests.filter((r) => r.use === 'importance')).toHaveLength(1);
  });

  it('importance: malformed JSON, out-of-range values and timeouts fall back to the deterministic score, logged', async () => {
    const texts = [
      'My daughter turns ten on March 3rd.',
      'I prefer aisle seats on long flights.',
      'The deploy is due by Friday, never forget.',
    ];
    const answers: StubAnswer[] = [
      { content: 'Sure! I would say 0.8' },
      { content: '{"importance": 7}' },
      { content: '{"importance": 0.5}', delayMs: TIMEOUT_MS * 4 },
    ];
    const answerFor = (r: StubRequest) => answers[texts.findIndex((t) => r.body.messages?.[1]?.content === t)] ?? { content: '{}' };
    const { engram, warnings } = await open((r) => (r.use === 'importance' ? answerFor(r) : { content: '{}' }));
    const ids = [];
    for (const content of texts) ids.push((await engram.remember({ scope, content })).id);
    await engram.flushLlm();
    for (const [i, id] of ids.entries()) {
      const memory = await engram.get(id, { scopes: [scope] });
      expect(memory.importance).toBe(scoreImportance(texts[i] as string));
    }
    expect(warnings.some((w) => w.includes('not JSON'))).toBe(true);
    expect(warnings.some((w) => w.includes('unexpected shape'))).toBe(true);
    expect(warnings.some((w) => w.includes(`no answer within ${TIMEOUT_MS} ms`))).toBe(true);
    expect(engram.assist.stats.failures).toBeGreaterThanOrEqual(3);
  });

  it('importance: a score that never lands is filled by the recovery job, from another engine on the same file', async () => {
    // Engine A's LLM never answers in time (as if A died mid-call); engine B drains the store's job queue.
    stub = await startLlmStub(() => ({ content: '{"importance": 0.9}', delayMs: 30_000 }));
    const a = await tempEngram({
      llm: { baseUrl: stub.baseUrl, model: 'stub', timeoutMs: 20_000, retries: 0 },
      importanceRecoveryMs: 0,
      logger: { warn: () => undefined },
    });
    cleanup = a.cleanup;
    const text = 'My daughter turns ten on March 3rd, never forget it.';
    const { id } = await a.engram.remember({ scope, content: text });
    expect((await a.engram.get(id, { scopes: [scope] })).importance).toBeNull();
    const b = await Engram.open({ path: a.path, embedder: 'hash' });
    try {
      expect((await b.stats({ scopes: [scope] })).jobs.byKind['score-importance']?.pending).toBe(1);
      const report = await b.processJobs({ scopes: [scope] });
      expect(report.importanceScored).toBe(1);
      expect((await b.get(id, { scopes: [scope] })).importance).toBe(scoreImportance(text));
      expect((await b.stats({ scopes: [scope] })).jobs.byKind['score-importance']?.pending ?? 0).toBe(0);
    } finally {
      await b.close();
    }
    await stub.close(); // A's pending call fails now; its late fallback must not overwrite the recovered score
    await a.engram.flushLlm();
    expect((await a.engram.get(id, { scopes: [scope] })).importance).toBe(scoreImportance(text));
  }, 30_000);

  it('importance: within the grace period the recovery job waits, and the LLM score wins', async () => {
    const { engram } = await open((r) => (r.use === 'importance' ? { content: '{"importance": 0.93}' } : { content: '{}' }));
    const { id } = await engram.remember({ scope, content: 'We talked about the weather for a bit.' });
    expect((await engram.processJobs({ scopes: [scope] })).importanceScored).toBe(0);
    await engram.flushLlm();
    expect((await engram.get(id, { scopes: [scope] })).importance).toBe(0.93);
  });

  it('importance: a 5xx is retried and the retry answer is used', async () => {
    let n = 0;
    const { engram } = await open((r) =>
      r.use === 'importance' ? (++n === 1 ? { status: 502, raw: 'bad gateway' } : { content: '{"importance": 0.61}' }) : { content: '{}' },
    );
    const { id } = await engram.remember({ scope, content: 'Alice moved her standup to 10am.' });
    await engram.flushLlm();
    expect((await engram.get(id, { scopes: [scope] })).importance).toBe(0.61);
    expect(n).toBe(2);
  });

  it('supersession: the LLM supersedes what the rules left side by side; a bad judgement changes nothing', async () => {
    let verdict = '{"relation": "supersedes", "confidence": 0.9, "reason": "new employer"}';
    const { engram } = await open((r) =>
      r.use === 'supersession'
        ? { content: verdict }
        : r.use === 'importance'
          ? { content: '{"importance": 0.5}' }
          : { content: '{"facts": []}' },
    );
    const old = await engram.remember({ scope, layer: 'semantic', content: 'Alice works for Initech on the billing team.' });
    const next = await engram.remember({ scope, layer: 'semantic', content: 'Alice joined Globex on the billing team.' });
    await engram.flushLlm();
    expect(next.action).toBe('created'); // the rules keep both (different employers may both be true)
    expect((await engram.get(old.id, { scopes: [scope] })).status).toBe('superseded');
    const history = await engram.history(next.id, { scopes: [scope] });
    expect(history.edges.find((e) => e.type === 'SUPERSEDES')?.metadata.reason).toMatch(/^LLM: new employer/);
    verdict = '{"relation": "supersedes", "confidence": "very"}';
    const a = await engram.remember({ scope, layer: 'semantic', content: 'Bob likes green tea in the morning.' });
    await engram.remember({ scope, layer: 'semantic', content: 'Bob likes green tea with honey.' });
    await engram.flushLlm();
    expect((await engram.get(a.id, { scopes: [scope] })).status).toBe('active');
  });

  it('extraction: conversation turns become semantic facts citing their turns; a malformed answer stores nothing', async () => {
    let facts = '';
    const { engram } = await open((r) => {
      if (r.use === 'extraction') return { content: facts };
      if (r.use === 'importance') return { content: '{"importance": 0.4}' };
      return { content: '{"relation": "unrelated", "confidence": 0.9}' };
    });
    const turns = await engram.remember([
      { scope, content: 'By the way, I am allergic to peanuts.', source: { conversationId: 'c1', messageId: 'm1' }, tags: ['user'] },
      { scope, content: 'Noted, I will keep that in mind.', source: { conversationId: 'c1', messageId: 'm2' }, tags: ['assistant'] },
    ]);
    facts = JSON.stringify({ facts: [{ content: 'Alice is allergic to peanuts.', sources: [turns[0]!.id], importance: 0.9 }] });
    // The extraction request reaches the stub after this line (it runs off the write path).
    await engram.flushLlm();
    const semantic = await engram.recall('allergic peanuts', { scopes: [scope], layers: ['semantic'] });
    const fact = semantic.hits.find((h) => h.content === 'Alice is allergic to peanuts.');
    expect(fact).toBeDefined();
    expect(fact?.provenance).toMatchObject({
      kind: 'episodic',
      derivedFrom: [turns[0]!.id],
      sources: [{ conversationId: 'c1', messageId: 'm1' }],
    });
    expect(fact?.importance).toBe(0.9);
    const extraction = stub!.requests.find((r) => r.use === 'extraction');
    expect(extraction?.body.messages?.[1]?.content).toContain(`[${turns[0]!.id}] user: By the way`);

    facts = '{"facts": [{"content": "   "}]}';
    await engram.remember({ scope, content: 'I also hate cilantro.', source: { conversationId: 'c2', messageId: 'm1' } });
    await engram.flushLlm();
    const stats = await engram.stats({ scopes: [scope] });
    expect(stats.byLayer.semantic).toBe(1);
  });

  it('uses can be switched off one by one', async () => {
    const { engram } = await open(() => ({ content: '{"importance": 0.99}' }), {
      llmUses: { importance: false, extraction: false, supersession: false },
    });
    const { id } = await engram.remember({ scope, content: 'Scored without the LLM.', source: { conversationId: 'c', messageId: '1' } });
    expect((await engram.get(id, { scopes: [scope] })).importance).toBe(scoreImportance('Scored without the LLM.'));
    await engram.flushLlm();
    expect(stub!.requests).toHaveLength(0);
    expect(engram.assist.enabled('reflection')).toBe(true);
    expect(engram.assist.enabled('importance')).toBe(false);
  });

  it('reflect: insights cite only the records given, with the importance of their level; null on a bad answer', async () => {
    let answer = '';
    const { engram } = await open((r) => (r.use === 'reflection' ? { content: answer } : { content: '{}' }));
    const records = [
      { id: 'e1', content: 'Grasping the mug failed with the soft gripper.', importance: 0.7 },
      { id: 'e2', content: 'Grasping the mug worked with the hard gripper.', importance: 0.7 },
    ];
    answer = JSON.stringify({
      insights: [
        { content: 'The hard gripper is better for mugs.', evidence: ['e1', 'e2', 'e9'] },
        { content: 'Unfounded.', evidence: ['zzz'] },
      ],
    });
    const insights = await engram.assist.reflect({ scope, level: 2, records });
    expect(insights).toEqual([{ content: 'The hard gripper is better for mugs.', derivedFrom: ['e1', 'e2'], importance: 0.7 }]);
    answer = '```json\n{"insights": "none"}\n```';
    expect(await engram.assist.reflect({ scope, level: 1, records })).toBeNull();
  });

  it('without an LLM every use is off and nothing waits', async () => {
    const opened = await tempEngram();
    cleanup = opened.cleanup;
    const { engram } = opened;
    expect(engram.assist.provider).toBeNull();
    expect(await engram.assist.reflect({ scope, level: 1, records: [{ id: 'a', content: 'x', importance: 1 }] })).toBeNull();
    const { id } = await engram.remember({ scope, content: 'I prefer tea over coffee.' });
    expect((await engram.get(id, { scopes: [scope] })).importance).toBe(scoreImportance('I prefer tea over coffee.'));
  });
});
