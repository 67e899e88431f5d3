/**
 * The recall configuration is one flat object: old keys still override, the constants moved into it
 * take effect (real SQLite file, hash embedder).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_CONFIG, type RecallConfig } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

const thread = [
  { scope: 't/c', content: 'Mel: What kind of pottery did you make at the workshop?', source: { conversationId: 'c1', messageId: '1' } },
  { scope: 't/c', content: 'Caro: A blue bowl with a wave pattern, I am so proud of it.', source: { conversationId: 'c1', messageId: '2' } },
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

  it('reads adjacent turns of as many anchors as neighbourAnchors says', async () => {
    const lifted = await open({});
    const reply = (await lifted.recall('pottery workshop', { scopes: ['t/c'], k: 3 })).hits.find((h) => h.content.startsWith('Caro'));
    expect(reply?.why.neighbourhood).toBeGreaterThan(0);
    const none = await open({ neighbourAnchors: 0 });
    const alone = (await none.recall('pottery workshop', { scopes: ['t/c'], k: 3 })).hits.find((h) => h.content.startsWith('Caro'));
    expect(alone).toBeDefined();
    expect(alone?.why.neighbourhood).toBe(0);
  });
});
