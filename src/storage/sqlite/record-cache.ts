/**
 * Decoded memory records of a file store's read connection, kept for as long as nothing has been
 * committed to the database since they were read.
 *
 * A recall reads the same records again and again (the candidates of one question, the neighbours of
 * the next): in a 600-turn LoCoMo scope, reading and decoding rows was half of a recall's engine time.
 * SQLite's `PRAGMA data_version` tells a connection whether any other connection (this process's
 * writer, or another process) has committed since it last looked; read inside a snapshot it is the
 * snapshot's own version. So `sync` at the start of a snapshot drops every record the moment the
 * database changed, and a record handed out is always the row as that snapshot sees it.
 *
 * Only for a read connection that never writes: a connection's own commits do not change its
 * `data_version`. Records handed out are shared, so they are frozen (with their nested values): a caller
 * that changes one gets a TypeError instead of corrupting the next reader's copy.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { SqliteConnection } from './sqlite-connection.js';

export interface RecordCacheLimits {
  /** Records kept at most (oldest first out). */
  readonly records: number;
  /** Content characters kept at most, summed over the records. */
  readonly chars: number;
}

const DEFAULT_LIMITS: RecordCacheLimits = { records: 20_000, chars: 16 * 2 ** 20 };

export class RecordCache {
  readonly #limits: RecordCacheLimits;
  readonly #records = new Map<string, MemoryRecord>();
  #chars = 0;
  #version: number | undefined;
  #hits = 0;
  #misses = 0;

  constructor(limits: Partial<RecordCacheLimits> = {}) {
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Call inside the snapshot, before reading: forgets everything when the database changed since. */
  sync(connection: SqliteConnection): void {
    const version = connection.get<{ data_version: number }>('PRAGMA data_version')?.data_version;
    if (version === this.#version) return;
    this.clear();
    this.#version = version;
  }

  /** The record of `id` if it is held (the caller checks its scope). */
  get(id: string): MemoryRecord | undefined {
    const record = this.#records.get(id);
    if (record === undefined) this.#misses += 1;
    else this.#hits += 1;
    return record;
  }

  /** Keeps `record` (read in the snapshot `sync` was last called in) and returns it frozen. */
  keep(record: MemoryRecord): MemoryRecord {
    const frozen = deepFreeze(record);
    const chars = record.content.length;
    if (chars > this.#limits.chars) return frozen;
    const previous = this.#records.get(record.id);
    if (previous !== undefined) {
      this.#records.delete(record.id);
      this.#chars -= previous.content.length;
    }
    this.#records.set(record.id, frozen);
    this.#chars += chars;
    while (this.#records.size > this.#limits.records || this.#chars > this.#limits.chars) {
      const [oldest, held] = this.#records.entries().next().value as [string, MemoryRecord];
      this.#records.delete(oldest);
      this.#chars -= held.content.length;
    }
    return frozen;
  }

  clear(): void {
    this.#records.clear();
    this.#chars = 0;
  }

  /** For tests and diagnostics: records held, and lookups answered and not since the cache was made. */
  get usage(): { records: number; chars: number; hits: number; misses: number } {
    return { records: this.#records.size, chars: this.#chars, hits: this.#hits, misses: this.#misses };
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value as object)) deepFreeze(nested);
  }
  return value;
}
