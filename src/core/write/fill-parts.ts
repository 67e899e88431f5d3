/**
 * Making part vectors off the write path. Every record written (or edited) waits in the store's pending
 * list; `fillPartVectors` takes a batch, embeds the sentences of those that say several things
 * (`embeddingParts`), stores them and answers the others with none. `remember` stays as fast as
 * before: the background worker and `processJobs` call this when no other work waits, and until a
 * record's parts are made, recall ranks it by its whole vector alone.
 */
import type { MemoryData } from '../memory.js';
import type { Embedder } from '../ports/embedder.js';
import type { Stopwatch } from '../ports/stopwatch.js';
import type { PartsCandidate, Store } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { EngramError } from '../errors.js';
import { isChunk, isChunkParent, isConcept } from '../record-kinds.js';
import { embeddingParts } from './embedding-parts.js';

/** Records read, embedded and answered per transaction. */
export const PART_BATCH = 64;

export interface FillPartsDeps {
  store: Store;
  embedder: Embedder;
  stopwatch: Stopwatch;
}

export interface FillPartsOptions {
  /** Only these scopes' records (default: every scope of the store). */
  scopes?: readonly Scope[] | 'all';
  /** Stop after answering this many records (default: until none is pending). */
  limit?: number;
  /** Start no new batch after this long (default: no limit). */
  maxMs?: number;
  /** Records per batch (default {@link PART_BATCH}). */
  batch?: number;
}

/** What a fill did: how many pending records were answered (with part vectors or with none). */
export interface FillPartsReport {
  records: number;
}

/**
 * The texts of a pending record's part vectors: none for a chunk, a chunked document's parent (its
 * chunks are what recall returns), a concept, or a record of one sentence.
 */
export function partTextsOf(candidate: PartsCandidate): string[] {
  const data = candidate.data as MemoryData;
  if (isChunk({ data }) || isChunkParent({ data }) || isConcept({ layer: candidate.layer, data })) return [];
  try {
    return embeddingParts({ layer: candidate.layer, content: candidate.content, data });
  } catch {
    // an odd data document (a damaged or foreign record): its content alone
    return embeddingParts({ layer: candidate.layer, content: candidate.content, data: {} });
  }
}

/**
 * Makes the part vectors of pending records, batch by batch, until none is pending (or `limit` /
 * `maxMs`). A batch whose records were all edited meanwhile ends the run (they are read again next time).
 *
 * @example
 * ```ts
 * const report = await fillPartVectors({ store, embedder, stopwatch }, { maxMs: 1000 });
 * ```
 */
export async function fillPartVectors(deps: FillPartsDeps, options: FillPartsOptions = {}): Promise<FillPartsReport> {
  const report: FillPartsReport = { records: 0 };
  const started = deps.stopwatch.now();
  const batch = Math.max(1, Math.floor(options.batch ?? PART_BATCH));
  const limit = options.limit ?? Infinity;
  while (report.records < limit && (options.maxMs === undefined || deps.stopwatch.now() - started < options.maxMs)) {
    const pending = await deps.store.pendingParts({ scopes: options.scopes ?? 'all', limit: Math.min(batch, limit - report.records) });
    if (pending.length === 0) break;
    const texts = pending.map(partTextsOf);
    const flat = texts.flat();
    const vectors = flat.length > 0 ? await deps.embedder.embed(flat) : [];
    if (vectors.length !== flat.length) {
      throw new EngramError(
        'EMBEDDING_FAILED',
        `The embedder ${deps.embedder.name} returned ${vectors.length} vectors for ${flat.length} texts.`,
      );
    }
    let cursor = 0;
    const entries = pending.map((candidate, i) => {
      const parts = vectors.slice(cursor, cursor + (texts[i] as string[]).length);
      cursor += parts.length;
      return { id: candidate.id, scope: candidate.scope, content: candidate.content, parts };
    });
    const answered = await deps.store.transaction((tx) => tx.setPartVectors(entries));
    report.records += answered;
    if (answered === 0) break;
  }
  return report;
}
