/**
 * The public JSON shape of a memory: what the library returns and every interface prints.
 * Times are ISO 8601 strings; layer-specific fields sit at the top level as they do on input.
 */
import { isInstant } from './instant.js';
import type { Edge, MemoryRecord } from './memory.js';
import { recordProblem } from './readable-records.js';

/** A memory as returned to callers. */
export interface MemoryView {
  id: string;
  scope: string;
  layer: MemoryRecord['layer'];
  content: string;
  summary: string | null;
  tags: string[];
  entities: string[];
  importance: number | null;
  salience: number;
  surprise: number;
  emotion: MemoryRecord['emotion'];
  pinned: boolean;
  mentionCount: number;
  accessCount: number;
  lastAccessedAt: string | null;
  confidence: number;
  status: MemoryRecord['status'];
  provenance: MemoryRecord['provenance'];
  validFrom: string;
  validTo: string | null;
  occurredAt: string | null;
  recordedAt: string;
  invalidatedAt: string | null;
  updatedAt: string;
  [field: string]: unknown;
}

/** ISO string of an epoch-ms instant, or null (also for a stored value no calendar can print, rather than a throw). */
export function iso(ms: number | null | undefined): string | null {
  return isInstant(ms) ? new Date(ms).toISOString() : null;
}

/**
 * A changeable copy of a frozen JSON value, else the value itself. A store may hand out the same frozen
 * record to every reader (SQLite's read cache); the views built from it belong to their holder, who may
 * change them as before.
 */
function thaw<T>(value: T): T {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return value.map(thaw) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, nested] of Object.entries(value)) copy[key] = thaw(nested);
  return copy as T;
}

/**
 * Converts a stored record to its public view. Never throws: a damaged record (see `recordProblem`)
 * gets `damaged: reason` and null for what cannot be shown, so it can still be forgotten or fixed.
 */
export function toMemoryView(record: MemoryRecord): MemoryView {
  const { exempt: _exempt, ...data } = thaw((record.data as MemoryRecord['data'] | undefined) ?? {});
  const problem = recordProblem(record);
  return {
    ...(problem !== null ? { damaged: problem } : {}),
    ...data,
    id: record.id,
    scope: record.scope,
    layer: record.layer,
    content: record.content,
    summary: record.summary,
    tags: thaw(record.tags),
    entities: thaw(record.entities),
    importance: record.importance,
    salience: record.salience,
    surprise: record.surprise,
    emotion: thaw(record.emotion),
    pinned: record.pinned,
    mentionCount: record.mentionCount,
    accessCount: record.accessCount,
    lastAccessedAt: iso(record.lastAccessedAt),
    confidence: record.confidence,
    status: record.status,
    provenance: thaw(record.provenance),
    validFrom: iso(record.validFrom) as string,
    validTo: iso(record.validTo),
    occurredAt: iso(record.occurredAt),
    recordedAt: iso(record.recordedAt) as string,
    invalidatedAt: iso(record.invalidatedAt),
    updatedAt: iso(record.updatedAt) as string,
  };
}

/** The public JSON shape of an edge. */
export interface EdgeView {
  id: string;
  scope: string;
  from: string;
  type: string;
  to: string;
  weight: number;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
  invalidatedAt: string | null;
  metadata: Record<string, unknown>;
}

/** Converts a stored edge to its public view. */
export function toEdgeView(edge: Edge): EdgeView {
  return {
    id: edge.id,
    scope: edge.scope,
    from: edge.fromId,
    type: edge.type,
    to: edge.toId,
    weight: edge.weight,
    validFrom: iso(edge.validFrom) as string,
    validTo: iso(edge.validTo),
    recordedAt: iso(edge.recordedAt) as string,
    invalidatedAt: iso(edge.invalidatedAt),
    metadata: edge.metadata,
  };
}
