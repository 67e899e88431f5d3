/**
 * What every phase receives: ports, configuration, the scope and instant of the run, and `batch`,
 * which commits one unit of work together with the phase checkpoint, so a cycle killed mid-phase
 * resumes after its last committed batch with nothing duplicated.
 */
import type { Edge, MemoryData, MemoryRecord, Provenance } from '../core/memory.js';
import type { Clock } from '../core/ports/clock.js';
import type { Embedder } from '../core/ports/embedder.js';
import type { LeaseHeartbeat } from '../core/ports/lease-heartbeat.js';
import type { Llm } from '../core/ports/llm.js';
import type { Store, StoreReader, StoreTransaction } from '../core/ports/store.js';
import type { SystemPorts } from '../core/ports/system.js';
import type { Scope } from '../core/scope.js';
import { IDENTITY_KEY_PREFIX } from '../core/identity-keys.js';
import { newId, newRecord } from '../core/record-factory.js';
import type { ConsolidationConfig, PhaseName } from './config.js';
import type { ConsolidationTrigger, PhaseCounters } from './report.js';

/** Catch-up of the concept-extraction queue for one scope (provided by the layers module). */
export type ConceptExtractionRunner = (input: {
  scope: Scope;
  limit: number;
}) => Promise<{ examined: number; created: number; updated: number; note?: string }>;

/** Test and tooling hooks; never needed in production. */
export interface ConsolidationHooks {
  /** Called after each committed batch of a phase (a test may kill the process here). */
  afterBatch?(phase: PhaseName, batch: number): void | Promise<void>;
}

export type { LeaseHeartbeat };

/** What a cycle runs on; the system ports give its lease owner, pacing and report times. */
export interface ConsolidationDeps extends SystemPorts {
  store: Store;
  embedder: Embedder;
  /** Domain time: the run's instant, decay, recency. */
  clock: Clock;
  config: ConsolidationConfig;
  llm?: Llm | null;
  /**
   * Writes insights with the LLM (the engine passes its `assist.reflect`); null or a rejection falls
   * back to the extractive path for that cluster.
   */
  reflect?: (input: {
    scope: Scope;
    level: 1 | 2 | 3;
    records: readonly { id: string; content: string; importance: number | null }[];
    maxInsights?: number;
  }) => Promise<readonly { content: string; derivedFrom: string[] }[] | null>;
  extractConcepts?: ConceptExtractionRunner;
  hooks?: ConsolidationHooks;
  /** Renews the cycle's lease while it runs; without it the lease is renewed after each batch only. */
  heartbeat?: LeaseHeartbeat;
}

export interface PhaseContext {
  deps: ConsolidationDeps;
  scope: Scope;
  /** The run's instant (injected clock). */
  now: number;
  trigger: ConsolidationTrigger;
  sessionId?: string;
  /** Was this phase named explicitly (on demand)? */
  explicit: boolean;
  /** When the last completed cycle of this scope ran (0 if never). */
  lastRunAt: number;
  counters: PhaseCounters;
  /** The phase's resume cursor (undefined on a fresh start). */
  cursor: unknown;
  /** Scratch space shared by the phases of one run (e.g. claim decisions computed once for dedup and supersede). */
  shared: Map<string, unknown>;
  /** Commits `work` and the new cursor atomically, renews the lock and calls the hook. */
  batch(work: (tx: StoreTransaction) => Promise<void>, cursor: unknown): Promise<void>;
}

const KEY_PREFIX = IDENTITY_KEY_PREFIX;

/** The record id stored under a consolidation identity key (idempotent creation), or null. */
export async function lookupKey(reader: StoreReader, scope: Scope, key: string): Promise<string | null> {
  const entry = await reader.getState(scope, stateKey(key));
  const id = (entry?.value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

/** Records `id` under an identity key, in the same transaction that creates it. */
export async function storeKey(tx: StoreTransaction, scope: Scope, key: string, id: string, at: number): Promise<void> {
  await tx.setState(scope, stateKey(key), { id }, at);
}

/** Keys longer than the store allows are shortened to a prefix plus a digest of the whole key. */
function stateKey(key: string): string {
  if (key.length <= 300) return KEY_PREFIX + key;
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < key.length; i += 1) {
    a = Math.imul(a ^ key.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ key.charCodeAt(i), 0x5bd1e995);
  }
  return `${KEY_PREFIX}${key.slice(0, 200)}#${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}:${key.length}`;
}

/** Iterates a scope's records in id order, page by page, starting after `afterId`. */
export async function* scanRecords(
  reader: StoreReader,
  query: { scope: Scope; layers?: MemoryRecord['layer'][]; statuses?: MemoryRecord['status'][]; afterId?: string; pageSize: number },
): AsyncGenerator<MemoryRecord[]> {
  let afterId = query.afterId;
  for (;;) {
    const page = await reader.listMemories({
      scopes: [query.scope],
      ...(query.layers !== undefined ? { layers: query.layers } : {}),
      ...(query.statuses !== undefined ? { statuses: query.statuses } : {}),
      ...(afterId !== undefined ? { afterId } : {}),
      limit: query.pageSize,
    });
    if (page.length === 0) return;
    yield page;
    afterId = (page[page.length - 1] as MemoryRecord).id;
    if (page.length < query.pageSize) return;
  }
}

/** A new record derived by consolidation (statistical record, promoted concept, reflection, compressed episode). */
export function derivedRecord(input: {
  scope: Scope;
  layer: MemoryRecord['layer'];
  content: string;
  now: number;
  importance: number;
  confidence?: number;
  provenance: Provenance;
  data: MemoryData;
  summary?: string | null;
  occurredAt?: number | null;
  validFrom?: number;
  tags?: string[];
}): MemoryRecord {
  return newRecord({
    now: input.now,
    scope: input.scope,
    layer: input.layer,
    content: input.content,
    summary: input.summary,
    tags: input.tags,
    importance: input.importance,
    salience: input.importance,
    confidence: input.confidence,
    provenance: input.provenance,
    validFrom: input.validFrom,
    occurredAt: input.occurredAt,
    data: input.data,
  });
}

/** A new edge id at `now`. */
export function edgeId(now: number): string {
  return newId(now);
}

/** DERIVED_FROM edges from `id` to each present piece of `evidence` not linked yet (idempotent). */
export async function linkDerivedFrom(
  ctx: Pick<PhaseContext, 'scope' | 'now'>,
  tx: StoreTransaction,
  id: string,
  evidence: readonly string[],
  metadata: Record<string, unknown>,
): Promise<number> {
  const linked = new Set(
    (await tx.getEdges({ scopes: [ctx.scope], ids: [id], types: ['DERIVED_FROM'] }))
      .filter((e) => e.invalidatedAt === null && e.fromId === id)
      .map((e) => e.toId),
  );
  const present = new Set((await tx.getMemories(evidence, [ctx.scope])).map((r) => r.id));
  const edges: Edge[] = [...new Set(evidence)]
    .filter((e) => e !== id && present.has(e) && !linked.has(e))
    .map((e) => ({
      id: edgeId(ctx.now),
      scope: ctx.scope,
      fromId: id,
      type: 'DERIVED_FROM',
      toId: e,
      weight: 1,
      validFrom: ctx.now,
      validTo: null,
      recordedAt: ctx.now,
      invalidatedAt: null,
      metadata,
    }));
  if (edges.length > 0) await tx.insertEdges(edges);
  return edges.length;
}
