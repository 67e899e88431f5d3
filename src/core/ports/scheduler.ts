/** Timers, injected so that parts on core (the background worker, the context deadline) set none of their own. */
export interface Scheduler {
  /**
   * Calls `fn` once after `ms` milliseconds; the returned function cancels a call not yet made. With
   * `background: true` the pending call never keeps the process alive.
   */
  after(ms: number, fn: () => void, options?: { background?: boolean }): () => void;
  /** Resolves on a later turn of the event loop, after pending I/O callbacks have run. */
  nextTurn(): Promise<void>;
}

/**
 * A scheduler whose time only moves when told to, for tests and simulations: `after` calls come due
 * on `advance` (in due order, each at its instant of the clock it shares), never on their own.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(0);
 * const scheduler = new ManualScheduler(clock);
 * scheduler.after(1_000, () => console.log('due'));
 * scheduler.advance(1_000); // logs "due"
 * ```
 */
export class ManualScheduler implements Scheduler {
  readonly #clock: { now(): number; set(at: number): void };
  #timers: { at: number; seq: number; fn: () => void }[] = [];
  #seq = 0;

  constructor(clock: { now(): number; set(at: number): void }) {
    this.#clock = clock;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.#clock.now() + Math.max(0, ms), seq: this.#seq++, fn };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  nextTurn(): Promise<void> {
    return Promise.resolve();
  }

  /** Calls waiting to come due. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves the clock by `ms`, calling every call due on the way at its own instant. */
  advance(ms: number): void {
    const end = this.#clock.now() + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#clock.set(Math.max(this.#clock.now(), due.at));
      due.fn();
    }
    this.#clock.set(end);
  }
}
