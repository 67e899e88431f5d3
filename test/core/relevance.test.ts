/**
 * Relevance with the real models — the default blend-e5-minilm (required on CI, skipped elsewhere
 * when not installed) and the bundled USE-lite: hand-written paraphrase queries against their targets
 * hidden among ~1,000 distractors. The issue asks precision@1 ≥ 0.88 with the default model: the
 * default blend with BM25 measures 0.885 (116/131; 0.809 before short queries leant on meaning, its
 * vector alone 0.90), USE-lite ~0.73. The floors leave room for the int8 models' batch effects, which
 * can move a query (see docs/relevance.md and docs/embeddings.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { distractors, queries, targets } from '../fixtures/relevance-corpus.js';
import { triples } from '../fixtures/paraphrase-triples.js';
import { tempEngram } from '../helpers/temp.js';
import { homedir } from 'node:os';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';

const DEFAULT = DEFAULT_ONNX_MODEL as 'blend-e5-minilm';
const defaultInstalled = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT);
const SUITES: Array<{ embedder: 'use' | typeof DEFAULT; skip: boolean; floor: number }> = [
  { embedder: DEFAULT, skip: !defaultInstalled && process.env.CI !== 'true', floor: 0.87 },
  { embedder: 'use', skip: false, floor: 0.72 },
];

describe.each(SUITES)('relevance with the real embedding model $embedder', ({ embedder, skip, floor }) => {
  if (skip) {
    it.skip(`needs ${DEFAULT} (engram models pull)`, () => undefined);
    return;
  }
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  const idByKey = new Map<string, string>();

  beforeAll(async () => {
    ctx = await tempEngram({ embedder, workers: 2 });
    engram = ctx.engram;
    const results = await engram.remember(
      targets.map((t) => ({ scope: 'eval/relevance', content: t.content, layer: 'semantic' as const })),
    );
    results.forEach((r, i) => idByKey.set((targets[i] as { key: string }).key, r.id));
    for (let i = 0; i < distractors.length; i += 250) {
      await engram.remember(
        distractors.slice(i, i + 250).map((content) => ({ scope: 'eval/relevance', content, layer: 'semantic' as const })),
      );
    }
  }, 300_000);

  afterAll(async () => ctx.cleanup());

  it('has the corpus the test promises', () => {
    expect(distractors.length).toBeGreaterThanOrEqual(1000);
    expect(queries.length).toBeGreaterThanOrEqual(50);
  });

  it('no fact is superseded by or merged into an unrelated one: every target stays current, few notes replace each other', async () => {
    for (const [key, id] of idByKey) {
      const record = await engram.get(id, { scopes: ['eval/relevance'] });
      expect(record?.status, key).toBe('active');
    }
    // The distractors hold a few genuine updates ("the growth retro moved to Thursday", "the rate-limiter
    // job runs every hour"); before the claim reader was fixed, 102 of 1,434 notes were superseded.
    const stats = await engram.stats({ scopes: ['eval/relevance'] });
    expect(stats.byStatus.superseded ?? 0).toBeLessThanOrEqual(15);
    // Near-identical sentences about different people, places or things are different facts: before the
    // claim reader checked for swapped nouns, 127 of them were merged into another note and lost to search.
    expect(stats.total).toBeGreaterThanOrEqual(targets.length + distractors.length - 10);
  });

  it('precision@1 on paraphrased queries among 1,000 distractors', async () => {
    let correct = 0;
    const misses: string[] = [];
    for (const { query, expectedKey } of queries) {
      const { hits } = await engram.recall(query, { scopes: ['eval/relevance'], k: 5, trackAccess: false });
      if (hits[0]?.id === idByKey.get(expectedKey)) correct += 1;
      else misses.push(`${query} → ${hits[0]?.content ?? '(none)'}`);
    }
    const precision = correct / queries.length;
    console.log(
      `relevance (${embedder}): precision@1 = ${precision.toFixed(3)} (${correct}/${queries.length})${misses.length ? `\n  misses:\n  ${misses.join('\n  ')}` : ''}`,
    );
    // The issue asks 0.88; the default blend plus BM25 measures 0.885, USE-lite ~0.73 on this deliberately hard set (docs/relevance.md).
    expect(precision).toBeGreaterThanOrEqual(floor);
  });

  it('semantic ranking: "kitten on a rug" finds "the cat sat on the mat" over an unrelated fact', async () => {
    const local = await tempEngram({ embedder });
    try {
      await local.engram.remember([
        { scope: 't/cat', content: 'The cat sat on the mat.' },
        { scope: 't/cat', content: 'Quarterly revenue grew five percent.' },
      ]);
      const { hits } = await local.engram.recall('kitten on a rug', { scopes: ['t/cat'] });
      expect(hits[0]?.content).toBe('The cat sat on the mat.');
      expect(hits[0]?.why.channels.semantic?.rank).toBe(1);
      let right = 0;
      for (const triple of triples) {
        const [q, r, w] = await local.engram.embedder.embed([triple.query, triple.right, triple.wrong]);
        const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
        if (dot(q as Float32Array, r as Float32Array) > dot(q as Float32Array, w as Float32Array)) right += 1;
      }
      expect(right / triples.length).toBeGreaterThanOrEqual(0.85);
    } finally {
      await local.cleanup();
    }
  });
});
