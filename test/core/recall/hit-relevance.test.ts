/** Hit relevance: a bounded, monotone function of a hit's own evidence, the same on every store. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/consolidation/statistics.js';
import { homedir } from 'node:os';
import { hitRelevance, onReferenceScale, REFERENCE_COSINE_SCALE } from '../../../src/core/recall/hit-relevance.js';
import { analyzeQuery } from '../../../src/core/recall/query-analysis.js';
import type { ChannelExplanation } from '../../../src/core/recall/fusion.js';
import { HashEmbedder } from '../../../src/embeddings/hash/index.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { Engram, type Engram as EngramType } from '../../../src/index.js';
import { openPostgresStore } from '../../../src/storage/postgres/index.js';
import { distractors, queries, targets } from '../../fixtures/relevance-corpus.js';
import { dropPgSchema, pgTestUrl, uniqueSchema, withSchema } from '../../helpers/postgres.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'eval/relevance';
const modelCacheDir = resolveModelCacheDir(process.env, homedir());

type Evidence = { semantic?: number; coverage?: number; entity?: number };

function channels(e: Evidence): Record<string, ChannelExplanation> {
  const out: Record<string, ChannelExplanation> = {};
  if (e.semantic !== undefined) out.semantic = { rank: 1, score: e.semantic };
  if (e.coverage !== undefined) out.lexical = { rank: 1, score: 3, coverage: e.coverage };
  if (e.entity !== undefined) out.entity = { rank: 0, score: e.entity };
  return out;
}

describe('hitRelevance (the function)', () => {
  const random = seededRandom(7);
  const cases = Array.from({ length: 2000 }, (): Evidence => ({
    ...(random() < 0.8 ? { semantic: random() * 2.2 - 1.1 } : {}),
    ...(random() < 0.6 ? { coverage: random() * 1.2 - 0.1 } : {}),
    ...(random() < 0.3 ? { entity: random() * 1.2 - 0.1 } : {}),
  }));

  it('is in [0, 1] for any evidence, including out-of-range and missing channels', () => {
    for (const e of cases) {
      const r = hitRelevance(channels(e));
      expect(r, JSON.stringify(e)).toBeGreaterThanOrEqual(0);
      expect(r, JSON.stringify(e)).toBeLessThanOrEqual(1);
    }
    expect(hitRelevance({})).toBe(0);
    expect(hitRelevance(channels({ semantic: Number.NaN, coverage: Number.NaN }))).toBe(0);
    expect(hitRelevance(channels({ semantic: 1, coverage: 1, entity: 1 }))).toBe(1);
  });

  it('is monotone: more evidence in any channel never lowers it', () => {
    for (const e of cases) {
      const r = hitRelevance(channels(e));
      const step = 0.05;
      for (const more of [
        { ...e, semantic: (e.semantic ?? 0) + step },
        { ...e, coverage: (e.coverage ?? 0) + step },
        { ...e, entity: (e.entity ?? 0) + step },
      ]) {
        expect(hitRelevance(channels(more)), `${JSON.stringify(e)} → ${JSON.stringify(more)}`).toBeGreaterThanOrEqual(r);
      }
    }
  });
});

describe('hitRelevance: the query shape', () => {
  const full = { terms: 4, windowOnly: false };

  it('a query of one or two content words reads its lexical evidence as partial: one stemmed word matches many texts in full', () => {
    const lexicalOnly = channels({ coverage: 1 });
    expect(hitRelevance(lexicalOnly, undefined, full)).toBe(1);
    expect(hitRelevance(lexicalOnly, undefined, { terms: 2, windowOnly: false })).toBeCloseTo(0.8, 3);
    expect(hitRelevance(lexicalOnly, undefined, { terms: 1, windowOnly: false })).toBeLessThanOrEqual(0.6);
    // with other evidence beside it the match can still read clear
    expect(hitRelevance(channels({ coverage: 1, semantic: 0.8 }), undefined, { terms: 1, windowOnly: false })).toBeGreaterThan(0.6);
  });

  it('lying in the date window asked about is evidence: all of it for a time-only query, a little beside a topic', () => {
    const inWindow = { temporal: { rank: 3, score: 0.6 } };
    const mentioned = { mention: { rank: 1, score: 0.5 } };
    expect(hitRelevance(inWindow, undefined, { terms: 1, windowOnly: true })).toBeGreaterThan(0.6);
    expect(hitRelevance(mentioned, undefined, { terms: 1, windowOnly: true })).toBeCloseTo(0.4, 3);
    expect(hitRelevance(inWindow, undefined, full)).toBeLessThan(0.3);
    expect(hitRelevance({}, undefined, { terms: 1, windowOnly: true })).toBe(0);
    // a time-only query's words and meaning are the date's: matching them says nothing
    expect(hitRelevance(channels({ coverage: 1, semantic: 0.9 }), undefined, { terms: 1, windowOnly: true })).toBe(0);
    expect(hitRelevance({ ...channels({ coverage: 1, semantic: 0.9 }), ...inWindow }, undefined, { terms: 1, windowOnly: true })).toBe(0.8);
  });
});

/** Words of the corpus and of nowhere, for fuzzed queries. */
function fuzzedQueries(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const words = [...new Set(targets.flatMap((t) => t.content.split(/\W+/)).filter((w) => w.length > 2))];
  const nonsense = ['zxqv', 'blorp', 'fnord', 'quuxle', 'vrrmph', '???', '—', 'DROP TABLE', '"', '日本語'];
  return Array.from({ length: count }, () => {
    const n = 1 + Math.floor(random() * 6);
    return Array.from({ length: n }, () =>
      random() < 0.75 ? words[Math.floor(random() * words.length)] : nonsense[Math.floor(random() * nonsense.length)],
    ).join(' ');
  });
}

async function seed(engram: EngramType): Promise<void> {
  await engram.remember(targets.map((t) => ({ scope: S, content: t.content, layer: 'semantic' as const })));
  await engram.remember(distractors.slice(0, 150).map((content) => ({ scope: S, content, layer: 'semantic' as const })));
}

const CLEAR = ['How does the user like their coffee?', 'Window or aisle when booking flights for the user?', targets[0]!.content];
const NONSENSE = ['zxqv blorp fnord', 'quantum marmalade dirigible', 'asdf qwer', 'purple elephant symphony'];

describe('recall hits carry relevance (hash embedder)', () => {
  let t: Awaited<ReturnType<typeof tempEngram>>;
  beforeAll(async () => {
    t = await tempEngram();
    await seed(t.engram);
  }, 300_000);
  afterAll(async () => t.cleanup());

  it('every hit of fuzzed queries has relevance in [0, 1], computed from its own evidence only', async () => {
    for (const query of fuzzedQueries(40, 11)) {
      const { hits } = await t.engram.recall(query, { scopes: [S], k: 8, trackAccess: false });
      for (const hit of hits) {
        expect(hit.relevance).toBeGreaterThanOrEqual(0);
        expect(hit.relevance).toBeLessThanOrEqual(1);
        const { terms, windowOnly } = analyzeQuery(query, { referenceTime: Date.now() });
        expect(hit.relevance).toBe(hitRelevance(hit.why.channels, undefined, { terms: terms.length, windowOnly }));
      }
    }
  });

  it("a hit's relevance does not change when other hits are added or removed", async () => {
    for (const query of [...CLEAR, ...queries.slice(0, 6).map((q) => q.query)]) {
      const many = await t.engram.recall(query, { scopes: [S], k: 20, trackAccess: false });
      const one = await t.engram.recall(query, { scopes: [S], k: 1, trackAccess: false });
      const top = many.hits.find((h) => h.id === one.hits[0]?.id);
      expect(top?.relevance, query).toBe(one.hits[0]?.relevance);
    }
  });

  it('a clearly matching query gets high relevance, a nonsense query low', async () => {
    for (const query of CLEAR)
      expect((await t.engram.recall(query, { scopes: [S], k: 1, trackAccess: false })).hits[0]?.relevance, query).toBeGreaterThan(0.6);
    for (const query of NONSENSE) {
      for (const hit of (await t.engram.recall(query, { scopes: [S], k: 5, trackAccess: false })).hits)
        expect(hit.relevance, query).toBeLessThan(0.3);
    }
  });
});

describe('recall hits carry relevance (default model "use")', () => {
  let t: Awaited<ReturnType<typeof tempEngram>>;
  beforeAll(async () => {
    t = await tempEngram({ embedder: 'use' });
    await seed(t.engram);
  }, 300_000);
  afterAll(async () => t.cleanup());

  it('a clearly matching query gets high relevance, a nonsense query low', async () => {
    for (const query of [...CLEAR, 'Where does the user like to sit on a plane?']) {
      expect((await t.engram.recall(query, { scopes: [S], k: 1, trackAccess: false })).hits[0]?.relevance, query).toBeGreaterThan(0.6);
    }
    for (const query of NONSENSE) {
      for (const hit of (await t.engram.recall(query, { scopes: [S], k: 5, trackAccess: false })).hits)
        expect(hit.relevance, query).toBeLessThan(0.3);
    }
  }, 120_000);
});

// Each ONNX model reads its cosines on its own scale (unrelated pairs ~0.4 for bge-small, higher for the
// blends): with the scale, the 0.6 / 0.3 reading holds for them as for USE-lite — a single model and the
// default blend (blend-e5-minilm) are checked.
for (const model of ['bge-small-en-v1.5', DEFAULT_ONNX_MODEL] as const) {
  const missing = hasModelFiles(modelCacheDir, model) ? '' : ` (skipped: ${model} is not installed; engram models pull ${model})`;
  describe.skipIf(missing !== '')(`recall hits carry relevance (${model})${missing}`, () => {
    let t: Awaited<ReturnType<typeof tempEngram>>;
    beforeAll(async () => {
      t = await tempEngram({ embedder: model });
      await seed(t.engram);
    }, 300_000);
    afterAll(async () => t?.cleanup());

    it('a clearly matching query gets high relevance, a nonsense query low', async () => {
      for (const query of CLEAR) {
        expect((await t.engram.recall(query, { scopes: [S], k: 1, trackAccess: false })).hits[0]?.relevance, query).toBeGreaterThan(0.6);
      }
      for (const query of NONSENSE) {
        const { hits } = await t.engram.recall(query, { scopes: [S], k: 5, trackAccess: false });
        expect(hits.length, query).toBeGreaterThan(0);
        for (const hit of hits) expect(hit.relevance, query).toBeLessThan(0.3);
      }
    }, 120_000);
  });
}

describe('onReferenceScale', () => {
  it("maps a model's unrelated and related medians onto the reference's, and leaves cosines alone without a scale", () => {
    const scale = { unrelated: 0.4, related: 0.7 };
    expect(onReferenceScale(0.4, scale)).toBeCloseTo(REFERENCE_COSINE_SCALE.unrelated, 9);
    expect(onReferenceScale(0.7, scale)).toBeCloseTo(REFERENCE_COSINE_SCALE.related, 9);
    expect(onReferenceScale(0.55, undefined)).toBe(0.55);
    expect(onReferenceScale(0.55, { unrelated: 0.5, related: 0.5 })).toBe(0.55);
    const semantic = (cosine: number) => hitRelevance({ semantic: { rank: 1, score: cosine } }, scale);
    expect(semantic(0.45)).toBeLessThan(semantic(0.6));
    expect(semantic(0.45)).toBeLessThan(0.3);
    expect(semantic(0.8)).toBeGreaterThan(0.6);
  });
});

const url = pgTestUrl();
describe.skipIf(url === undefined)('relevance is the same on SQLite and PostgreSQL', () => {
  const schema = uniqueSchema('rel');
  afterAll(async () => {
    if (url !== undefined) await dropPgSchema(url, schema);
  });

  it('gives every hit the same relevance on both stores', async () => {
    const sqlite = await tempEngram();
    const embedder = new HashEmbedder();
    const store = await openPostgresStore({
      url: withSchema(url as string, schema),
      embedding: { name: embedder.name, dimension: embedder.dimension },
      poolSize: 2,
    });
    const pg = new Engram({ store, embedder });
    try {
      await seed(sqlite.engram);
      await seed(pg);
      for (const query of [...CLEAR, ...NONSENSE, ...fuzzedQueries(10, 5)]) {
        const a = new Map(
          (await sqlite.engram.recall(query, { scopes: [S], k: 5, trackAccess: false })).hits.map((h) => [h.content, h.relevance]),
        );
        const b = new Map((await pg.recall(query, { scopes: [S], k: 5, trackAccess: false })).hits.map((h) => [h.content, h.relevance]));
        const shared = [...a.keys()].filter((content) => b.has(content));
        expect(shared.length, query).toBeGreaterThan(0);
        for (const content of shared) expect(b.get(content), `${query} → ${content}`).toBe(a.get(content));
      }
    } finally {
      await pg.close();
      await sqlite.cleanup();
    }
  }, 300_000);
});
