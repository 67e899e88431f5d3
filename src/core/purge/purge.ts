/**
 * Purge, the only hard delete: removes records and what was derived from them alone
 * from every table and index, reinstates predecessors they superseded, and leaves an audit entry of
 * who, when and how many — never any content. Forget stays the soft delete.
 */
import { EngramError } from '../errors.js';
import type { MemoryRecord } from '../memory.js';
import type { AuditEntry, Store } from '../ports/store.js';
import { browseFilterOf, allMatching } from '../browse/list.js';
import { parseInput } from '../schemas.js';
import { newId } from '../write/new-record.js';
import { purgeInputSchema, type PurgeInput } from '../browse/schemas.js';
import { planPurge } from './plan-purge.js';
import { scrubPurgedState } from './purge-state.js';
import { dropKeptPart, unsupersededPatch } from '../write/resolve-claim.js';
import { isChunk, isStatistic } from '../record-kinds.js';
import { cutText } from '../text/cut-text.js';

/** What a purge removed. */
export interface PurgeReport {
  /** Records selected by ids, filter or scope (the ones found in the scope). */
  purged: number;
  removed: {
    /** Records deleted that are neither chunks nor statistics (the selected ones, orphaned concepts, reflections). */
    records: number;
    chunks: number;
    edges: number;
    refs: number;
    statistics: number;
    /** Past wordings kept in the removed records' history. */
    history: number;
    /** Lexical and vector index entries. */
    indexEntries: number;
    /**
     * State documents of the scope that held a copy of removed text (an open question, a caution, the
     * mood), deleted or without the items that did.
     */
    states: number;
  };
  /** Predecessors that are current again because what superseded them was purged. */
  restored: string[];
  auditId: string;
}

export const CONFIRM_MESSAGE =
  'Purge deletes for good and cannot be undone (forget is the soft delete): pass confirm: true (CLI: --yes) to go ahead. Nothing was removed.';

/** Runs a purge on `store` at `now`, audited as done by `actor`. */
export async function purgeRecords(store: Store, input: PurgeInput, options: { now: number; actor: string }): Promise<PurgeReport> {
  if ((input as { confirm?: unknown } | null | undefined)?.confirm !== true) {
    throw new EngramError('INVALID_INPUT', CONFIRM_MESSAGE, { details: { field: 'confirm' } });
  }
  const parsed = parseInput(purgeInputSchema, input, 'purge');
  const { scope, now } = { scope: parsed.scope, now: options.now };
  return store.transaction(async (tx) => {
    const wholeScope = parsed.ids === undefined && parsed.filter === undefined;
    const targets: MemoryRecord[] =
      parsed.ids !== undefined
        ? await tx.getMemories(parsed.ids, [scope])
        : await allMatching(tx, scope, browseFilterOf(parsed.filter ?? {}));
    const plan = await planPurge(tx, scope, targets, { wholeScope });
    const deleted =
      plan.removed.length > 0
        ? await tx.deleteMemories(
            plan.removed.map((r) => r.id),
            scope,
          )
        : { records: 0, edges: 0, refs: 0, indexEntries: 0 };
    const states = await scrubPurgedState(tx, scope, plan.removed, { now, wholeScope });
    for (const record of plan.restore) {
      await tx.updateMemory(record.id, scope, { status: 'active', ...unsupersededPatch(record), invalidatedAt: null, updatedAt: now });
      await dropKeptPart(tx, record);
    }
    const chunks = plan.removed.filter(isChunk).length;
    const statistics = plan.removed.filter((r) => !isChunk(r) && isStatistic(r)).length;
    const report: Omit<PurgeReport, 'auditId'> = {
      purged: targets.length,
      removed: {
        records: deleted.records - chunks - statistics,
        chunks,
        edges: deleted.edges,
        refs: deleted.refs,
        statistics,
        history: plan.removed.reduce((n, r) => n + (Array.isArray(r.data.history) ? r.data.history.length : 0), 0),
        indexEntries: deleted.indexEntries,
        states,
      },
      restored: plan.restore.map((r) => r.id),
    };
    const entry: AuditEntry = {
      id: newId(now),
      at: now,
      actor: cutText(options.actor, 200),
      action: 'purge',
      scope,
      count: report.purged,
      // the selector's kind and filter field names only: a filter's values may quote the purged text
      details: {
        selector: parsed.ids !== undefined ? 'ids' : wholeScope ? 'scope' : 'filter',
        ...(parsed.filter !== undefined ? { filterFields: Object.keys(parsed.filter).sort() } : {}),
        removed: report.removed,
        restored: report.restored.length,
      },
    };
    await tx.appendAudit(entry);
    return { ...report, auditId: entry.id };
  });
}
