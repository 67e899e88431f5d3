/**
 * Virtual time for deadline tests: a stopwatch and a scheduler whose clock moves only when the test
 * drives it, one millisecond per turn of the real event loop. Work that does not wait on a timer
 * (SQLite answers, the hash embedder) runs between turns as it would, so a build's budget and the
 * latency of a slow port are counted in virtual milliseconds, whatever the machine's load.
 */
import type { Scheduler } from '../../src/core/ports/scheduler.js';
import type { Stopwatch } from '../../src/core/ports/stopwatch.js';

interface Timer {
  at: number;
  fn: () => void;
}

export class VirtualTime {
  #now = 0;
  #timers: Timer[] = [];
  readonly #timerLateMs: number;

  /** `timerLateMs`: every timer fires this much after its time, as on a machine where the process waits for a core. */
  constructor(options: { timerLateMs?: number } = {}) {
    this.#timerLateMs = options.timerLateMs ?? 0;
  }

  readonly stopwatch: Stopwatch = { now: () => this.#now };
  readonly scheduler: Scheduler = {
    after: (ms, fn) => {
      const timer = { at: this.#now + Math.max(0, ms) + this.#timerLateMs, fn };
      this.#timers.push(timer);
      return () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
      };
    },
    nextTurn: () => new Promise((resolve) => setImmediate(resolve)),
  };

  now(): number {
    return this.#now;
  }

  /** Resolves `ms` virtual milliseconds from now. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.scheduler.after(ms, () => resolve()));
  }

  /** Moves the clock by `ms`, firing the timers that come due (in order). */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = end;
  }

  /** Awaits `promise`, moving the clock one millisecond per real event-loop turn until it settles. */
  async run<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    void promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    for (let turns = 0; !settled; turns++) {
      if (turns > 1_000_000) throw new Error('virtual time: the promise never settled');
      await new Promise((resolve) => setImmediate(resolve));
      if (!settled) this.advance(1);
    }
    return promise;
  }
}
