/**
 * Versioned setting records of a scope (the persona, the profile schema): procedural records of one
 * category, each change a new version that supersedes the current one with a SUPERSEDES edge carrying
 * the reason, so `history` shows every version and a revert is one more version, never a deletion.
 */
import type { Edge, MemoryRecord, MemoryStatus } from '../memory.js';
import { isVisible } from '../memory.js';
import { newRecord, newId } from '../record-factory.js';
import type { StoreReader, StoreTransaction } from '../ports/store.js';
import type { Scope } from '../scope.js';

/** Who made a version: a person through the API, a reflection of the sleep cycle, or a revert. */
export type SettingAuthor = 'user' | 'reflection' | 'revert';

/** Why a version was written (kept in its data as `change`). */
export interface SettingChange {
  reason: string;
  by: SettingAuthor;
  /** For a revert: the version it restores. */
  revertOf?: string;
  /** Anything the writer wants to keep about the change (e.g. the disposition shifts). */
  details?: Record<string, unknown>;
}

const PAGE = 500;
const MAX_RECORDS = 5_000;

/** Procedural records of `category` in `scopes` (any of `statuses`), oldest first. */
export async function settingRecords(
  store: StoreReader,
  scopes: readonly Scope[],
  category: string,
  statuses?: readonly MemoryStatus[],
): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  let afterId: string | undefined;
  let read = 0;
  while (read < MAX_RECORDS) {
    const page = await store.listMemories({
      scopes,
      layers: ['procedural'],
      ...(statuses !== undefined ? { statuses } : {}),
      limit: PAGE,
      ...(afterId !== undefined ? { afterId } : {}),
    });
    read += page.length;
    for (const record of page) if (record.data?.category === category) out.push(record);
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]?.id;
  }
  return out;
}

/** The current (active, valid now) records of `category` in `scopes`, newest first. */
export async function currentSettings(
  store: StoreReader,
  scopes: readonly Scope[],
  category: string,
  now: number,
): Promise<MemoryRecord[]> {
  const records = await settingRecords(store, scopes, category, ['active']);
  return records.filter((r) => isVisible(r, {}, now)).sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** A new version's record: procedural, of `category`, the values in `properties`, the change in `change`. */
export function settingRecord(input: {
  scope: Scope;
  category: string;
  content: string;
  properties: Record<string, unknown>;
  change: SettingChange;
  now: number;
  derivedFrom?: string[];
}): MemoryRecord {
  return newRecord({
    scope: input.scope,
    layer: 'procedural',
    content: input.content,
    now: input.now,
    importance: 0.9,
    salience: 0.9,
    provenance: {
      kind: input.change.by === 'reflection' ? 'reflection' : 'user_stated',
      sources: [],
      derivedFrom: input.derivedFrom ?? [],
    },
    data: { category: input.category, properties: input.properties, change: input.change } as MemoryRecord['data'],
  });
}

/**
 * Inserts `record` as the scope's current version of its category and supersedes every other current
 * one (status superseded, validTo and invalidatedAt now, a SUPERSEDES edge with the change's reason).
 * Returns the ids it superseded.
 */
export async function writeSettingVersion(
  tx: StoreTransaction,
  record: MemoryRecord,
  embedding: Float32Array,
  now: number,
): Promise<string[]> {
  const category = record.data.category as string;
  const previous = (await currentSettings(tx, [record.scope], category, now)).filter((r) => r.id !== record.id);
  await tx.insertMemories([{ record, embedding }]);
  const change = (record.data as { change?: SettingChange }).change;
  const edges: Edge[] = [];
  for (const old of previous) {
    await tx.updateMemory(old.id, old.scope, {
      status: 'superseded',
      validTo: Math.max(old.validFrom, now),
      invalidatedAt: now,
      data: { ...old.data, supersededBy: record.id },
      updatedAt: now,
    });
    edges.push({
      id: newId(now),
      scope: record.scope,
      fromId: record.id,
      type: 'SUPERSEDES',
      toId: old.id,
      weight: 1,
      validFrom: now,
      validTo: null,
      recordedAt: now,
      invalidatedAt: null,
      metadata: { reason: change?.reason ?? 'new version', by: change?.by ?? 'user' },
    });
  }
  if (edges.length > 0) await tx.insertEdges(edges);
  return previous.map((r) => r.id);
}
