/**
 * Builds a fresh `MemoryRecord` from validated input: ids, both time axes, defaults.
 */
import type { MemoryData, MemoryRecord, SourceRef } from '../memory.js';
import { newRecord } from '../record-factory.js';
import type { ParsedRememberInput } from '../schemas.js';

export { newId } from '../record-factory.js';

/** Derived signals computed by the write path before the record is built. */
export interface DerivedSignals {
  entities: string[];
  importance: number | null;
  emotion: MemoryRecord['emotion'];
  salience: number;
  surprise: number;
  claim?: MemoryData['claim'];
}

/**
 * The idempotency key of a source: the same conversation and message (or uri and message) ingested
 * twice maps to the same key. Null when the source does not name a message. The key is the JSON array
 * `[container, messageId]`: injective, and free of NUL characters, which PostgreSQL text cannot hold.
 *
 * @example
 * ```ts
 * sourceKeyOf({ conversationId: 'c-1', messageId: 'm-7' }); // '["c-1","m-7"]'
 * ```
 */
export function sourceKeyOf(source: SourceRef | undefined): string | null {
  if (source === undefined || source.messageId === undefined) return null;
  const container = source.conversationId ?? source.uri ?? source.system;
  if (container === undefined) return null;
  return JSON.stringify([container, source.messageId]);
}

/**
 * Rewrites a source key of the first encoding (`container` NUL `messageId`) to the current one; any
 * other key is returned as it is. Splits at the first NUL, where the first encoding put it.
 *
 * @example
 * ```ts
 * upgradeSourceKey('c-1\u0000m-7'); // '["c-1","m-7"]'
 * ```
 */
export function upgradeSourceKey(key: string): string {
  const at = key.indexOf('\u0000');
  return at < 0 ? key : JSON.stringify([key.slice(0, at), key.slice(at + 1)]);
}

const DATA_FIELDS = [
  'perception',
  'context',
  'decision',
  'action',
  'outcome',
  'name',
  'definition',
  'category',
  'properties',
  'priority',
  'metric',
] as const;

/** Creates the record for one input at `now`. */
export function buildRecord(input: ParsedRememberInput, derived: DerivedSignals, now: number): MemoryRecord {
  const layer = input.layer ?? 'episodic';
  const data: MemoryData = {};
  for (const field of DATA_FIELDS) {
    const value = input[field];
    if (value !== undefined) (data as Record<string, unknown>)[field] = value;
  }
  if (derived.claim !== undefined) data.claim = derived.claim;
  if (input.timeZone !== undefined) data.wallClock = { timeZone: input.timeZone };
  else if (input.timezoneOffsetMinutes !== undefined) data.wallClock = { timezoneOffsetMinutes: input.timezoneOffsetMinutes };
  const sources = [...(input.provenance?.sources ?? []), ...(input.source !== undefined ? [input.source] : [])];
  const occurredAt = input.occurredAt ?? (layer === 'episodic' ? now : null);
  return newRecord({
    now,
    scope: input.scope,
    layer,
    content: input.content,
    summary: input.summary,
    tags: dedupe(input.tags ?? []),
    entities: dedupe(input.entities ?? derived.entities),
    importance: input.importance ?? derived.importance,
    salience: derived.salience,
    surprise: derived.surprise,
    emotion: input.emotion ?? derived.emotion,
    pinned: input.pinned,
    confidence: input.confidence,
    provenance: {
      kind: input.provenance?.kind ?? (layer === 'episodic' ? 'episodic' : 'user_stated'),
      sources,
      derivedFrom: input.provenance?.derivedFrom ?? [],
    },
    validFrom: input.validFrom ?? occurredAt ?? now,
    validTo: input.validTo,
    occurredAt,
    sourceKey: sourceKeyOf(input.source),
    data,
  });
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
