/** Records, vectors and instants shared by the store contract suite; deterministic, no embedding model. */
import type { Edge, MemoryData, MemoryRecord, NewMemory } from '../../src/core/memory.js';
import { newId as coreNewId, newRecord } from '../../src/core/record-factory.js';

export const DAY = 86_400_000;
/** The instant test data starts at. */
export const T0 = Date.parse('2024-01-01T00:00:00Z');

/** A time-sortable id, increasing with each call (the engine's own id source, at T0). */
export function newId(): string {
  return coreNewId(T0);
}

let counter = 0;

/** A valid active record with plain defaults (the engine's record factory at T0); `overrides` win. */
export function makeRecord(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  counter++;
  return { ...newRecord({ now: T0, scope: 'acme/a', layer: 'episodic', content: `plain note number ${counter}` }), ...overrides };
}

/** A record with every optional field set, nested JSON and non-ASCII text, for roundtrips. */
export function makeFullRecord(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return makeRecord({
    layer: 'semantic',
    content: 'Alice’s budget for the trip is 80 € — “firm”, she said. 日本語 ✓',
    summary: 'Alice: budget 80 €',
    tags: ['budget', 'travel', 'ünïcode'],
    entities: ['Alice', 'Lisbon'],
    importance: 0.73,
    salience: 0.61,
    surprise: 0.12,
    emotion: { valence: -0.4, intensity: 7, mood: ['tense', 'hopeful'] },
    pinned: true,
    mentionCount: 3,
    accessCount: 2,
    lastAccessedAt: T0 + 5 * DAY + 123,
    confidence: 0.9,
    status: 'active',
    provenance: {
      kind: 'user_stated',
      sources: [
        { system: 'slack', conversationId: 'c-1', messageId: 'm-7', messageRange: ['m-5', 'm-7'], uri: 'https://example.com/x?y=1' },
      ],
      derivedFrom: ['01HZZZZZZZZZZZZZZZZZZZZZZZ'],
    },
    validFrom: T0 + DAY,
    validTo: T0 + 90 * DAY,
    occurredAt: T0 + DAY - 1,
    recordedAt: T0 + DAY + 17,
    invalidatedAt: T0 + 91 * DAY,
    sourceKey: '["c-1","m-7"]',
    updatedAt: T0 + 2 * DAY,
    data: {
      claim: { subject: 'alice', attribute: 'budget', value: '80 €', negated: false },
      history: [{ content: 'budget is 80', at: T0, sources: [{ conversationId: 'c-0' }] }],
      perception: { objects: ['mug'], people: ['alice'], salience: 0.4, novelty: 0.2 },
      action: { tool: 'search', args: { q: 'flights', n: 3, nested: { deep: [1, 'two', null, true] } } },
      priority: 2,
      // a key no writer declares (a foreign or future record) survives the round trip
      custom: { 'key with spaces': 'value "quoted"', empty: {}, list: [] },
    } as MemoryData,
    ...overrides,
  });
}

/** An edge between two records of `scope`. */
export function makeEdge(scope: string, fromId: string, toId: string, overrides: Partial<Edge> = {}): Edge {
  return {
    id: newId(),
    scope,
    fromId,
    type: 'RELATED_TO',
    toId,
    weight: 0.5,
    validFrom: T0,
    validTo: null,
    recordedAt: T0,
    invalidatedAt: null,
    metadata: {},
    ...overrides,
  };
}

/** A vector of `dimension` whose leading components are `components`, the rest 0. */
export function vectorOf(dimension: number, ...components: number[]): Float32Array {
  const vector = new Float32Array(dimension);
  components.forEach((value, i) => {
    vector[i] = value;
  });
  return vector;
}

/** A deterministic pseudo-random unit vector for `seed` (mulberry32). */
export function seededVector(dimension: number, seed: number): Float32Array {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  const vector = new Float32Array(dimension);
  let norm = 0;
  for (let i = 0; i < dimension; i++) {
    const value = next();
    vector[i] = value;
    norm += value * value;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimension; i++) vector[i] = (vector[i] as number) * scale;
  return vector;
}

let vectorSeed = 1000;

/** Pairs records with vectors for `insertMemories`; without a vector, each gets a fresh seeded one. */
export function withVectors(dimension: number, records: readonly MemoryRecord[], vectors?: readonly Float32Array[]): NewMemory[] {
  return records.map((record, i) => ({ record, embedding: vectors?.[i] ?? seededVector(dimension, ++vectorSeed) }));
}
