import { describe, expect, it } from 'vitest';
import { compressEpisode, shouldCompress } from '../../src/consolidation/compression.js';
import { decayVerdict, idleThresholdMs } from '../../src/consolidation/decay-policy.js';
import { clusterByEmbedding, extractiveInsights, insightKey, reflectionTrigger } from '../../src/consolidation/reflection.js';
import { mixedSample, reservoirSample } from '../../src/consolidation/sampler.js';
import { seededRandom } from '../../src/consolidation/statistics.js';
import type { MemoryRecord } from '../../src/core/memory.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function record(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id: 'r1',
    scope: 't/a',
    layer: 'episodic',
    content: 'navigate to the kitchen',
    summary: null,
    tags: [],
    entities: [],
    importance: 0.3,
    salience: 0.3,
    surprise: 1,
    emotion: null,
    pinned: false,
    mentionCount: 1,
    accessCount: 0,
    lastAccessedAt: null,
    confidence: 1,
    status: 'active',
    provenance: { kind: 'episodic', sources: [], derivedFrom: [] },
    validFrom: T0,
    validTo: null,
    occurredAt: T0,
    recordedAt: T0,
    invalidatedAt: null,
    sourceKey: null,
    updatedAt: T0,
    data: {},
    ...overrides,
  };
}

describe('decay policy', () => {
  it('decays each importance tier at its idle threshold, by last access', () => {
    for (const [importance, days] of [
      [0.2, 7],
      [0.6, 14],
      [0.9, 30],
      [null, 30],
    ] as const) {
      const r = record({ importance });
      expect(decayVerdict(r, T0 + (days - 0.01) * DAY).action).toBe('keep');
      expect(decayVerdict(r, T0 + days * DAY).action).toBe('decay');
    }
    // Created long ago but read yesterday: fresh.
    expect(decayVerdict(record({ lastAccessedAt: T0 + 99 * DAY }), T0 + 100 * DAY).action).toBe('keep');
  });

  it('pinned never decays; a restore exemption sticks; emotion slows decay', () => {
    expect(decayVerdict(record({ pinned: true }), T0 + 999 * DAY)).toEqual({ action: 'keep', reason: 'pinned' });
    expect(decayVerdict(record({ data: { exempt: { decay: true } } }), T0 + 999 * DAY)).toEqual({ action: 'keep', reason: 'exempt' });
    const calm = idleThresholdMs({ importance: 0.2, emotion: { valence: 0, intensity: 2 } });
    const intense = idleThresholdMs({ importance: 0.2, emotion: { valence: -0.9, intensity: 10 } });
    expect(calm).toBe(7 * DAY);
    expect(intense).toBe(14 * DAY);
  });

  it('a record dated ahead is not idle before it becomes valid', () => {
    // recorded at T0, valid only from day 90 (a correction or an appointment written in advance)
    const ahead = record({ importance: 0.2, validFrom: T0 + 90 * DAY, occurredAt: T0 + 90 * DAY });
    expect(decayVerdict(ahead, T0 + 20 * DAY).action).toBe('keep');
    expect(decayVerdict(ahead, T0 + 96 * DAY).action).toBe('keep');
    expect(decayVerdict(ahead, T0 + 97 * DAY).action).toBe('decay');
    // a back-dated record idles from when it was recorded, as before
    expect(decayVerdict(record({ importance: 0.2, validFrom: T0 - 400 * DAY }), T0 + 7 * DAY).action).toBe('decay');
  });

  it('a decayed record expires after the grace period', () => {
    const decayed = record({ status: 'decayed', data: { decayedAt: T0 + 7 * DAY } });
    expect(decayVerdict(decayed, T0 + 36 * DAY).action).toBe('keep');
    expect(decayVerdict(decayed, T0 + 37 * DAY).action).toBe('expire');
  });
});

describe('compression', () => {
  it('compresses old unimportant episodes into a summary with the key fields and the id chain', () => {
    const old = record({
      content: 'I tried to pick up the red mug from the table and it slipped.',
      data: {
        context: { goal: 'pick up mug' },
        action: { tool: 'grasp', args: { force: 3 } },
        perception: { objects: ['mug'] },
        outcome: { success: false, detail: 'slipped' },
      },
    });
    expect(shouldCompress(old, T0 + 29 * DAY)).toBe(false);
    expect(shouldCompress(old, T0 + 30 * DAY)).toBe(true);
    expect(shouldCompress({ ...old, importance: 0.8 }, T0 + 90 * DAY)).toBe(false);
    expect(shouldCompress({ ...old, pinned: true }, T0 + 90 * DAY)).toBe(false);
    // old history imported just now is old in the world but not in the store: not yet
    const imported = { ...old, occurredAt: T0 - 400 * DAY, recordedAt: T0 };
    expect(shouldCompress(imported, T0 + DAY)).toBe(false);
    expect(shouldCompress(imported, T0 + 30 * DAY)).toBe(true);
    const compressed = compressEpisode(old);
    expect(compressed.content).toContain('pick up mug — grasp mug — failed');
    expect(compressed.content).toContain('red mug');
    expect(compressed.data).toMatchObject({
      compressed: true,
      compressedFrom: ['r1'],
      action: { tool: 'grasp' },
      outcome: { success: false },
    });
    expect(shouldCompress({ ...old, data: compressed.data }, T0 + 90 * DAY)).toBe(false);
  });
});

describe('sampler', () => {
  it('mixes recent, random old and low-salience records without duplicates, reproducibly', () => {
    const records = Array.from({ length: 100 }, (_, i) => ({
      id: String(i).padStart(3, '0'),
      salience: i === 5 || i === 6 ? 0 : 0.5 + (i % 7) / 20,
    }));
    const a = mixedSample(records, { recent: 10, randomOld: 10, lowSalience: 2 }, 1);
    const b = mixedSample(records, { recent: 10, randomOld: 10, lowSalience: 2 }, 1);
    expect(a).toEqual(b);
    const ids = a.items.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 90; i < 100; i += 1) expect(ids).toContain(String(i).padStart(3, '0'));
    expect(a.slices.recent).toBe(10);
    expect(a.slices.randomOld).toBe(10);
    expect(a.slices.lowSalience).toBe(2);
    // The quiet ones are there (sampled at random or as low-salience).
    expect(ids).toContain('005');
    expect(ids).toContain('006');
    const other = mixedSample(records, { recent: 10, randomOld: 10, lowSalience: 2 }, 2);
    expect(other.items.map((r) => r.id)).not.toEqual(ids);
  });

  it('reservoir sampling is roughly uniform', () => {
    const counts = new Array<number>(10).fill(0);
    const random = seededRandom(3);
    for (let i = 0; i < 2000; i += 1)
      for (const x of reservoirSample([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 3, random)) counts[x] = (counts[x] ?? 0) + 1;
    for (const c of counts) expect(c).toBeGreaterThan(450);
  });
});

describe('reflection', () => {
  const vec = (...xs: number[]) => Float32Array.from(xs);
  it('triggers on threshold, session end or on demand', () => {
    expect(reflectionTrigger({ accumulatedImportance: 4.9 })).toBeNull();
    expect(reflectionTrigger({ accumulatedImportance: 5 })).toBe('threshold');
    expect(reflectionTrigger({ accumulatedImportance: 0, sessionEnd: true })).toBe('session-end');
    expect(reflectionTrigger({ accumulatedImportance: 0, onDemand: true })).toBe('on-demand');
  });

  it('clusters by embedding and templates one insight per cluster with its sources', () => {
    const items = [
      ...Array.from({ length: 4 }, (_, i) => ({
        id: `a${i}`,
        content: `deploy to staging failed on migration ${i}`,
        embedding: vec(1, 0.1 * i, 0),
        importance: 0.8,
      })),
      ...Array.from({ length: 4 }, (_, i) => ({
        id: `b${i}`,
        content: `user asked about invoice ${i}`,
        embedding: vec(0, 1, 0.1 * i),
        importance: 0.7,
      })),
      { id: 'c0', content: 'lonely thought', embedding: vec(0, 0, 1), importance: 0.9 },
    ];
    expect(
      clusterByEmbedding(items, 0.8)
        .map((c) => c.length)
        .sort(),
    ).toEqual([1, 4, 4]);
    const insights = extractiveInsights(items, 1, {
      importanceThreshold: 5,
      minImportance: 0.5,
      minItems: 1,
      clusterSimilarity: 0.8,
      minClusterSize: 3,
      representatives: 2,
    });
    expect(insights).toHaveLength(2);
    const deploy = insights.find((i) => i.sources.includes('a0'));
    expect(deploy).toMatchObject({ level: 1, importance: 0.5, sources: ['a0', 'a1', 'a2', 'a3'], method: 'extractive' });
    expect(deploy?.content).toMatch(/deploy/);
    expect(deploy?.representatives).toHaveLength(2);
    expect(insightKey(1, ['b', 'a'])).toBe(insightKey(1, ['a', 'b']));
  });
});
