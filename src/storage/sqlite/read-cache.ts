/**
 * What a file store's read connection has read, kept for as long as nothing has been committed to the
 * database since: decoded memory records by id, and the answers of a few reads that recall repeats
 * (a thread's order, a record's edges, a concept's refs) by key.
 *
 * A recall reads the same rows again and again (the candidates of one question, the neighbours of the
 * next): in a 600-turn LoCoMo scope, reading and decoding rows was half of a recall's engine time, and
 * the neighbourhood and graph reads another third. SQLite's `PRAGMA data_version` tells a connection
 * whether any other connection (this process's writer, or another process) has committed since it last
 * looked; read inside a snapshot it is the snapshot's own version. So `sync` at the start of a snapshot
 * drops everything the moment the database changed, and what the cache hands out is always what that
 * snapshot would read.
 *
 * Only for a read connection that never writes: a connection's own commits do not change its
 * `data_version`. What it hands out is shared, so it is frozen (nested values included): a caller that
 * changes a record gets a TypeError instead of corrupting the next reader's copy.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { SqliteConnection } from './sqlite-connection.js';

export interface ReadCacheLimits {
  /** Records kept at most (oldest first out). */
  readonly records: number;
  /** Content characters kept at most, summed over the records. */
  readonly chars: number;
  /** Remembered read answers at most, each weighing 1 + the length of the list it holds. */
  readonly answers: number;
}

const DEFAULT_LIMITS: ReadCacheLimits = { records: 20_000, chars: 16 * 2 ** 20, answers: 200_000 };

export interface ReadCacheUsage {
  records: number;
  chars: number;
  /** Record lookups answered and not since the store opened. */
  hits: number;
  misses: number;
  /** Read answers held, and lookups of them answered and not. */
  answers: number;
  answerHits: number;
  answerMisses: number;
}

export class ReadCache {
  readonly #limits: ReadCacheLimits;
  readonly #records = new Map<string, MemoryRecord>();
  readonly #answers = new Map<string, { value: unknown; weight: number }>();
  #chars = 0;
  #weight = 0;
  #version: number | undefined;
  #hits = 0;
  #misses = 0;
  #answerHits = 0;
  #answerMisses = 0;

  constructor(limits: Partial<ReadCacheLimits> = {}) {
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

  /** A remembered read answer (read in this snapshot's version), or undefined. */
  answer<T>(key: string): T | undefined {
    const held = this.#answers.get(key);
    if (held === undefined) this.#answerMisses += 1;
    else this.#answerHits += 1;
    return held?.value as T | undefined;
  }

  /** Remembers a read answer, frozen; `T` is a value or a list (its length is its weight). */
  remember<T>(key: string, value: T): T {
    const frozen = deepFreeze(value);
    const weight = 1 + (Array.isArray(value) ? value.length : 0);
    if (weight > this.#limits.answers) return frozen;
    const previous = this.#answers.get(key);
    if (previous !== undefined) {
      this.#answers.delete(key);
      this.#weight -= previous.weight;
    }
    this.#answers.set(key, { value: frozen, weight });
    this.#weight += weight;
    while (this.#weight > this.#limits.answers) {
      const [oldest, held] = this.#answers.entries().next().value as [string, { weight: number }];
      this.#answers.delete(oldest);
      this.#weight -= held.weight;
    }
    return frozen;
  }

  clear(): void {
    this.#records.clear();
    this.#answers.clear();
    this.#chars = 0;
    this.#weight = 0;
  }

  /** For tests and diagnostics. */
  get usage(): ReadCacheUsage {
    return {
      records: this.#records.size,
      chars: this.#chars,
      hits: this.#hits,
      misses: this.#misses,
      answers: this.#answers.size,
      answerHits: this.#answerHits,
      answerMisses: this.#answerMisses,
    };
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value as object)) deepFreeze(nested);
  }
  return value;
}
