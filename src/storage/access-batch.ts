/**
 * Read accesses waiting to be written: per id, how many reads and the latest instant. Recording is a
 * map update, so `recall` never waits for the database.
 */
export interface PendingAccess {
  count: number;
  lastAt: number;
}

export class AccessBatch {
  #pending = new Map<string, PendingAccess>();

  get size(): number {
    return this.#pending.size;
  }

  add(ids: readonly string[], at: number): void {
    for (const id of ids) {
      const entry = this.#pending.get(id);
      if (entry === undefined) this.#pending.set(id, { count: 1, lastAt: at });
      else {
        entry.count++;
        if (at > entry.lastAt) entry.lastAt = at;
      }
    }
  }

  /** Removes and returns everything pending. */
  take(): Map<string, PendingAccess> {
    const taken = this.#pending;
    this.#pending = new Map();
    return taken;
  }

  /** Puts back entries whose write failed, merged with what arrived meanwhile. */
  restore(entries: ReadonlyMap<string, PendingAccess>): void {
    for (const [id, { count, lastAt }] of entries) {
      const entry = this.#pending.get(id);
      if (entry === undefined) this.#pending.set(id, { count, lastAt });
      else {
        entry.count += count;
        if (lastAt > entry.lastAt) entry.lastAt = lastAt;
      }
    }
  }
}
