/**
 * Part vectors: which texts a record's sentences become (`embeddingParts`), how recall re-scores its
 * semantic candidates by them (`withPartScores`), and the whole path on a real SQLite file — a record
 * written waits for its parts, `processJobs` makes them, an edit makes them again, and recall's
 * semantic score of a record rises to its closest sentence. The effect is also checked with the real
 * default model (required on CI), where one sentence of a long turn answers the question.
 */
import { homedir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddingParts, MAX_PARTS } from '../../../src/core/write/embedding-parts.js';
import { partTextsOf } from '../../../src/core/write/fill-parts.js';
import { withPartScores } from '../../../src/core/recall/part-scores.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { Engram, type OpenOptions } from '../../../src/index.js';
import { tempDir } from '../../helpers/temp.js';

const SCOPE = 'acme/chat';

/** Engines on one temp SQLite file, all closed (and the file removed) after each test. */
function tempStore(): { open: (options?: Partial<OpenOptions>) => Promise<Engram>; cleanup: () => Promise<void> } {
  const { dir, cleanup } = tempDir();
  const opened: Engram[] = [];
  return {
    open: async (options = {}) => {
      const engram = await Engram.open({ path: `${dir}/engram.db`, embedder: 'hash', ...options });
      opened.push(engram);
      return engram;
    },
    cleanup: async () => {
      for (const engram of opened) await engram.close();
      cleanup();
    },
  };
}

describe('embeddingParts', () => {
  it('gives each sentence of four words or more, with the speaker and the episode cycle, when there are two or more', () => {
    expect(embeddingParts({ layer: 'episodic', content: 'Mel: Hi! I went hiking today. The view was stunning.', data: {} })).toEqual([
      'Mel: I went hiking today.\nperceived: mel.',
      'Mel: The view was stunning.\nperceived: mel.',
    ]);
    expect(
      embeddingParts({
        layer: 'semantic',
        content: 'The build runs on Node 20. Deploys go out on Fridays.',
        data: { name: 'ci notes' },
      }),
    ).toEqual(['ci notes: The build runs on Node 20.', 'ci notes: Deploys go out on Fridays.']);
  });

  it('gives none for one sentence, or one long sentence beside short ones', () => {
    expect(embeddingParts({ layer: 'episodic', content: 'Caroline: I went to the support group today.', data: {} })).toEqual([]);
    expect(embeddingParts({ layer: 'episodic', content: 'Thanks! Great! I went to the support group today.', data: {} })).toEqual([]);
  });

  it(`groups a long text's sentences in order into at most ${MAX_PARTS} parts`, () => {
    const sentences = Array.from({ length: 20 }, (_, i) => `This is sentence number ${i + 1} of many.`);
    const parts = embeddingParts({ layer: 'semantic', content: sentences.join(' '), data: {} });
    expect(parts).toHaveLength(MAX_PARTS);
    expect(parts.join(' ')).toBe(sentences.join(' '));
  });

  it('gives no parts for chunks, chunked parents and concepts', () => {
    const content = 'The first sentence is here. The second sentence is there.';
    const base = { id: 'x', scope: SCOPE, content };
    expect(partTextsOf({ ...base, layer: 'semantic', data: {} })).toHaveLength(2);
    expect(partTextsOf({ ...base, layer: 'semantic', data: { parentId: 'p', chunkIndex: 0 } })).toEqual([]);
    expect(partTextsOf({ ...base, layer: 'semantic', data: { isChunkParent: true } })).toEqual([]);
    expect(partTextsOf({ ...base, layer: 'semantic', data: { concept: true, name: 'coffee_mug' } })).toEqual([]);
  });
});

describe('withPartScores', () => {
  it('lifts a candidate by the share of the gap to its closest part, re-sorts and keeps the best', () => {
    const hits = [
      { id: 'whole', score: 0.6 },
      { id: 'diluted', score: 0.4 },
      { id: 'plain', score: 0.3 },
    ];
    const best = new Map([
      ['diluted', 0.9],
      ['plain', 0.1],
    ]);
    const out = withPartScores(hits, best, 0.75, 2);
    expect(out.map((h) => h.id)).toEqual(['diluted', 'whole']);
    expect(out[0]?.score).toBeCloseTo(0.4 + 0.75 * (0.9 - 0.4), 5);
    // a part farther than the whole changes nothing; weight 1 takes the closer of the two
    expect(withPartScores(hits, best, 0.75, 3).find((h) => h.id === 'plain')?.score).toBe(0.3);
    expect(withPartScores(hits, best, 1, 1)).toEqual([{ id: 'diluted', score: 0.9 }]);
  });
});

describe('part vectors through the engine (SQLite file, hash embedder)', () => {
  let ctx: ReturnType<typeof tempStore> | undefined;
  afterEach(async () => ctx?.cleanup());

  it('a record waits for its parts until processJobs; an edit makes them again; recall scores its closest sentence', async () => {
    ctx = tempStore();
    const engram = await ctx.open();
    const [turn, short] = await engram.remember([
      {
        scope: SCOPE,
        content:
          'Ana: Work has been hectic with the audit and new hires. We adopted a golden retriever puppy named Biscuit. My sister visited from Denver for a jazz concert.',
      },
      { scope: SCOPE, content: 'Ben: The quarterly audit went fine.' },
    ]);
    expect(await engram.store.countPendingParts([SCOPE])).toBe(2);
    const drained = await engram.processJobs({ scopes: [SCOPE] });
    // the two turns, and the concepts their extraction job wrote meanwhile
    expect(drained.partVectors).toBeGreaterThanOrEqual(2);
    expect(await engram.store.countPendingParts([SCOPE])).toBe(0);
    const parts = await engram.store.getPartVectors([SCOPE], [turn!.id, short!.id]);
    expect(parts.get(turn!.id)).toHaveLength(3);
    expect(parts.has(short!.id)).toBe(false);

    const query = 'We adopted a golden retriever puppy named Biscuit';
    const semantic = async (e: Engram): Promise<number> => {
      const { hits } = await e.recall(query, { scopes: [SCOPE], k: 5, trackAccess: false });
      return hits.find((h) => h.id === turn!.id)?.why.channels.semantic?.score ?? Number.NaN;
    };
    const withParts = await semantic(engram);
    await engram.close();
    const off = await ctx.open({ recall: { partWeight: 0 } });
    const alone = await semantic(off);
    // with part vectors off, none are made: a new record stays pending
    await off.remember({ scope: SCOPE, content: 'Ana: The puppy chewed my shoes. We start training classes on Monday.' });
    expect((await off.processJobs({ scopes: [SCOPE] })).partVectors).toBe(0);
    expect(await off.store.countPendingParts([SCOPE])).toBe(1);
    await off.close();
    // the hash embedder puts the sentence itself at cosine ~1: the score moves 3/4 of the way there
    expect(withParts).toBeGreaterThan(alone + 0.1);

    const reopened = await ctx.open();
    await reopened.processJobs({ scopes: [SCOPE] });
    await reopened.update(turn!.id, { content: 'Ana: Nothing new this week. The audit is still going on.' }, { scope: SCOPE });
    expect((await reopened.store.getPartVectors([SCOPE], [turn!.id])).size).toBe(0);
    expect(await reopened.store.countPendingParts([SCOPE])).toBe(1);
    await reopened.processJobs({ scopes: [SCOPE] });
    expect((await reopened.store.getPartVectors([SCOPE], [turn!.id])).get(turn!.id)).toHaveLength(2);
  });
});

const DEFAULT = DEFAULT_ONNX_MODEL as 'blend-e5-minilm';
const defaultInstalled = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT);

describe.skipIf(!defaultInstalled && process.env.CI !== 'true')(`part vectors with the real default model (${DEFAULT})`, () => {
  let ctx: ReturnType<typeof tempStore> | undefined;
  afterEach(async () => ctx?.cleanup());

  it('a long turn with one sentence that answers rises to it', async () => {
    ctx = tempStore();
    const engram = await ctx.open({ embedder: DEFAULT, workers: 1 });
    const [target] = await engram.remember([
      {
        scope: SCOPE,
        content:
          'Ana: Honestly work has been hectic with the quarterly audit and onboarding three new hires. ' +
          'Oh, and we finally adopted a golden retriever puppy last weekend! ' +
          'My sister also visited from Denver and we spent an evening at a jazz concert downtown. ' +
          'Next month I am planning to repaint the kitchen cabinets.',
      },
      { scope: SCOPE, content: 'Ben: The quarterly audit took most of my week as well.' },
      { scope: SCOPE, content: 'Ben: I am repainting the fence this weekend, it needs two coats.' },
      { scope: SCOPE, content: 'Ben: We saw a great jazz band downtown on Friday.' },
    ]);
    await engram.processJobs({ scopes: [SCOPE] });
    const query = 'What kind of dog did Ana get?';
    const { hits } = await engram.recall(query, { scopes: [SCOPE], k: 4, trackAccess: false, weights: { semantic: 1 } });
    const lifted = hits.find((h) => h.id === target!.id)?.why.channels.semantic?.score ?? Number.NaN;
    await engram.close();
    const plain = await ctx.open({ embedder: DEFAULT, workers: 1, recall: { partWeight: 0 } });
    const alone = (await plain.recall(query, { scopes: [SCOPE], k: 4, trackAccess: false, weights: { semantic: 1 } })).hits.find(
      (h) => h.id === target!.id,
    )?.why.channels.semantic?.score;
    expect(hits[0]?.id).toBe(target!.id);
    expect(lifted).toBeGreaterThan((alone ?? 1) + 0.02);
  }, 120_000);
});
