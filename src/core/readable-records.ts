/**
 * Reads that survive a damaged stored record. A row written outside Engram (or by an older bug) may
 * hold a time no calendar can print or JSON that does not parse; one such row must not fail every
 * read of its scope. Reads pass through `skippingReader`, which drops those records and lists them
 * as `skipped: [{ id, reason }]` next to the good results.
 */
import { isInstant } from './instant.js';
import { LAYERS, STATUSES, type MemoryRecord } from './memory.js';
import type { ListQuery, Store } from './ports/store.js';
import { cutText } from './text/cut-text.js';

/** A record a read left out, and why. */
export interface SkippedRecord {
  id: string;
  reason: string;
}

const TIMES = ['validFrom', 'recordedAt', 'updatedAt'] as const;
const OPTIONAL_TIMES = ['validTo', 'occurredAt', 'invalidatedAt', 'lastAccessedAt'] as const;
const NUMBERS = ['salience', 'surprise', 'mentionCount', 'accessCount', 'confidence'] as const;

/** What makes a decoded record unusable (unprintable time, unreadable JSON, unknown layer), or null when it is sound. */
export function recordProblem(record: MemoryRecord): string | null {
  for (const field of TIMES) if (!isInstant(record[field])) return `${field} ${describe(record[field])} is not a time in years 0001-9999`;
  for (const field of OPTIONAL_TIMES) {
    const value = record[field];
    if (value !== null && !isInstant(value)) return `${field} ${describe(value)} is not a time in years 0001-9999`;
  }
  for (const field of NUMBERS)
    if (typeof record[field] !== 'number' || !Number.isFinite(record[field])) return `${field} ${describe(record[field])} is not a number`;
  if (record.importance !== null && !Number.isFinite(record.importance)) return `importance ${describe(record.importance)} is not a number`;
  if (!(LAYERS as readonly string[]).includes(record.layer)) return `layer ${describe(record.layer)} is not a layer`;
  if (!(STATUSES as readonly string[]).includes(record.status)) return `status ${describe(record.status)} is not a status`;
  if (typeof record.content !== 'string') return 'content is not text';
  if (!isStringList(record.tags)) return 'tags are not readable JSON (a list of strings)';
  if (!isStringList(record.entities)) return 'entities are not readable JSON (a list of strings)';
  if (!isObject(record.provenance)) return 'provenance is not readable JSON';
  if (!isObject(record.data)) return 'data is not readable JSON';
  if (record.emotion !== null && !isObject(record.emotion)) return 'emotion is not readable JSON';
  return null;
}

/**
 * Parses a stored JSON column; `undefined` when it does not parse, which `recordProblem` reports,
 * so one damaged column never throws out of a read.
 */
export function parseStoredJson<T>(text: string | null): T {
  if (text === null) return null as T;
  // the commonest stored values (no tags, no data), without the parser
  if (text === '[]') return [] as T;
  if (text === '{}') return {} as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined as T;
  }
}

/** A stored JSON list of strings (tags, entities) for indexing; empty when it does not decode to one. */
export function storedStringList(text: string): string[] {
  const value = parseStoredJson<unknown>(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Frozen records found sound: a store that hands out the same frozen record again (SQLite's record
 * cache) has it checked once. Only frozen ones, which cannot have changed since.
 */
const knownSound = new WeakSet<MemoryRecord>();

/** Splits records into the sound ones and the skipped. */
export function partitionReadable(records: readonly MemoryRecord[], skipped: SkippedRecord[]): MemoryRecord[] {
  const readable: MemoryRecord[] = [];
  for (const record of records) {
    if (knownSound.has(record)) {
      readable.push(record);
      continue;
    }
    const reason = recordProblem(record);
    if (reason === null) {
      readable.push(record);
      if (Object.isFrozen(record)) knownSound.add(record);
    } else if (!skipped.some((s) => s.id === record.id)) skipped.push({ id: record.id, reason });
  }
  return readable;
}

/** The reads of a store that return records; each is filtered (`listMemories` and `getNeighbours` apart). */
const RECORD_READS = new Set(['getMemories', 'findClaims', 'findConcepts']);

/**
 * A view of `store` whose record reads leave damaged records out and list them in `skipped`.
 *
 * @example
 * ```ts
 * const { store: reader, skipped } = skippingReader(store);
 * const records = await reader.getMemories(ids, scopes); // sound records only; skipped says which were not
 * ```
 */
export function skippingReader<S extends Store>(store: S): { store: S; skipped: SkippedRecord[] } {
  const skipped: SkippedRecord[] = [];
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property === 'string' && RECORD_READS.has(property)) {
        return async (...args: unknown[]) => partitionReadable((await method.apply(target, args)) as MemoryRecord[], skipped);
      }
      if (property === 'listMemories')
        return (query: ListQuery) => listReadable((q) => method.call(target, q) as Promise<MemoryRecord[]>, query, skipped);
      if (property === 'getNeighbours') {
        return async (...args: unknown[]) => {
          const found = (await method.apply(target, args)) as Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>;
          return new Map(
            [...found].map(([id, n]) => [id, { before: partitionReadable(n.before, skipped), after: partitionReadable(n.after, skipped) }]),
          );
        };
      }
      return method.bind(target);
    },
  });
  return { store: wrapped, skipped };
}

/**
 * One `listMemories` page of sound records: what was skipped is made up from the following ids, so a
 * full page still means "there may be more" to the keyset paging of the caller.
 */
async function listReadable(
  list: (query: ListQuery) => Promise<MemoryRecord[]>,
  query: ListQuery,
  skipped: SkippedRecord[],
): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  let afterId = query.afterId;
  for (;;) {
    const want = query.limit - out.length;
    const page = await list({ ...query, limit: want, ...(afterId !== undefined ? { afterId } : {}) });
    out.push(...partitionReadable(page, skipped));
    if (page.length < want || out.length >= query.limit) return out;
    afterId = page[page.length - 1]?.id;
  }
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(cutText(value, 40)) : cutText(String(value), 40);
}
