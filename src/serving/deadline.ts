/**
 * A wall-clock deadline for the context builder: every awaited read races it, so the builder returns
 * on time whatever a store or an embedder does; work that finishes late is simply not used.
 */
import type { Scheduler } from '../core/ports/scheduler.js';
import type { Stopwatch } from '../core/ports/stopwatch.js';

export type { Stopwatch };

/** The outcome of racing a promise against the deadline. */
export type Raced<T> = { done: true; value: T } | { done: false };

/**
 * A deadline `budgetMs` from construction.
 *
 * @example
 * ```ts
 * const deadline = new Deadline(50, { stopwatch: wallStopwatch, scheduler: systemScheduler });
 * const result = await deadline.race(store.getMemories(ids, scopes));
 * if (!result.done) console.log('skipped');
 * deadline.dispose();
 * ```
 */
export class Deadline {
  readonly #stopwatch: Stopwatch;
  readonly #start: number;
  readonly #end: number;
  readonly #expired: Promise<Raced<never>>;
  #cancelTimer: (() => void) | undefined;

  /** `stopwatch` measures the budget (the wall, not the engine's `Clock`); `scheduler` sets its timer. */
  constructor(budgetMs: number, { stopwatch, scheduler }: { stopwatch: Stopwatch; scheduler: Scheduler }) {
    this.#stopwatch = stopwatch;
    this.#start = stopwatch.now();
    this.#end = this.#start + budgetMs;
    this.#expired = new Promise((resolve) => {
      this.#cancelTimer = scheduler.after(Math.max(0, budgetMs), () => resolve({ done: false }));
    });
  }

  /** Milliseconds since the start. */
  elapsed(): number {
    return this.#stopwatch.now() - this.#start;
  }

  /** Milliseconds left (never negative). */
  remaining(): number {
    return Math.max(0, this.#end - this.#stopwatch.now());
  }

  expired(): boolean {
    return this.remaining() <= 0;
  }

  /**
   * The promise's value if it settles before the deadline; `{ done: false }` otherwise. A rejection
   * before the deadline propagates; a late one is ignored (its result is no longer wanted).
   */
  async race<T>(promise: Promise<T>): Promise<Raced<T>> {
    promise.catch(() => undefined);
    if (this.expired()) {
      // Work that has already settled still counts; anything else is late.
      let settled: Raced<T> = { done: false };
      promise.then(
        (value) => (settled = { done: true, value }),
        () => undefined,
      );
      for (let tick = 0; tick < 3; tick += 1) await Promise.resolve();
      return settled;
    }
    return Promise.race([promise.then((value) => ({ done: true as const, value })), this.#expired]);
  }

  /**
   * Runs `next` on the value unless the deadline has passed by then, in which case the stage is never
   * started (its promise never settles and `race` reports it late). A synchronous store answers in
   * microtasks, where the deadline's timer cannot fire; this check, on the wall clock, is what keeps
   * a chain of reads from running past the deadline.
   */
  then<T, U>(promise: Promise<T>, next: (value: T) => Promise<U> | U): Promise<U> {
    return promise.then((value) => (this.expired() ? new Promise<U>(() => undefined) : next(value)));
  }

  /** Stops the timer (call when done, so no timer outlives the build). */
  dispose(): void {
    this.#cancelTimer?.();
  }
}
