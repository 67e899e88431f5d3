import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';
import { slowStore, type StoreMethod } from '../helpers/slow-store.js';
import { RULES_FRESH_MS } from '../../src/serving/build-context.js';
import { Serving } from '../../src/serving/serving.js';
import { VirtualTime } from '../helpers/virtual-time.js';

const shared = 'acme/shared';
const user = 'acme/users/alice';
const scopes = [shared, user];

async function seed(engram: Engram): Promise<string[]> {
  await engram.remember([
    { scope: shared, layer: 'procedural', content: 'Always confirm before deleting files.', priority: 5 },
    { scope: shared, layer: 'procedural', content: 'Answer in English unless asked otherwise.', priority: 1 },
    { scope: shared, layer: 'procedural', content: 'Never grasp a hot mug with the soft gripper.', priority: 9 },
    { scope: user, layer: 'semantic', content: 'Alice prefers her coffee black.', importance: 0.8 },
    { scope: user, layer: 'semantic', content: 'Alice works at Acme Robotics as a lab manager.' },
    { scope: shared, layer: 'semantic', content: 'A coffee mug is a container with a handle.', name: 'coffee_mug' },
  ]);
  const episodes = await engram.remember(
    Array.from({ length: 8 }, (_, i) => ({
      scope: user,
      layer: 'episodic' as const,
      content: `Grasped the coffee mug for Alice (attempt ${i + 1}).`,
      occurredAt: Date.UTC(2024, 4, 1, 9, i),
      perception: { objects: ['coffee_mug'], people: ['Alice'], salience: 0.7 + i * 0.01, novelty: 0.3 },
      context: { goal: 'grasp_coffee_mug', sessionId: 's1' },
      action: { tool: 'graspObject' },
      outcome: { success: i !== 5 },
      source: { conversationId: 'c-42', messageId: `m${i + 1}` },
    })),
  );
  return episodes.map((e) => e.id);
}

/** A build timed in virtual milliseconds (the wall clock of a loaded machine plays no part). */
async function virtuallyTimed<T>(time: VirtualTime, fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = time.now();
  const value = await time.run(fn());
  return { value, ms: time.now() - start };
}

describe('context builder', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  let episodeIds: string[];
  beforeEach(async () => {
    ({ engram, cleanup } = await tempEngram());
    episodeIds = await seed(engram);
  });
  afterEach(async () => cleanup());

  /** The context builder over the real store with slow methods, on virtual time (budget and delays in virtual ms). */
  const virtual = (delays: Partial<Record<StoreMethod, number>>) => {
    const time = new VirtualTime();
    const store = slowStore(engram.store, delays, (ms) => time.sleep(ms));
    const serving = new Serving(() => ({ store, embedder: engram.embedder, clock: engram.clock, config: engram.recallConfig }), {
      stopwatch: time.stopwatch,
      scheduler: time.scheduler,
    });
    return { serving, time };
  };

  it('returns every part at full level when there is time', async () => {
    const ctx = await engram.context({
      scopes,
      message: 'Can you bring Alice her coffee mug?',
      percept: { objects: ['coffee_mug'], people: ['Alice'], goal: 'grasp_coffee_mug' },
      budgetMs: 5_000,
    });
    for (const part of Object.values(ctx.parts)) expect(part.level).toBe('full');
    expect(ctx.parts.rules.items.map((r) => r.priority)).toEqual([9, 5, 1]);
    expect(ctx.parts.profile.items.map((p) => p.content)).toContain('Alice prefers her coffee black.');
    expect(ctx.parts.profile.items.every((p) => p.scope === user)).toBe(true);
    expect(ctx.parts.knowledge.items.length).toBeLessThanOrEqual(8);
    expect(ctx.parts.knowledge.items.map((k) => k.content)).toContain('A coffee mug is a container with a handle.');
    const mug = ctx.parts.concepts.items.find((c) => c.matchedBy.includes('object:coffee_mug'));
    expect(mug?.episodeCount).toBe(8);
    expect(mug?.grounding?.successRate).toEqual({ k: 7, n: 8, rate: 0.875 });
    expect(mug?.statistics?.map((s) => s.verbal)).toContain(`${mug?.name} success rate: 0.875 (7/8)`);
    const [prediction] = ctx.parts.predictions.items;
    expect(prediction?.action).toBe('graspObject');
    expect(prediction?.successProbability).toBeCloseTo(0.875, 3);
    expect(ctx.parts.episodes.items.length).toBeGreaterThan(0);
    expect(ctx.parts.episodes.items.length).toBeLessThanOrEqual(5);
    const episode = ctx.parts.episodes.items[0]!;
    expect(episodeIds).toContain(episode.id);
    expect(episode.sources[0]?.conversationId).toBe('c-42');
    expect(ctx.markdown).toContain('## Rules\n- Never grasp a hot mug with the soft gripper. (priority 9)');
    expect(ctx.markdown).toContain('## Predictions');
    expect(ctx.markdown).toContain('source: c-42 #m');
    expect(ctx.tokens).toBe(Math.ceil(ctx.markdown.length / 4));
    expect(JSON.parse(JSON.stringify(ctx))).toEqual(ctx);
  });

  it('keeps the deadline when grounding and recall are slow, and labels what it got', async () => {
    // getMemories serves recall, grounding and predictions; lists (rules, profile) and searches stay fast.
    const { serving, time } = virtual({ getMemories: 300 });
    const input = { scopes, message: 'coffee mug for Alice', percept: { objects: ['coffee_mug'], goal: 'grasp_coffee_mug' } };
    await time.run(serving.warm(input));
    const { value: ctx, ms } = await virtuallyTimed(time, () => serving.context({ ...input, budgetMs: 50 }));
    expect(ms).toBeLessThanOrEqual(50);
    expect(ctx.elapsedMs).toBeLessThanOrEqual(50);
    expect(ctx.parts.rules.level).toBe('full');
    expect(ctx.parts.profile.level).toBe('full');
    expect(ctx.parts.episodes.level).toBe('skipped');
    expect(ctx.parts.predictions.level).toBe('skipped');
    expect(ctx.parts.concepts.level).toBe('skipped'); // terms read their episodes through getMemories
    expect(ctx.markdown).toContain('episodes skipped');
    expect(ctx.markdown).toContain('## Rules');
  });

  it('serves rules and profile always: waited for when nothing is cached, fresh for RULES_FRESH_MS, then cached when the fresh read is late', async () => {
    const { serving, time } = virtual({ listMemories: 300 });
    const { value: cold, ms: coldMs } = await virtuallyTimed(time, () => serving.context({ scopes, message: 'hello', budgetMs: 40 }));
    // Nothing cached yet: the late read is waited for rather than dropped.
    expect(coldMs).toBeGreaterThanOrEqual(300);
    expect(cold.parts.rules.level).toBe('full');
    expect(cold.parts.rules.items.map((r) => r.priority)).toEqual([9, 5, 1]);
    expect(cold.parts.profile.level).toBe('full');
    expect(cold.parts.profile.items.map((p) => p.content)).toContain('Alice prefers her coffee black.');
    const { value: warm, ms } = await virtuallyTimed(time, () => serving.context({ scopes, message: 'hello', budgetMs: 40 }));
    expect(ms).toBeLessThanOrEqual(40);
    expect(warm.parts.rules.level).toBe('full');
    expect(warm.parts.rules.items.map((r) => r.priority)).toEqual([9, 5, 1]);
    time.advance(RULES_FRESH_MS + 100); // past the freshness of that read
    const { value: stale, ms: staleMs } = await virtuallyTimed(time, () => serving.context({ scopes, message: 'coffee', budgetMs: 40 }));
    expect(staleMs).toBeLessThanOrEqual(40);
    expect(stale.parts.rules.level).toBe('cached');
    expect(stale.parts.rules.items).toHaveLength(3);
    expect(stale.parts.profile.level).toBe('cached');
    expect(stale.parts.profile.items[0]?.content).toBe('Alice prefers her coffee black.');
    // The late read refreshes the copy once the build has returned: the next build has it fresh.
    await time.run(time.sleep(400));
    const refreshed = await time.run(serving.context({ scopes, message: 'coffee', budgetMs: 40 }));
    expect(refreshed.parts.rules.level).toBe('full');
    expect(refreshed.parts.profile.level).toBe('full');
  });

  it('starts the budget once the model is loaded: a cold model does not use it up', async () => {
    const time = new VirtualTime();
    let loaded = false;
    // The real embedder behind a model load of 2 virtual seconds on first use.
    const coldEmbedder = {
      name: engram.embedder.name,
      dimension: engram.embedder.dimension,
      embed: async (texts: readonly string[], options?: { purpose?: 'query' | 'passage' }) => {
        if (!loaded) await time.sleep(2_000);
        loaded = true;
        return engram.embedder.embed(texts, options);
      },
    };
    const serving = new Serving(() => ({ store: engram.store, embedder: coldEmbedder, clock: engram.clock, config: engram.recallConfig }), {
      stopwatch: time.stopwatch,
      scheduler: time.scheduler,
    });
    const ctx = await time.run(serving.context({ scopes, message: 'coffee mug for Alice', budgetMs: 50 }));
    expect(time.now()).toBeGreaterThanOrEqual(2_000);
    expect(ctx.elapsedMs).toBeLessThanOrEqual(50);
    expect(ctx.parts.rules.level).toBe('full');
    expect(ctx.parts.episodes.level).toBe('full');
    expect(ctx.parts.episodes.items.length).toBeGreaterThan(0);
  });

  it('sets its deadline earlier when its timer fires late (a process waiting for a core), so builds end within the budget again', async () => {
    const time = new VirtualTime({ timerLateMs: 30 });
    const store = slowStore(engram.store, { getMemories: 300 }, (ms) => time.sleep(ms));
    const serving = new Serving(() => ({ store, embedder: engram.embedder, clock: engram.clock, config: engram.recallConfig }), {
      stopwatch: time.stopwatch,
      scheduler: time.scheduler,
    });
    const input = { scopes, message: 'coffee mug for Alice', budgetMs: 100 };
    await time.run(serving.context(input)); // the first read of rules and profile
    const { value: late, ms: lateMs } = await virtuallyTimed(time, () => serving.context(input));
    expect(lateMs).toBeGreaterThan(110); // the deadline at 90 ms, its timer 30 ms late
    expect(late.parts.rules.level).toBe('full');
    const { value: next, ms } = await virtuallyTimed(time, () => serving.context(input));
    expect(ms).toBeLessThanOrEqual(100);
    expect(next.parts.rules.items).toHaveLength(3);
    expect(next.parts.profile.items.length).toBeGreaterThan(0);
  });

  it('a rule written through the engine is in the next context at once', async () => {
    await engram.context({ scopes, message: 'hello', budgetMs: 5_000 });
    await engram.remember({ scope: shared, layer: 'procedural', content: 'Speak slowly to Alice.', priority: 20 });
    const next = await engram.context({ scopes, message: 'hello', budgetMs: 5_000 });
    expect(next.parts.rules.items[0]?.content).toBe('Speak slowly to Alice.');
  });

  it('degrades concepts to minimal when relations are slow, cached when only grounding is', async () => {
    // A real concept (as the layers' extraction writes them) with refs to the episodes.
    const [concept] = await engram.remember([
      { scope: user, layer: 'semantic', content: 'coffee_mug', name: 'coffee_mug', category: 'object' },
    ]);
    await engram.store.transaction((tx) =>
      tx.addConceptRefs({ scope: user, conceptId: concept!.id, layer: 'episodic', refIds: episodeIds }),
    );
    const percept = { objects: ['coffee_mug'] };
    const full = await engram.context({ scopes, message: '', percept, budgetMs: 5_000 });
    const entry = full.parts.concepts.items.find((c) => c.id === concept!.id);
    expect(entry?.level).toBe('full');
    expect(entry?.episodeCount).toBe(8);
    // Knowledge spreads from the recalled episodes over their concept refs to the concept itself.
    const knowing = await engram.context({ scopes, message: 'Grasped the coffee mug for Alice', budgetMs: 5_000 });
    expect(knowing.parts.knowledge.items.map((k) => k.id)).toContain(concept!.id);

    const slowEdges = virtual({ getEdges: 300 });
    await slowEdges.time.run(slowEdges.serving.warm({ scopes, percept }));
    const { value: minimal, ms } = await virtuallyTimed(slowEdges.time, () =>
      slowEdges.serving.context({ scopes, message: '', percept, budgetMs: 50 }),
    );
    expect(ms).toBeLessThanOrEqual(50);
    const m = minimal.parts.concepts.items.find((c) => c.id === concept!.id);
    expect(m).toMatchObject({ level: 'minimal', name: 'coffee_mug', category: 'object', episodeCount: 8 });
    expect(m?.relations).toBeUndefined();
    expect(minimal.parts.concepts.level).toBe('minimal');

    const slowReads = virtual({ getMemories: 300 });
    await slowReads.time.run(slowReads.serving.warm({ scopes, percept }));
    const cached = await slowReads.time.run(slowReads.serving.context({ scopes, message: '', percept, budgetMs: 50 }));
    const c = cached.parts.concepts.items.find((x) => x.id === concept!.id);
    expect(c?.level).toBe('cached');
    expect(c?.grounding).toBeUndefined();
  });

  it('counts only current episodes of a concept at the minimal and cached levels too', async () => {
    const [concept] = await engram.remember([
      { scope: user, layer: 'semantic', content: 'coffee_mug', name: 'coffee_mug', category: 'object' },
    ]);
    await engram.store.transaction((tx) =>
      tx.addConceptRefs({ scope: user, conceptId: concept!.id, layer: 'episodic', refIds: episodeIds }),
    );
    // one episode forgotten, one whose validity has ended: neither is an episode of the concept now
    await engram.forget(episodeIds[0]!, { scope: user });
    await engram.update(episodeIds[1]!, { validTo: new Date(engram.clock.now() - 60_000).toISOString() }, { scope: user });
    const percept = { objects: ['coffee_mug'] };
    const full = await engram.context({ scopes, message: '', percept, budgetMs: 5_000 });
    const current = full.parts.concepts.items.find((c) => c.id === concept!.id);
    expect(current?.level).toBe('full');
    expect(current?.episodeCount).toBe(episodeIds.length - 2);

    const slowEdges = virtual({ getEdges: 300 });
    await slowEdges.time.run(slowEdges.serving.warm({ scopes, percept }));
    const minimal = await slowEdges.time.run(slowEdges.serving.context({ scopes, message: '', percept, budgetMs: 50 }));
    expect(minimal.parts.concepts.items.find((c) => c.id === concept!.id)).toMatchObject({
      level: 'minimal',
      episodeCount: current?.episodeCount,
    });

    const slowReads = virtual({ getMemories: 300 });
    await slowReads.time.run(slowReads.serving.warm({ scopes, percept }));
    const cached = await slowReads.time.run(slowReads.serving.context({ scopes, message: '', percept, budgetMs: 50 }));
    expect(cached.parts.concepts.items.find((c) => c.id === concept!.id)).toMatchObject({
      level: 'cached',
      episodeCount: current?.episodeCount,
    });
  });

  it('holds the deadline when every read is slow, and still serves rules and profile', async () => {
    const all: StoreMethod[] = [
      'getMemories',
      'listMemories',
      'lexicalSearch',
      'vectorSearch',
      'getEdges',
      'getNeighbours',
      'temporalSearch',
      'findConcepts',
      'getConceptRefs',
    ];
    const { serving, time } = virtual(Object.fromEntries(all.map((m) => [m, 500])));
    const input = { scopes, message: 'coffee', percept: { objects: ['mug'] }, budgetMs: 30 };
    const first = await time.run(serving.context(input));
    expect(first.parts.rules.level).toBe('full');
    expect(first.parts.profile.level).toBe('full');
    time.advance(RULES_FRESH_MS + 100);
    const { value: ctx, ms } = await virtuallyTimed(time, () => serving.context(input));
    expect(ms).toBeLessThanOrEqual(30);
    expect(ctx.parts.rules).toMatchObject({ level: 'cached', items: expect.arrayContaining([expect.objectContaining({ priority: 9 })]) });
    expect(ctx.parts.profile.level).toBe('cached');
    for (const part of ['knowledge', 'concepts', 'predictions', 'episodes'] as const) expect(ctx.parts[part].level).toBe('skipped');
    expect(ctx.markdown.startsWith('<!-- engram context')).toBe(true);
    expect(ctx.markdown).toContain('## Rules');
  });

  it('trims the lowest-ranked entries to fit the token budget, rules last', async () => {
    await engram.remember(
      Array.from({ length: 30 }, (_, i) => ({
        scope: user,
        content: `Alice asked about the coffee machine settings, variant ${i}, with a long explanation of grind size and water temperature.`,
      })),
    );
    const big = await engram.context({ scopes, message: 'coffee machine settings', budgetMs: 5_000, episodes: 20, maxTokens: 100_000 });
    const small = await engram.context({ scopes, message: 'coffee machine settings', budgetMs: 5_000, episodes: 20, maxTokens: 120 });
    expect(big.tokens).toBeGreaterThan(120);
    expect(small.tokens).toBeLessThanOrEqual(120);
    expect(small.trimmed.episodes).toBeGreaterThan(0);
    expect(small.parts.rules.items.length).toBe(3);
    // What is kept is the top of each ranking.
    expect(small.parts.episodes.items.map((e) => e.id)).toEqual(
      big.parts.episodes.items.slice(0, small.parts.episodes.items.length).map((e) => e.id),
    );
  });

  it('trims rules and profile last: many rules filling the token budget leave the top profile facts in', async () => {
    await engram.remember(
      Array.from({ length: 60 }, (_, i) => ({
        scope: shared,
        layer: 'procedural' as const,
        content: `House rule ${i}: check the gripper torque table and the calibration log before moving anything heavier than ${i} kg.`,
      })),
    );
    const ctx = await engram.context({ scopes, message: 'coffee for Alice', budgetMs: 5_000, maxTokens: 400 });
    expect(ctx.tokens).toBeLessThanOrEqual(400);
    expect(ctx.parts.rules.items[0]?.content).toBe('Never grasp a hot mug with the soft gripper.');
    expect(ctx.parts.profile.items.map((p) => p.content)).toContain('Alice prefers her coffee black.');
    // maxTokens is a hard limit: too small for a rule and a fact, the top rule is what is left (cut short if need be)
    const tiny = await engram.context({ scopes, message: 'coffee for Alice', budgetMs: 5_000, maxTokens: 50 });
    expect(tiny.tokens).toBeLessThanOrEqual(50);
    expect(tiny.parts.rules.items).toHaveLength(1);
    expect('Never grasp a hot mug with the soft gripper.'.startsWith(tiny.parts.rules.items[0]?.content.replace(/…$/, '') ?? '-')).toBe(
      true,
    );
    expect(tiny.parts.profile.items).toEqual([]);
    expect(tiny.trimmed.profile).toBeGreaterThan(0);
  });

  it('validates input with clear errors', async () => {
    await expect(engram.context({ scopes: [], message: 'x' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(engram.context({ scopes, message: '  ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('percept'),
    });
    await expect(engram.context({ scopes, message: 'x', budgetMs: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
