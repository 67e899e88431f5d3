/**
 * The Engram engine: the one core every interface is a thin shell over (DESIGN §1).
 */
import { EngramError, messages } from './errors.js';
import type { Edge, MemoryRecord, TimeFilter } from './memory.js';
import { isVisible } from './memory.js';
import { toEdgeView, toMemoryView, type EdgeView, type MemoryView } from './memory-view.js';
import type { Clock } from './ports/clock.js';
import { systemClock } from './ports/clock.js';
import type { Embedder } from './ports/embedder.js';
import type { Store, StoreStats } from './ports/store.js';
import { recall as runRecall, type RecallResult } from './recall/recall.js';
import { DEFAULT_RECALL_CONFIG, type RecallConfig } from './recall/recall-config.js';
import { assertReadScopes, assertScope, type Scope } from './scope.js';
import {
  parseInput,
  recallOptionsSchema,
  recallQuerySchema,
  rememberInputSchema,
  updateInputSchema,
  type RecallOptions,
  type RememberInput,
  type UpdateInput,
} from './schemas.js';
import { rememberAll, type RememberResult } from './write/remember.js';
import { normalise } from './write/resolve-claim.js';

export interface EngramOptions {
  store: Store;
  embedder: Embedder;
  clock?: Clock;
  recall?: Partial<RecallConfig>;
}

/** Options for reads by id. */
export interface ScopedReadOptions {
  scopes: readonly Scope[] | Scope;
}

/** Options for writes by id: the one scope the record lives in. */
export interface ScopedWriteOptions {
  scope: Scope;
}

/**
 * Long-term memory for agents: remember, recall, get, update, forget, restore.
 *
 * @example
 * ```ts
 * const engram = await Engram.open({ path: 'engram.db' });
 * await engram.remember({ scope: 'acme/users/alice', content: 'Alice prefers window seats.', layer: 'semantic' });
 * const { hits } = await engram.recall('where does Alice like to sit?', { scopes: ['acme/users/alice'] });
 * ```
 */
export class EngramCore {
  readonly store: Store;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly recallConfig: RecallConfig;
  #closed = false;

  constructor(options: EngramOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.clock = options.clock ?? systemClock;
    this.recallConfig = Object.freeze({ ...DEFAULT_RECALL_CONFIG, ...options.recall });
  }

  /**
   * Stores one memory or a batch atomically. Every input is validated before anything is written;
   * one invalid input rejects the whole call with `INVALID_INPUT` and writes nothing.
   */
  async remember(input: RememberInput): Promise<RememberResult>;
  async remember(inputs: readonly RememberInput[]): Promise<RememberResult[]>;
  async remember(input: RememberInput | readonly RememberInput[]): Promise<RememberResult | RememberResult[]> {
    this.#assertOpen();
    const list = Array.isArray(input) ? (input as readonly RememberInput[]) : [input as RememberInput];
    const parsed = list.map((item, index) => parseInput(rememberInputSchema, item, list.length > 1 ? `memory #${index + 1}` : 'memory'));
    const results = await rememberAll(this.#deps(), parsed);
    return Array.isArray(input) ? results : (results[0] as RememberResult);
  }

  /** Finds the memories most relevant to `query` within `options.scopes`; each hit says why. */
  async recall(query: string, options: RecallOptions): Promise<RecallResult> {
    this.#assertOpen();
    assertReadScopes((options as { scopes?: unknown } | undefined | null)?.scopes);
    const text = parseInput(recallQuerySchema, query, 'query');
    const parsed = parseInput(recallOptionsSchema, options, 'recall options');
    return runRecall(this.#deps(), text, parsed);
  }

  /** One memory by id, if it lives in one of `scopes` (any status). */
  async get(id: string, options: ScopedReadOptions): Promise<MemoryView> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const [record] = await this.store.getMemories([String(id)], scopes);
    if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
    return toMemoryView(record);
  }

  /** Changes fields of a memory in place; a content change re-embeds it. */
  async update(id: string, patch: UpdateInput, options: ScopedWriteOptions): Promise<MemoryView> {
    this.#assertOpen();
    const scope = assertScope(options?.scope);
    const changes = parseInput(updateInputSchema, patch, 'update');
    const embedding = changes.content !== undefined ? (await this.embedder.embed([changes.content]))[0] : undefined;
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([id], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id } });
      const { content, ...rest } = changes;
      const data = content !== undefined && content !== record.content
        ? { ...record.data, history: [...(record.data.history ?? []), { content: record.content, at: record.updatedAt }] }
        : record.data;
      await tx.updateMemory(id, scope, {
        ...rest,
        ...(content !== undefined ? { content } : {}),
        data,
        updatedAt: now,
      });
      if (embedding !== undefined) await tx.updateEmbedding(id, scope, embedding);
      const [updated] = await tx.getMemories([id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
  }

  /** Soft-deletes a memory (status `deleted`); `restore` brings it back. */
  async forget(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    return this.#setStatus(id, options, 'deleted');
  }

  /** Restores a forgotten or decayed memory to `active`; counts as an access (DESIGN §11.10). */
  async restore(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    return this.#setStatus(id, options, 'active');
  }

  /**
   * Undoes a wrong supersession: the claim is current again, the SUPERSEDES edge is closed, and an
   * exemption is recorded so the same correction does not supersede it again (DESIGN §11.10).
   */
  async unsupersede(id: string, options: ScopedWriteOptions): Promise<MemoryView> {
    this.#assertOpen();
    const scope = assertScope(options?.scope);
    const now = this.clock.now();
    return this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([String(id)], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
      if (record.status !== 'superseded') {
        throw new EngramError('CONFLICT', `Memory ${record.id} is ${record.status}, not superseded: there is nothing to undo.`, { details: { id } });
      }
      const edges = (await tx.getEdges({ scopes: [scope], ids: [record.id], types: ['SUPERSEDES'] })).filter(
        (e) => e.toId === record.id && e.invalidatedAt === null,
      );
      const superseders = await tx.getMemories(edges.map((e) => e.fromId), [scope]);
      const undone = superseders.map((s) => ({
        wording: normalise(s.content),
        ...(s.data.claim !== undefined ? { subject: s.data.claim.subject, attribute: s.data.claim.attribute, value: s.data.claim.value } : {}),
        at: now,
      }));
      const { supersededBy: _by, ...data } = record.data;
      await tx.updateMemory(record.id, scope, {
        status: 'active',
        validTo: null,
        invalidatedAt: null,
        data: { ...data, exempt: { ...data.exempt, supersededBy: [...(data.exempt?.supersededBy ?? []), ...undone] } },
        updatedAt: now,
      });
      await tx.invalidateEdges(edges.map((e) => e.id), scope, now);
      const [updated] = await tx.getMemories([record.id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
  }

  /**
   * The chain of versions of a claim, oldest first: every record linked to `id` through SUPERSEDES
   * edges (both directions, transitively), each with the edges that connect it.
   */
  async history(id: string, options: ScopedReadOptions): Promise<{ versions: MemoryView[]; edges: EdgeView[] }> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const [start] = await this.store.getMemories([String(id)], scopes);
    if (start === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
    const seen = new Map<string, MemoryRecord>([[start.id, start]]);
    const edges = new Map<string, Edge>();
    let frontier = [start.id];
    while (frontier.length > 0 && seen.size < 1000) {
      const found = await this.store.getEdges({ scopes, ids: frontier, types: ['SUPERSEDES'] });
      const next: string[] = [];
      for (const edge of found) {
        edges.set(edge.id, edge);
        for (const end of [edge.fromId, edge.toId]) if (!seen.has(end) && !next.includes(end)) next.push(end);
      }
      for (const record of await this.store.getMemories(next, scopes)) seen.set(record.id, record);
      frontier = next.filter((n) => seen.has(n));
    }
    const versions = [...seen.values()].sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : 1));
    return { versions: versions.map(toMemoryView), edges: [...edges.values()].map(toEdgeView) };
  }

  /** Counts by layer and status within the given scopes. */
  async stats(options: ScopedReadOptions): Promise<StoreStats & { scopes: readonly Scope[]; embedder: string }> {
    this.#assertOpen();
    const scopes = assertReadScopes(options?.scopes);
    const stats = await this.store.stats(scopes);
    return { scopes, embedder: this.embedder.name, ...stats };
  }

  /** Is the record visible to a current read now? */
  isCurrent(record: MemoryRecord, filter: TimeFilter = {}): boolean {
    return isVisible(record, filter, this.clock.now());
  }

  /** Flushes pending work and closes the store and the embedder. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.store.close();
    await this.embedder.close?.();
  }

  async #setStatus(id: string, options: ScopedWriteOptions, status: 'deleted' | 'active'): Promise<MemoryView> {
    this.#assertOpen();
    const scope = assertScope(options?.scope);
    const now = this.clock.now();
    const view = await this.store.transaction(async (tx) => {
      const [record] = await tx.getMemories([String(id)], [scope]);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(String(id)), { details: { id } });
      if (status === 'active' && record.status === 'superseded') {
        throw new EngramError('CONFLICT', `Memory ${id} was superseded, not forgotten: use unsupersede to reinstate it.`, { details: { id } });
      }
      const exempt = status === 'active' && record.status === 'decayed' ? { ...record.data.exempt, decay: true } : record.data.exempt;
      await tx.updateMemory(record.id, scope, {
        status,
        updatedAt: now,
        ...(exempt !== undefined ? { data: { ...record.data, exempt } } : {}),
      });
      const [updated] = await tx.getMemories([record.id], [scope]);
      return toMemoryView(updated as MemoryRecord);
    });
    if (status === 'active') await this.store.recordAccess([view.id], now);
    return view;
  }

  #deps() {
    return { store: this.store, embedder: this.embedder, clock: this.clock, config: this.recallConfig };
  }

  #assertOpen(): void {
    if (this.#closed) throw new EngramError('STORAGE_UNAVAILABLE', 'This Engram instance is closed: open a new one with Engram.open().');
  }
}
