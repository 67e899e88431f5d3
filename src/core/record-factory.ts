/**
 * The one factory of fresh memory records: every writer (the write path, concept extraction,
 * consolidation) names what it knows and gets every other field at its documented default.
 */
import { monotonicFactory } from 'ulid';
import type { MemoryRecord } from './memory.js';

const nextUlid = monotonicFactory();

/** A new time-sortable id (ULID) for an instant. */
export function newId(at: number): string {
  return nextUlid(at);
}

/** What a new record must say, and what it may: any other field but its id and transaction times. */
export type NewRecordFields = Pick<MemoryRecord, 'scope' | 'layer' | 'content'> & {
  /** The instant of the write: its id, `recordedAt`, `updatedAt`, and `validFrom` unless given. */
  now: number;
} & Partial<Omit<MemoryRecord, 'id' | 'scope' | 'layer' | 'content' | 'recordedAt' | 'updatedAt'>>;

/**
 * A fresh, active record at `now`. Defaults: no summary, tags or entities; importance and salience 0.5;
 * no surprise or emotion; not pinned; mentioned once, never accessed; confidence 1; provenance episodic
 * for episodes, else user-stated, with no sources; valid from `now`, open-ended; no event time; no
 * source key; no data. A field given as `undefined` keeps its default.
 *
 * @example
 * newRecord({ scope: 'acme/ops', layer: 'semantic', content: 'Deploys run on Fridays', now: Date.UTC(2025, 0, 1) }).status; // 'active'
 */
export function newRecord(fields: NewRecordFields): MemoryRecord {
  const { now, ...given } = fields;
  const record: MemoryRecord = {
    id: newId(now),
    scope: given.scope,
    layer: given.layer,
    content: given.content,
    summary: null,
    tags: [],
    entities: [],
    importance: 0.5,
    salience: 0.5,
    surprise: 0,
    emotion: null,
    pinned: false,
    mentionCount: 1,
    accessCount: 0,
    lastAccessedAt: null,
    confidence: 1,
    status: 'active',
    provenance: { kind: given.layer === 'episodic' ? 'episodic' : 'user_stated', sources: [], derivedFrom: [] },
    validFrom: now,
    validTo: null,
    occurredAt: null,
    recordedAt: now,
    invalidatedAt: null,
    sourceKey: null,
    updatedAt: now,
    data: {},
  };
  for (const [key, value] of Object.entries(given)) if (value !== undefined) (record as unknown as Record<string, unknown>)[key] = value;
  return record;
}
