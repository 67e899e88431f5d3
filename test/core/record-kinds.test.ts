/**
 * Record kinds are declared: `KindedRecord` is a union told apart by `layer` (and, within the semantic
 * layer, by the concept guard), the guards narrow a `MemoryRecord` to its member, and each member's
 * `data` holds only what that kind carries. The type-level half is checked by `tsc --noEmit`
 * (`@ts-expect-error` fails the build when the line compiles); the runtime half here.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ConceptRecord, EpisodeRecord, FactRecord, KindedRecord, MemoryRecord, RecordKind } from '../../src/core/memory.js';
import { newRecord } from '../../src/core/record-factory.js';
import { isChunk, isConcept, isEpisode, isFact, isRule, isStatistic, isStructural, recordKind } from '../../src/core/record-kinds.js';

const now = Date.UTC(2025, 0, 1);
const scope = 'acme/ops';
const episode = newRecord({ now, scope, layer: 'episodic', content: 'ran the deploy', data: { outcome: { success: true } } });
const fact = newRecord({ now, scope, layer: 'semantic', content: 'deploys run on Fridays' });
const concept = newRecord({ now, scope, layer: 'semantic', content: 'deploy', data: { concept: true, name: 'deploy' } });
const rule = newRecord({ now, scope, layer: 'procedural', content: 'never deploy on Mondays', data: { priority: 2 } });
const statistic = newRecord({ now, scope, layer: 'statistical', content: 'deploy success rate: 0.9 (9/10)' });

describe('record kinds', () => {
  it('names every record by its kind', () => {
    const kinds: RecordKind[] = [episode, fact, concept, rule, statistic].map(recordKind);
    expect(kinds).toEqual(['episode', 'fact', 'concept', 'rule', 'statistic']);
  });

  it('a concept needs both the semantic layer and a JSON true', () => {
    expect(isConcept(concept)).toBe(true);
    expect(isFact(concept)).toBe(false);
    expect(isConcept({ ...episode, data: { ...episode.data, concept: true } })).toBe(false);
    expect(isConcept({ ...fact, data: { ...fact.data, concept: 'true' as unknown as boolean } })).toBe(false);
    expect(isFact(fact)).toBe(true);
    expect(isStructural(concept)).toBe(true);
    expect(isStructural(fact)).toBe(false);
  });

  it('each layer guard answers for its layer only', () => {
    const records = [episode, fact, concept, rule, statistic];
    expect(records.map((r) => isEpisode(r))).toEqual([true, false, false, false, false]);
    expect(records.map((r) => isRule(r))).toEqual([false, false, false, true, false]);
    expect(records.map((r) => isStatistic(r))).toEqual([false, false, false, false, true]);
  });

  it('a chunk names its parent', () => {
    expect(isChunk({ data: { parentId: fact.id } })).toBe(true);
    expect(isChunk(fact)).toBe(false);
  });

  it('guards narrow a MemoryRecord to its kind, whose data holds what that kind carries', () => {
    const asConcept = (record: MemoryRecord): void => {
      if (!isConcept(record)) return;
      expectTypeOf(record).toEqualTypeOf<ConceptRecord>();
      expectTypeOf(record.data.concept).toEqualTypeOf<true>();
    };
    const asEpisode = (record: MemoryRecord): void => {
      if (!isEpisode(record)) return;
      expectTypeOf(record).toEqualTypeOf<EpisodeRecord>();
      // @ts-expect-error an episode carries no claim slot
      void record.data.claim;
    };
    const asFact = (record: MemoryRecord): void => {
      if (!isFact(record)) return;
      expectTypeOf(record).toEqualTypeOf<FactRecord>();
      // @ts-expect-error only episodes are compressed
      void record.data.compressedFrom;
    };
    for (const record of [episode, fact, concept]) {
      asConcept(record);
      asEpisode(record);
      asFact(record);
    }
    // @ts-expect-error a fact is never a concept
    const marked: FactRecord['data'] = { concept: true };
    void marked;
    const kinded = episode as KindedRecord;
    if (kinded.layer === 'episodic') expectTypeOf(kinded).toEqualTypeOf<EpisodeRecord>();
    // every kind is a MemoryRecord, so the kinds pass wherever records do
    expectTypeOf<KindedRecord>().toMatchTypeOf<MemoryRecord>();
  });
});
