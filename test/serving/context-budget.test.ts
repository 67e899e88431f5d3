/**
 * `maxTokens` is a hard limit on the rendered Markdown: with the real elapsed time in its header, and
 * for budgets too small for one rule and one profile fact.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { Serving } from '../../src/serving/serving.js';
import { slowStore } from '../helpers/slow-store.js';
import { tempEngram } from '../helpers/temp.js';
import { VirtualTime } from '../helpers/virtual-time.js';

const scope = 'probe/users/fay';
const RULE =
  'When Fay asks about travel, always check the visa rules of the destination country, the passport validity window, vaccination requirements, and any airline-specific baggage restrictions before proposing an itinerary; summarise them in a short list.';
const FACT = 'Fay holds a Portuguese passport that expires in March 2026 and she prefers aisle seats on long-haul flights.';
const message = 'Plan Fay a trip to Japan';

describe('context token budget', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ engram, cleanup } = await tempEngram());
    await engram.remember({ scope, layer: 'procedural', content: RULE, priority: 5 });
    await engram.remember({ scope, layer: 'semantic', content: FACT, importance: 0.9, pinned: true });
    for (let i = 0; i < 8; i++) {
      await engram.remember({
        scope,
        content: `Fay asked about flights to city number ${i} and the visa rules there.`,
        occurredAt: `2024-05-0${i + 1}T10:00:00Z`,
      });
    }
  });
  afterEach(async () => cleanup());

  const measured = (markdown: string) => Math.ceil(markdown.length / 4);

  it('never renders more than maxTokens, from the smallest budget up', async () => {
    const over: number[] = [];
    for (let maxTokens = 50; maxTokens <= 300; maxTokens += 1) {
      const ctx = await engram.context({ scopes: [scope], message, maxTokens, budgetMs: 5_000 });
      expect(ctx.tokens).toBe(measured(ctx.markdown));
      if (ctx.tokens > maxTokens) over.push(maxTokens);
    }
    expect(over).toEqual([]);
  });

  it('fits with the final elapsed time in the header, however many digits it has', async () => {
    // Slow reads on virtual time: the header says thousands of ms, where trimming with "0 ms" ran over.
    const time = new VirtualTime();
    const store = slowStore(engram.store, { getMemories: 1_200, lexicalSearch: 1_100, vectorSearch: 1_000 }, (ms) => time.sleep(ms));
    const serving = new Serving(() => ({ store, embedder: engram.embedder, clock: engram.clock, config: engram.recallConfig }), {
      stopwatch: time.stopwatch,
      scheduler: time.scheduler,
    });
    const over: number[] = [];
    for (let maxTokens = 134; maxTokens <= 330; maxTokens += 1) {
      const ctx = await time.run(serving.context({ scopes: [scope], message, maxTokens, budgetMs: 60_000 }));
      expect(ctx.elapsedMs).toBeGreaterThan(1_000);
      if (measured(ctx.markdown) > maxTokens) over.push(maxTokens);
    }
    expect(over).toEqual([]);
  });

  it('cuts the top rule short with "…" when not even one rule and one profile fact fit, and says what it dropped', async () => {
    const ctx = await engram.context({ scopes: [scope], message, maxTokens: 50, budgetMs: 5_000 });
    expect(ctx.tokens).toBeLessThanOrEqual(50);
    expect(ctx.parts.profile.items).toEqual([]);
    expect(ctx.trimmed.profile).toBe(1);
    const [rule] = ctx.parts.rules.items;
    expect(rule?.content.endsWith('…')).toBe(true);
    expect(RULE.startsWith(rule?.content.slice(0, -1) as string)).toBe(true);
    expect(ctx.markdown).toContain(`## Rules\n- ${rule?.content} (priority 5)`);
    // the engine's copy of the rules is not cut: a larger budget has the rule whole
    const roomy = await engram.context({ scopes: [scope], message, maxTokens: 2_000, budgetMs: 5_000 });
    expect(roomy.parts.rules.items[0]?.content).toBe(RULE);
    expect(roomy.parts.profile.items[0]?.content).toBe(FACT);
  });
});
