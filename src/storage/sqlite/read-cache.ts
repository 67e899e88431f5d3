/**
 * What a file store's read connection has read, kept for as long as nothing has been committed to the
 * database since: decoded memory records by id, and the answers of a few reads that recall repeats
 * (a thread's order, a record's edges, a concept's refs, its part-vector blob) by key.
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
 *
 * A record is kept on its second read (the first is noted), and the cache turns itself off while few
 * lookups are answered: where reads seldom repeat (random questions over 100,000 memories) keeping
 * costs more than it saves. Answers about whole scopes (their relation types, their newest episode
 * heads), which every recall of a scope asks for again, are held either way.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { SqliteConnection } from './sqlite-connection.js';

export interface ReadCacheLimits {
  /** Records kept at most (the older half is let go in one piece). */
  readonly records: number;
  /** Content characters kept at most, summed over the records. */
  readonly chars: number;
  /** Remembered read answers at most, each weighing 1 + the length of the list it holds. */
  readonly answers: number;
}

const DEFAULT_LIMITS: ReadCacheLimits = { records: 20_000, chars: 16 * 2 ** 20, answers: 200_000 };

export interface ReadCacheUsage {
  /** Whether it keeps anything now (it turns itself off while few lookups are answered). */
  on: boolean;
  records: number;
  /** Record lookups answered and not since the store opened. */
  hits: number;
  misses: number;
  /** Read answers held, and lookups of them answered and not. */
  answers: number;
  answerHits: number;
  answerMisses: number;
  /** Answers about whole scopes held (kept while off too), and lookups of them answered. */
  scopeAnswers: number;
  scopeAnswerHits: number;
}

/**
 * A map that forgets its oldest entries in bulk: new entries go to the young generation; when that
 * holds half the budget it becomes the old one and the previous old one is dropped. A hit in the old
 * generation moves to the young one. (Evicting one entry at a time from the head of one Map walked
 * past every deleted slot before it: ~3 µs an entry once full, measured over 250-record reads.)
 * Keys are (group, key): a read's answers share a group (its kind and scopes), so a lookup hashes the
 * id it was given, not a new string made of the group and the id.
 */
class Generations<V> {
  #young = new Map<string, Map<string, V>>();
  #old = new Map<string, Map<string, V>>();
  #youngCost = 0;
  readonly #budget: number;
  readonly #cost: (value: V) => number;

  constructor(budget: number, cost: (value: V) => number) {
    this.#budget = budget;
    this.#cost = cost;
  }

  get size(): number {
    let size = 0;
    for (const generation of [this.#young, this.#old]) for (const entries of generation.values()) size += entries.size;
    return size;
  }

  get(group: string, key: string): V | undefined {
    const young = this.#young.get(group)?.get(key);
    if (young !== undefined) return young;
    const olds = this.#old.get(group);
    const old = olds?.get(key);
    if (old !== undefined) {
      olds?.delete(key);
      this.#add(group, key, old, this.#cost(old));
    }
    return old;
  }

  /** Holds `value` under (`group`, `key`), replacing what was there; a value over half the budget is not held. */
  set(group: string, key: string, value: V): void {
    const youngs = this.#young.get(group);
    const young = youngs?.get(key);
    if (young !== undefined) {
      youngs?.delete(key);
      this.#youngCost -= this.#cost(young);
    }
    this.#old.get(group)?.delete(key);
    const cost = this.#cost(value);
    if (cost <= this.#budget / 2) this.#add(group, key, value, cost);
  }

  #add(group: string, key: string, value: V, cost: number): void {
    if (this.#youngCost + cost > this.#budget / 2) {
      this.#old = this.#young;
      this.#young = new Map();
      this.#youngCost = 0;
    }
    let entries = this.#young.get(group);
    if (entries === undefined) {
      entries = new Map();
      this.#young.set(group, entries);
    }
    entries.set(key, value);
    this.#youngCost += cost;
  }

  clear(): void {
    this.#young = new Map();
    this.#old = new Map();
    this.#youngCost = 0;
  }
}

/** The group of records (and of the ids read lately: `#seen` also notes other groups' keys while off). */
const IDS = '';

/** Scope answers held at most (past it, they start again). */
const SCOPE_ANSWERS = 256;

/** Lookups a verdict on the hit rate is made over; while off, one lookup in `OFF_SAMPLE` is looked at. */
const VERDICT_LOOKUPS = 4096;
const OFF_SAMPLE = 8;
/** Below this share of lookups answered the cache turns itself off; at this share of ids read lately, on. */
const OFF_BELOW = 0.2;
const ON_FROM = 0.35;

export class ReadCache {
  readonly #records: Generations<MemoryRecord>;
  /** Ids read once lately: a record is kept when it is read a second time (one-off reads cost a set entry). */
  readonly #seen: Generations<true>;
  readonly #answers: Generations<unknown>;
  /**
   * Answers about whole scopes (their relation types, their newest episode heads), one per scope set:
   * every recall of a scope asks the same, so these are held even while the cache is off.
   */
  readonly #scopeAnswers = new Map<string, unknown>();
  #version: number | undefined;
  /**
   * Whether it keeps anything. A workload that seldom reads a row again (random questions over 100,000
   * memories: 13 % of lookups answered) pays for the keeping (freezing, holding past the young garbage
   * collection: +1.2 ms a recall there) and gains little, so below `OFF_BELOW` answered it stops, and
   * watches a sample of the ids read: when `ON_FROM` of them were read lately, it starts again.
   */
  #on = true;
  #verdictLookups = 0;
  #verdictFound = 0;
  #sampled = 0;
  readonly #recordStats = { hits: 0, misses: 0 };
  readonly #answerStats = { hits: 0, misses: 0 };
  #scopeAnswerHits = 0;

  constructor(limits: Partial<ReadCacheLimits> = {}) {
    const { records, chars, answers } = { ...DEFAULT_LIMITS, ...limits };
    // both budgets at once: a record costs its share of the count or of the characters, the larger
    this.#records = new Generations<MemoryRecord>(1, (record) => Math.max(1 / records, record.content.length / chars));
    this.#seen = new Generations<true>(2 * records, () => 1);
    this.#answers = new Generations<unknown>(answers, answerWeight);
  }

  /** Whether it keeps anything now; while off, a reader of a whole thread or list reads by range instead. */
  get active(): boolean {
    return this.#on;
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
    return this.#lookup(this.#records, IDS, id, this.#recordStats);
  }

  /**
   * Offers `record` (read in the snapshot `sync` was last called in). The first time its id is read
   * lately it is only noted and comes back as it is; the second time it is kept and comes back frozen.
   */
  keep(record: MemoryRecord): MemoryRecord {
    if (!this.#on) return record;
    if (this.#seen.get(IDS, record.id) === undefined) {
      this.#seen.set(IDS, record.id, true);
      return record;
    }
    const frozen = deepFreeze(record);
    this.#records.set(IDS, record.id, frozen);
    return frozen;
  }

  /** A remembered read answer (read in this snapshot's version), or undefined; `group` names the read and its scopes. */
  answer<T>(group: string, key: string): T | undefined {
    return this.#lookup(this.#answers, group, key, this.#answerStats) as T | undefined;
  }

  /**
   * A remembered answer about whole scopes, or `read()` remembered (frozen) until the database changes.
   * Held whether or not the cache is on (at most `SCOPE_ANSWERS`): each recall of a scope asks again,
   * however seldom its rows are read again (the episode heads: 0.9 ms of a profiled recall over 100,000 memories).
   */
  scopeAnswer<T>(key: string, read: () => T): T {
    const held = this.#scopeAnswers.get(key);
    if (held !== undefined) {
      this.#scopeAnswerHits += 1;
      return held as T;
    }
    const value = deepFreeze(read());
    if (this.#scopeAnswers.size >= SCOPE_ANSWERS) this.#scopeAnswers.clear();
    this.#scopeAnswers.set(key, value);
    return value;
  }

  #lookup<V>(held: Generations<V>, group: string, key: string, stats: { hits: number; misses: number }): V | undefined {
    if (!this.#on) {
      this.#watch(group, key);
      return undefined;
    }
    const value = held.get(group, key);
    if (value === undefined) stats.misses += 1;
    else stats.hits += 1;
    this.#count(value !== undefined);
    return value;
  }

  /**
   * Remembers a read answer, frozen; `T` is a value or a list (its length is its weight), or bytes
   * (a part-vector blob: one unit per 64 bytes; held as they are, since a typed array cannot be frozen,
   * so only for readers that never hand them to a caller).
   */
  remember<T>(group: string, key: string, value: T): T {
    if (!this.#on) return value;
    const frozen = deepFreeze(value);
    this.#answers.set(group, key, frozen);
    return frozen;
  }

  clear(): void {
    // the ids read lately stay: they say what the workload reads again, not what the rows hold
    this.#records.clear();
    this.#answers.clear();
    this.#scopeAnswers.clear();
  }

  /** While on: one lookup answered or not, and the verdict after `VERDICT_LOOKUPS`. */
  #count(found: boolean): void {
    this.#verdictLookups += 1;
    if (found) this.#verdictFound += 1;
    if (this.#verdictLookups < VERDICT_LOOKUPS) return;
    if (this.#verdictFound < OFF_BELOW * this.#verdictLookups) {
      this.#on = false;
      this.clear();
    }
    this.#verdictLookups = 0;
    this.#verdictFound = 0;
  }

  /** While off: every `OFF_SAMPLE`-th key looked up, was it read lately? Enough were: on again. */
  #watch(group: string, key: string): void {
    this.#sampled += 1;
    if (this.#sampled % OFF_SAMPLE !== 0) return;
    this.#verdictLookups += 1;
    if (this.#seen.get(group, key) !== undefined) this.#verdictFound += 1;
    else this.#seen.set(group, key, true);
    if (this.#verdictLookups < VERDICT_LOOKUPS / OFF_SAMPLE) return;
    if (this.#verdictFound >= ON_FROM * this.#verdictLookups) this.#on = true;
    this.#verdictLookups = 0;
    this.#verdictFound = 0;
  }

  /** For tests and diagnostics. */
  get usage(): ReadCacheUsage {
    return {
      on: this.#on,
      records: this.#records.size,
      hits: this.#recordStats.hits,
      misses: this.#recordStats.misses,
      answers: this.#answers.size,
      answerHits: this.#answerStats.hits,
      answerMisses: this.#answerStats.misses,
      scopeAnswers: this.#scopeAnswers.size,
      scopeAnswerHits: this.#scopeAnswerHits,
    };
  }
}

/** An answer's share of the budget: 1, plus its length for a list, plus one per 64 bytes for bytes. */
function answerWeight(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.length;
  if (value instanceof Uint8Array) return 1 + Math.ceil(value.byteLength / 64);
  return 1;
}

function deepFreeze<T>(value: T): T {
  if (ArrayBuffer.isView(value)) return value;
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value as object)) deepFreeze(nested);
  }
  return value;
}
