/**
 * Expiry, seed 001's `memory_expire`: decayed records past their grace period (and records the
 * decay phase already marked `expired`) are removed for good through the purge path — their content,
 * history, edges, concept refs, index entries and their chunks — while a
 * tombstone stays: the id, scope, layer and times, status `expired`, `expiredAt`, and no content. An
 * audit entry records who expired how many, never what. `dryRun` only says what would go.
 */
import { z } from 'zod';
import type { MemoryRecord } from '../memory.js';
import type { AuditEntry, MemoryPatch, Store, StoreReader, StoreTransaction } from '../ports/store.js';
import { parseInput, scopeSchema } from '../schemas.js';
import type { Scope } from '../scope.js';
import { newId } from '../write/new-record.js';
import { planPurge } from './plan-purge.js';
import { scrubPurgedState } from './purge-state.js';
import { cutText } from '../text/cut-text.js';

export const expireInputSchema = z
  .object({
    scope: scopeSchema,
    /** Only report what would be expired (the default of the CLI and MCP tool). */
    dryRun: z.boolean().optional(),
  })
  .strict();
export type ExpireInput = z.input<typeof expireInputSchema>;

/** What an expiry removed (or, in a dry run, would remove). */
export interface ExpireReport {
  scope: Scope;
  dryRun: boolean;
  /** Records turned into tombstones (or due to be). */
  expired: number;
  /** Their ids, at most `MAX_LISTED_IDS`. */
  ids: string[];
  removed: {
    /** Chunks of the expired records, deleted outright (knowledge derived from them stays). */
    derived: number;
    edges: number;
    refs: number;
    /** Past wordings dropped with the content. */
    history: number;
    /** Lexical and vector index entries. */
    indexEntries: number;
  };
  /** Audit entries written (one per committed batch); empty for a dry run or when nothing was due. */
  auditIds: string[];
}

export const MAX_LISTED_IDS = 200;
const BATCH = 200;
const PAGE = 1000;

export interface ExpireOptions {
  now: number;
  actor: string;
  /** The decay policy's answer: has this decayed record passed its grace period at `now`? */
  pastGrace: (record: MemoryRecord, now: number) => boolean;
}

/** Is `record` a tombstone (expired for good, no content)? */
export function isTombstone(record: Pick<MemoryRecord, 'status' | 'data'>): boolean {
  return record.status === 'expired' && (record.data as { tombstone?: unknown } | undefined)?.tombstone === true;
}

/** Runs an expiry of one scope on `store`. */
export async function expireRecords(store: Store, input: ExpireInput, options: ExpireOptions): Promise<ExpireReport> {
  const parsed = parseInput(expireInputSchema, input, 'expire');
  const { scope } = parsed;
  const dryRun = parsed.dryRun === true;
  const due = await dueIds(store, scope, options);
  const report: ExpireReport = {
    scope,
    dryRun,
    expired: 0,
    ids: [],
    removed: { derived: 0, edges: 0, refs: 0, history: 0, indexEntries: 0 },
    auditIds: [],
  };
  for (let start = 0; start < due.length; start += BATCH) {
    const batch = due.slice(start, start + BATCH);
    // `tx` is null in a dry run: the same reads, no writes
    const run = async (reader: StoreReader, tx: StoreTransaction | null): Promise<void> => {
      // judged again inside the transaction: a record read or restored since the scan stays
      const targets = (await reader.getMemories(batch, [scope])).filter((r) => isDue(r, options));
      if (targets.length === 0) return;
      const plan = await planPurge(reader, scope, targets, { wholeScope: false });
      const targetIds = new Set(targets.map((r) => r.id));
      // a document's chunks go with it; knowledge derived from it (statistics, reflections, concepts) stays, pointing at the tombstone
      const derived = plan.removed.filter(
        (r) => !targetIds.has(r.id) && typeof r.data.parentId === 'string' && targetIds.has(r.data.parentId),
      );
      report.expired += targets.length;
      for (const r of targets) if (report.ids.length < MAX_LISTED_IDS) report.ids.push(r.id);
      report.removed.derived += derived.length;
      report.removed.history += plan.removed.reduce((n, r) => n + (Array.isArray(r.data.history) ? r.data.history.length : 0), 0);
      if (tx === null) {
        const edges = await reader.getEdges({ scopes: [scope], ids: plan.removed.map((r) => r.id) });
        const refs = await reader.findConceptsByRef({ scopes: [scope], refIds: plan.removed.map((r) => r.id) });
        report.removed.edges += edges.length;
        report.removed.refs += refs.length;
        return;
      }
      const gone =
        derived.length > 0
          ? await tx.deleteMemories(
              derived.map((r) => r.id),
              scope,
            )
          : { records: 0, edges: 0, refs: 0, indexEntries: 0 };
      // a copy of an expired record's text kept in the scope's state (an open question, a caution) goes with it
      await scrubPurgedState(tx, scope, plan.removed, { now: options.now, wholeScope: false });
      const made = await tx.tombstoneMemories(
        targets.map((r) => ({ id: r.id, patch: tombstonePatch(r, options.now) })),
        scope,
      );
      report.removed.edges += gone.edges + made.edges;
      report.removed.refs += gone.refs + made.refs;
      report.removed.indexEntries += gone.indexEntries + made.indexEntries;
      const entry: AuditEntry = {
        id: newId(options.now),
        at: options.now,
        actor: cutText(options.actor, 200),
        action: 'expire',
        scope,
        count: targets.length,
        details: { selector: 'past-grace', derived: derived.length, edges: gone.edges + made.edges, refs: gone.refs + made.refs },
      };
      await tx.appendAudit(entry);
      report.auditIds.push(entry.id);
    };
    if (dryRun) await run(store, null);
    else await store.transaction((tx) => run(tx, tx));
  }
  return report;
}

/** What a record keeps as a tombstone: no text, labels, mood or sources; status `expired` and when. */
export function tombstonePatch(record: MemoryRecord, now: number): MemoryPatch {
  const decayedAt = record.data.decayedAt;
  return {
    content: '',
    summary: null,
    tags: [],
    entities: [],
    emotion: null,
    status: 'expired',
    provenance: { kind: record.provenance.kind, sources: [], derivedFrom: [] },
    data: { tombstone: true, expiredAt: now, ...(typeof decayedAt === 'number' ? { decayedAt } : {}) },
    updatedAt: now,
  };
}

function isDue(record: MemoryRecord, options: ExpireOptions): boolean {
  // expired by the decay phase (not by compression, whose summary stands for the original)
  if (record.status === 'expired')
    return !isTombstone(record) && typeof record.data.expiredAt === 'number' && record.data.compressedInto === undefined;
  return record.status === 'decayed' && options.pastGrace(record, options.now);
}

/** The ids due in `scope`, in id order. */
async function dueIds(reader: StoreReader, scope: Scope, options: ExpireOptions): Promise<string[]> {
  const ids: string[] = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await reader.listMemories({
      scopes: [scope],
      statuses: ['decayed', 'expired'],
      ...(afterId !== undefined ? { afterId } : {}),
      limit: PAGE,
    });
    for (const record of page) if (isDue(record, options)) ids.push(record.id);
    if (page.length < PAGE) return ids;
    afterId = (page[page.length - 1] as MemoryRecord).id;
  }
}
