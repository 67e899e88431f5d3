/**
 * Moving a store to another embedding model in place: under the store's `reembed` lease,
 * every record of every scope is embedded with the target model in batches into the store's staging
 * area, while the current vectors keep serving recall; then one atomic switch makes the staged vectors
 * the store's, records the target model and drops the old vectors. A run that dies leaves the store on
 * its old model with the staging kept, and the next run with the same target continues from it.
 *
 * Writes made meanwhile (by any process) are embedded with the current model by their writer; the run
 * catches them up with the target model, the last few inside the switch's write transaction, where no
 * writer can interleave, so no record is switched without a vector of the target model.
 */
import { EngramError } from '../errors.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store } from '../ports/store.js';
import type { EmbeddingIdentity, StagingCandidate } from '../ports/vector-staging.js';
import type { LeaseHeartbeat } from '../ports/lease-heartbeat.js';
import { renewLease } from '../lease-renewal.js';
import { reembedText } from './reembed-text.js';

/** The lease a reembed holds; consolidation cycles refuse to start while it runs, and the other way round. */
export const REEMBED_LOCK = 'reembed';
/** Lease names of consolidation cycles (`consolidate:<scope>`). */
export const CONSOLIDATION_LOCK_PREFIX = 'consolidate:';
const DEFAULT_LOCK_TTL_MS = 60_000;
/** After a full pass, at most this many records left (written meanwhile) are embedded inside the switch. */
const SWITCH_BACKLOG = 256;
const MAX_PASSES = 5;

/** Where a run is: `embedding` batches (done / total records), the `switching` transaction, the `indexing` after it. */
export interface ReembedProgress {
  readonly phase: 'embedding' | 'switching' | 'indexing';
  /** Records with a vector of the target model so far. */
  readonly done: number;
  /** Records in the store. */
  readonly total: number;
}

export interface ReembedDeps {
  store: Store;
  /** The model the store uses now (the engine's embedder). */
  source: EmbeddingIdentity;
  /** The model to move to. */
  target: Embedder;
  /** Who runs it: unique per run, e.g. `reembed:<host>:<pid>:<random>`. */
  owner: string;
  /** Renews the lease while a batch or the switch runs (`Engram.open` passes a timer). */
  heartbeat?: LeaseHeartbeat;
  /** Whether the process holding a lease is known to be gone (killed on this machine), so its lease is taken over at once. */
  holderIsGone?: (owner: string) => boolean;
  /** Runs under the lease right after the switch (reopening the store, building its vector index); resolves with the indexed scopes. */
  afterSwitch?: () => Promise<string[]>;
  lockTtlMs?: number;
}

export interface ReembedRunOptions {
  /** Records embedded per batch (one staging transaction each). */
  batchSize: number;
  onProgress?: (progress: ReembedProgress) => void;
  /** Stops between batches (the staging is kept, so the next run continues); rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What a run did. `records` + `chunks` vectors were switched; `embedded` counts the texts this run embedded. */
export interface ReembedCoreReport {
  from: string;
  to: string;
  dimensions: { from: number; to: number };
  /** False when the store already uses the target model (nothing was done). */
  changed: boolean;
  records: number;
  chunks: number;
  vectors: number;
  embedded: number;
  /** A previous run's staged vectors for the same model were kept. */
  resumed: boolean;
  /** The model of an unfinished move to another one that this run discarded. */
  discarded: string | null;
  /** Scopes whose approximate vector index was rebuilt after the switch. */
  indexed: string[];
}

/** Runs one reembed; throws `LOCKED` while another reembed or a consolidation cycle holds its lease. */
export async function runReembed(deps: ReembedDeps, options: ReembedRunOptions): Promise<ReembedCoreReport> {
  const { store, source, target } = deps;
  const to: EmbeddingIdentity = { name: target.name, dimension: target.dimension };
  const base = { from: source.name, to: to.name, dimensions: { from: source.dimension, to: to.dimension } };
  if (to.name === source.name && to.dimension === source.dimension) {
    return { ...base, changed: false, records: 0, chunks: 0, vectors: 0, embedded: 0, resumed: false, discarded: null, indexed: [] };
  }
  const lease = await takeLease(deps);
  try {
    const cycles = await store.vectorStaging.liveJobLocks(CONSOLIDATION_LOCK_PREFIX);
    if (cycles.length > 0) {
      const scope = (cycles[0] as { name: string }).name.slice(CONSOLIDATION_LOCK_PREFIX.length);
      throw new EngramError('LOCKED', `A consolidation cycle is running for scope "${scope}": run reembed again when it has finished.`, {
        details: { scope },
      });
    }
    const staging = store.vectorStaging;
    const begun = await staging.beginStaging(to);
    const embedded = await stageAll(deps, options, lease);
    lease.check();
    const progress = await staging.stagingProgress();
    options.onProgress?.({ phase: 'switching', done: progress.staged, total: progress.records });
    let completed = 0;
    const switched = await staging.switchToStaged(to, async (records) => {
      completed += records.length;
      return embedTexts(target, records);
    });
    options.onProgress?.({ phase: 'indexing', done: progress.records, total: progress.records });
    const indexed = (await deps.afterSwitch?.()) ?? [];
    return {
      ...base,
      changed: true,
      records: switched.records,
      chunks: switched.chunks,
      vectors: switched.records + switched.chunks,
      embedded: embedded + completed,
      resumed: begun.kept > 0,
      discarded: begun.discarded?.name ?? null,
      indexed,
    };
  } finally {
    await lease.release();
  }
}

/** Embeds every record still without a staged vector, in passes; returns how many texts it embedded. */
async function stageAll(deps: ReembedDeps, options: ReembedRunOptions, lease: Lease): Promise<number> {
  const staging = deps.store.vectorStaging;
  const batchSize = Math.max(1, Math.floor(options.batchSize));
  let { records: total, staged: done } = await staging.stagingProgress();
  options.onProgress?.({ phase: 'embedding', done, total });
  let embedded = 0;
  let cursor: string | null = null;
  for (let passes = 0; ;) {
    options.signal?.throwIfAborted();
    lease.check();
    const page = await staging.unstagedRecords({ cursor, limit: batchSize });
    if (page.records.length === 0) {
      // records skipped (rewritten meanwhile) or written behind the cursor are picked up by another pass
      ({ records: total, staged: done } = await staging.stagingProgress());
      options.onProgress?.({ phase: 'embedding', done, total });
      passes += 1;
      if (total - done <= SWITCH_BACKLOG || passes >= MAX_PASSES) return embedded;
      cursor = null;
      continue;
    }
    const vectors = await embedTexts(deps.target, page.records);
    const stored = await staging.stageVectors(
      page.records.map((record, i) => ({ id: record.id, embedding: vectors[i] as Float32Array })),
      page.mark,
    );
    embedded += page.records.length;
    done = Math.min(total, done + stored);
    cursor = page.cursor;
    await lease.renewAfterBatch();
    options.onProgress?.({ phase: 'embedding', done, total: Math.max(total, done) });
  }
}

async function embedTexts(embedder: Embedder, records: readonly StagingCandidate[]): Promise<Float32Array[]> {
  const vectors = await embedder.embed(records.map(reembedText));
  if (vectors.length !== records.length || vectors.some((v) => v.length !== embedder.dimension)) {
    throw new EngramError(
      'EMBEDDING_FAILED',
      `The embedder ${embedder.name} returned ${vectors.length} vectors for ${records.length} texts, or vectors of another length than ${embedder.dimension}; nothing was switched.`,
    );
  }
  return vectors;
}

interface Lease {
  /** Throws `LOCKED` once the lease was lost (it expired and another run took it). */
  check(): void;
  renewAfterBatch(): Promise<void>;
  release(): Promise<void>;
}

/** Takes the `reembed` lease (from a holder known to be dead, at once) and keeps it renewed. */
async function takeLease(deps: ReembedDeps): Promise<Lease> {
  const { store, owner } = deps;
  const ttl = deps.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
  if (!(await store.acquireJobLock(REEMBED_LOCK, owner, ttl))) {
    const holder = (await store.vectorStaging.liveJobLocks(REEMBED_LOCK)).find((h) => h.name === REEMBED_LOCK);
    const taken =
      holder === undefined
        ? await store.acquireJobLock(REEMBED_LOCK, owner, ttl)
        : deps.holderIsGone?.(holder.owner) === true && (await store.vectorStaging.takeOverJobLock(REEMBED_LOCK, holder.owner, owner, ttl));
    if (!taken) {
      throw new EngramError(
        'LOCKED',
        `Another reembed of this store is running. Wait for it to finish (or, if its process died on another machine, for its lease to expire within ${Math.ceil(ttl / 1000)} s) and run again: it continues from the vectors staged so far.`,
        { details: { holder: holder?.owner ?? null } },
      );
    }
  }
  const lease = renewLease(store, REEMBED_LOCK, owner, ttl, deps.heartbeat);
  return {
    check() {
      if (lease.lost)
        throw new EngramError(
          'LOCKED',
          'The reembed lease was lost (it expired and another run took it): this run stops; the staged vectors are kept.',
        );
    },
    // without a timer, every batch renews; with one, the timer does
    renewAfterBatch: () => (lease.beating ? Promise.resolve() : lease.renew()),
    async release() {
      await lease.stop();
      await store.releaseJobLock(REEMBED_LOCK, owner).catch(() => false);
    },
  };
}
