/**
 * The read path (DESIGN §4): channels → weighted reciprocal-rank fusion → hits with explanations.
 */
import type { TimeFilter } from '../memory.js';
import { toMemoryView, type MemoryView } from '../memory-view.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { ChannelHit, Store } from '../ports/store.js';
import type { recallOptionsSchema } from '../schemas.js';
import type { z } from 'zod';
import { contentTerms } from '../text/index.js';
import { reciprocalRankFusion, type ChannelExplanation, type FusionInput } from './fusion.js';
import type { RecallConfig } from './recall-config.js';

/** Why a hit was returned: its rank and score in each channel, and the fused score. */
export interface HitExplanation {
  channels: Record<string, ChannelExplanation>;
  fused: number;
}

/** One recall hit: the memory, its final score and the explanation. */
export interface RecallHit extends MemoryView {
  score: number;
  why: HitExplanation;
}

export interface RecallResult {
  hits: RecallHit[];
}

export interface RecallDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  config: RecallConfig;
}

type ParsedRecallOptions = z.output<typeof recallOptionsSchema>;

/** Runs one recall. Scopes and query are already validated. */
export async function recall(deps: RecallDeps, query: string, options: ParsedRecallOptions): Promise<RecallResult> {
  const { store, embedder, clock, config } = deps;
  const now = clock.now();
  const k = options.k ?? config.k;
  const limit = Math.max(config.candidates, k * 3);
  const time: TimeFilter = {
    ...(options.asOf !== undefined ? { asOf: options.asOf } : {}),
    ...(options.knownAt !== undefined ? { knownAt: options.knownAt } : {}),
    ...(options.includeSuperseded !== undefined ? { includeSuperseded: options.includeSuperseded } : {}),
  };
  const base = { scopes: options.scopes, now, limit, ...time, ...(options.layers !== undefined ? { layers: options.layers } : {}) };
  const lexicalWeight = options.weights?.lexical ?? config.lexicalWeight;
  const semanticWeight = options.weights?.semantic ?? config.semanticWeight;

  const terms = contentTerms(query).map((term) => ({ term }));
  const [lexical, semantic] = await Promise.all([
    lexicalWeight > 0 && terms.length > 0 ? store.lexicalSearch({ ...base, terms }) : Promise.resolve<ChannelHit[]>([]),
    semanticWeight > 0
      ? embedder.embed([query]).then(([vector]) => store.vectorSearch({ ...base, vector: vector as Float32Array }))
      : Promise.resolve<ChannelHit[]>([]),
  ]);
  const inputs: FusionInput[] = [
    { channel: 'lexical', weight: lexicalWeight, hits: lexical },
    { channel: 'semantic', weight: semanticWeight, hits: semantic },
  ];
  const fused = reciprocalRankFusion(inputs, config.rrfK).slice(0, k * 2);
  const records = await store.getMemories(fused.map((f) => f.id), options.scopes);
  const byId = new Map(records.map((r) => [r.id, r]));
  const hits: RecallHit[] = [];
  for (const f of fused) {
    const record = byId.get(f.id);
    // A chunked document's parent stands for its chunks, which are the hits.
    if (record === undefined || record.data.isChunkParent === true) continue;
    if (hits.length >= k) break;
    hits.push({ ...toMemoryView(record), score: f.fused, why: { channels: f.channels, fused: f.fused } });
  }
  if (options.trackAccess !== false && hits.length > 0) void store.recordAccess(hits.map((h) => h.id), now);
  return { hits };
}
