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

describe('context text cut where a character ends', () => {
  const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  /** Whether `cut` is `text` up to one of its grapheme boundaries. */
  const endsOnBoundary = (text: string, cut: string) =>
    text.startsWith(cut) && (cut.length === text.length || graphemes.segment(text).containing(cut.length)?.index === cut.length);
  let engram: Engram;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ engram, cleanup } = await tempEngram()));
  afterEach(async () => cleanup());

  it('shortens an over-long line without splitting an emoji, whichever side of the cut it falls', async () => {
    for (const at of [594, 595, 596, 597]) {
      const scope = `probe/emoji${at}`;
      const rule = `Always greet the user warmly ${'a'.repeat(at - 29)}😀 then continue with more words here and there.`;
      await engram.remember({ scope, layer: 'procedural', content: rule, priority: 5 });
      const ctx = await engram.context({ scopes: [scope], message: 'greet the user', budgetMs: 5_000 });
      expect(ctx.markdown).not.toMatch(LONE_SURROGATE);
      const line = ctx.markdown.split('\n').find((l) => l.startsWith('- Always greet'));
      const shown = line?.slice(2, line.indexOf('…')) ?? '';
      expect(shown.length).toBeGreaterThan(500);
      expect(endsOnBoundary(rule, shown)).toBe(true);
    }
  });

  it('cuts a rule to maxTokens on a grapheme boundary: no half flag, ZWJ family or accent', async () => {
    const scope = 'probe/graphemes';
    const rule = `Rule: ${'👨‍👩‍👧‍👦🇵🇹é'.repeat(40)}`;
    await engram.remember({ scope, layer: 'procedural', content: rule, priority: 1 });
    const split: number[] = [];
    let cuts = 0;
    for (let maxTokens = 50; maxTokens <= 140; maxTokens += 1) {
      const ctx = await engram.context({ scopes: [scope], message: 'hi', maxTokens, budgetMs: 5_000 });
      expect(ctx.tokens).toBeLessThanOrEqual(maxTokens);
      const content = ctx.parts.rules.items[0]?.content;
      if (content === undefined || !content.endsWith('…')) continue;
      cuts += 1;
      if (!endsOnBoundary(rule, content.slice(0, -1))) split.push(maxTokens);
    }
    expect(cuts).toBeGreaterThan(20);
    expect(split).toEqual([]);
  });
});
