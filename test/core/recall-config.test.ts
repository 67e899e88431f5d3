/**
 * The recall configuration is one flat object: old keys still override, the constants moved into it
 * take effect, a bad override is refused at open (real SQLite file, hash embedder).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RECALL_CONFIG, Engram, type RecallConfig } from '../../src/index.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

const thread = [
  { scope: 't/c', content: 'Mel: What kind of pottery did you make at the workshop?', source: { conversationId: 'c1', messageId: '1' } },
  {
    scope: 't/c',
    content: 'Caro: A blue bowl with a wave pattern, I am so proud of it.',
    source: { conversationId: 'c1', messageId: '2' },
  },
  { scope: 't/c', content: 'Mel: Nice! Shall we get lunch?', source: { conversationId: 'c1', messageId: '3' } },
];

describe('recall configuration', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function open(recall: Partial<RecallConfig>) {
    const ctx = await tempEngram({ recall });
    cleanups.push(ctx.cleanup);
    await ctx.engram.remember(thread);
    return ctx.engram;
  }

  it('merges a partial override with every default, old keys and new', async () => {
    const engram = await open({ lexicalWeight: 0.7, neighbourAnchors: 10 });
    expect(engram.recallConfig).toEqual({ ...DEFAULT_RECALL_CONFIG, lexicalWeight: 0.7, neighbourAnchors: 10 });
    expect(Object.isFrozen(DEFAULT_RECALL_CONFIG)).toBe(true);
  });

  it('refuses an unknown key, a non-number and a value out of range at open, naming the key, and leaves no file', async () => {
    const dir = tempDir();
    cleanups.push(async () => dir.cleanup());
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ semanticWieght: 0.6 }, /semanticWieght/],
      [{ semanticWeight: Number.NaN }, /semanticWeight/],
      [{ neighbourWindow: 2.5 }, /neighbourWindow/],
      [{ neighbourDecay: 1.5 }, /neighbourDecay/],
      [{ fusion: 'max' }, /fusion/],
      [{ candidates: -1 }, /candidates/],
    ];
    for (const [recall, key] of cases) {
      const path = join(dir.dir, 'refused.db');
      const opening = Engram.open({ path, embedder: 'hash', recall: recall as Partial<RecallConfig> });
      await expect(opening).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(key) });
      expect(existsSync(path)).toBe(false);
    }
    // every default passes its own check
    const ctx = await tempEngram({ recall: { ...DEFAULT_RECALL_CONFIG } });
    cleanups.push(ctx.cleanup);
    expect(ctx.engram.recallConfig).toEqual(DEFAULT_RECALL_CONFIG);
  });

  it('reads adjacent turns of as many anchors as neighbourAnchors says', async () => {
    const lifted = await open({});
    const reply = (await lifted.recall('pottery workshop', { scopes: ['t/c'], k: 3 })).hits.find((h) => h.content.startsWith('Caro'));
    expect(reply?.why.neighbourhood).toBeGreaterThan(0);
    const none = await open({ neighbourAnchors: 0 });
    const alone = (await none.recall('pottery workshop', { scopes: ['t/c'], k: 3 })).hits.find((h) => h.content.startsWith('Caro'));
    expect(alone).toBeDefined();
    expect(alone?.why.neighbourhood).toBe(0);
  });

  it("gives an adjacent turn by the same speaker neighbourSameSpeaker times the share of another speaker's", async () => {
    const burst = [
      { scope: 't/b', content: 'Ana: guess what, I adopted a greyhound last weekend', source: { conversationId: 'b1', messageId: '1' } },
      { scope: 't/b', content: 'Ana: his name is Biscuit and he sleeps all day', source: { conversationId: 'b1', messageId: '2' } },
      { scope: 't/b', content: 'Ben: haha lucky you', source: { conversationId: 'b1', messageId: '3' } },
    ];
    const shares: Record<string, number> = {};
    for (const factor of [1, 2]) {
      const ctx = await tempEngram({ recall: { neighbourSameSpeaker: factor } });
      cleanups.push(ctx.cleanup);
      await ctx.engram.remember(burst);
      const { hits } = await ctx.engram.recall('greyhound adopted', { scopes: ['t/b'], k: 3 });
      const second = hits.find((h) => h.content.startsWith('Ana: his name'));
      const other = hits.find((h) => h.content.startsWith('Ben'));
      expect(second?.why.neighbourhood).toBeGreaterThan(0);
      shares[`same${factor}`] = second?.why.neighbourhood ?? 0;
      shares[`other${factor}`] = other?.why.neighbourhood ?? 0;
    }
    // Ana's second message neighbours her first (same speaker): its share doubles; Ben's reply
    // neighbours only Ana's second message (another speaker): its share does not change.
    expect(shares.same2).toBeGreaterThan((shares.same1 as number) * 1.5);
    expect(shares.other2).toBeCloseTo(shares.other1 as number, 6);
  });

  it('shares relevance with turns up to neighbourWindow away, neighbourDecay less per step', async () => {
    const turns = [
      'Mel: What kind of pottery did you make at the workshop?',
      'Caro: Oh, a few things, let me think.',
      'Caro: Honestly the best part was the teacher.',
      'Mel: Ha, I know that feeling.',
      'Caro: Anyway, how was your week?',
    ].map((content, i) => ({ scope: 't/w', content, source: { conversationId: 'w1', messageId: String(i + 1) } }));
    const neighbourhood: Record<string, Record<string, number>> = {};
    const settings: Record<string, Partial<RecallConfig>> = {
      adjacent: { neighbourWindow: 1 },
      window3: { neighbourWindow: 3, neighbourDecay: 0.5 },
      window3NoDecayShare: { neighbourWindow: 3, neighbourDecay: 0 },
    };
    for (const [name, recall] of Object.entries(settings)) {
      const ctx = await tempEngram({ recall });
      cleanups.push(ctx.cleanup);
      await ctx.engram.remember(turns);
      const { hits } = await ctx.engram.recall('pottery workshop', { scopes: ['t/w'], k: 5 });
      neighbourhood[name] = Object.fromEntries(hits.map((h) => [h.content.slice(0, 12), h.why.neighbourhood]));
    }
    const twoAway = 'Caro: Honest';
    const threeAway = 'Mel: Ha, I k';
    // the question matches; the turns two and three after it share half and a quarter of an adjacent turn's share
    expect(neighbourhood.window3?.[twoAway]).toBeGreaterThan((neighbourhood.adjacent?.[twoAway] ?? 0) + 0.05);
    expect(neighbourhood.window3?.[threeAway]).toBeGreaterThan((neighbourhood.adjacent?.[threeAway] ?? 0) + 0.02);
    // with no share beyond the adjacent turns, the wider window changes nothing
    expect(neighbourhood.window3NoDecayShare?.[twoAway]).toBeCloseTo(neighbourhood.adjacent?.[twoAway] as number, 6);
    expect(neighbourhood.window3NoDecayShare?.[threeAway]).toBeCloseTo(neighbourhood.adjacent?.[threeAway] as number, 6);
  });

  it('treats episodes written without a session as one conversation while they are at most neighbourGapMinutes apart', async () => {
    // the plain ingest: no source, no session; the reply is found through the question before it
    const at = (minute: number) => new Date(Date.UTC(2024, 4, 1, 12, minute)).toISOString();
    const plain = [
      { scope: 't/p', content: 'Mel: What kind of pottery did you make at the workshop?', occurredAt: at(0) },
      { scope: 't/p', content: 'Caro: A blue bowl with a wave pattern, I am so proud of it.', occurredAt: at(1) },
    ];
    const replyShare: Record<string, number | undefined> = {};
    for (const gap of [60, 0]) {
      const ctx = await tempEngram({ recall: { neighbourGapMinutes: gap } });
      cleanups.push(ctx.cleanup);
      await ctx.engram.remember(plain);
      const { hits } = await ctx.engram.recall('pottery workshop', { scopes: ['t/p'], k: 3 });
      replyShare[`gap${gap}`] = hits.find((h) => h.content.startsWith('Caro'))?.why.neighbourhood;
    }
    expect(replyShare.gap60).toBeGreaterThan(0);
    expect(replyShare.gap0 ?? 0).toBe(0);
  });
});
