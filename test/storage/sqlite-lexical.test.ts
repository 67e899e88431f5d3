/**
 * Lexical search finds words whose stem Porter would stem again ("coffee" → "coffe" → "coff"): FTS5
 * stems what it is given, so it must be handed the words, not our stems, or such words vanish.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempEngram } from '../helpers/temp.js';

describe('SQLite lexical channel', () => {
  let done: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await done?.();
    done = undefined;
  });

  it('finds words whose stems are not fixed points of the Porter stemmer, with scope-local document frequencies', async () => {
    const { engram, cleanup } = await tempEngram();
    done = cleanup;
    await engram.remember([
      { scope: 't/a', content: 'I drink coffee every morning' },
      { scope: 't/a', content: 'Two coffees before the meeting' },
      { scope: 't/a', content: 'The generous host poured wine' },
      { scope: 't/a', content: 'Tea is nice' },
    ]);
    const { hits } = await engram.recall('coffee', { scopes: ['t/a'], weights: { semantic: 0 } });
    expect(hits.map((h) => h.content)).toEqual(expect.arrayContaining(['I drink coffee every morning', 'Two coffees before the meeting']));
    expect(hits).toHaveLength(2);
    // 2 of 4 documents contain the stem: idf = ln(1 + (4 - 2 + 0.5) / (2 + 0.5)) = ln 2, not the idf of an unseen word.
    const top = hits[0]?.why.channels.lexical?.score ?? 0;
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(Math.log(2) * 2.3);
    const rare = await engram.recall('generous', { scopes: ['t/a'], weights: { semantic: 0 } });
    expect(rare.hits[0]?.why.channels.lexical?.score).toBeGreaterThan(top);
  });

  it('finds every match when a large scope ranks inside FTS5 first but few of its matches pass the filters', async () => {
    const { engram, cleanup } = await tempEngram();
    done = cleanup;
    // t/a holds ~30 % of the store, so its searches rank inside FTS5 first; only 5 of its matches are
    // semantic, and they rank last (longest texts), so a window of the best matches alone misses them.
    const filler = (scope: string, n: number) => Array.from({ length: n }, (_, i) => ({ scope, content: `alpha report ${i}` }));
    await engram.remember(filler('t/a', 600));
    await engram.remember(filler('t/b', 1400));
    const facts = Array.from({ length: 5 }, (_, i) => ({
      scope: 't/a',
      layer: 'semantic' as const,
      content: `Fact ${i}: the alpha rollout of the ${['north', 'south', 'east', 'west', 'central'][i]} region moved to the new cluster with every service and its dashboards after the long review.`,
    }));
    const written = await engram.remember(facts);
    const { hits } = await engram.recall('alpha', { scopes: ['t/a'], layers: ['semantic'], weights: { semantic: 0 }, k: 10 });
    expect(hits.map((h) => h.id).sort()).toEqual(written.map((w) => w.id).sort());
  }, 120_000);
});
