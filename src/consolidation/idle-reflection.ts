/**
 * Idle reflection (seed 004: "idle moments trigger reflection that synthesises higher-level insights
 * from accumulated experience"). Writes add their importance to their scope's account (unscored counts
 * 1); once a scope has had no write for `idleMs` and its account has crossed the threshold, the
 * importance stored since its last reflection is measured and, when it crosses the threshold too,
 * reflection runs for that scope. One scope at a time; a scope whose reflection failed (another cycle
 * held its lock) is tried again after the next idle period. Time comes from the injected clock and
 * scheduler, so a test moves it by hand.
 */
import type { Clock } from '../core/ports/clock.js';
import type { Scheduler } from '../core/ports/scheduler.js';
import type { Scope } from '../core/scope.js';

/** What happened when a scope came idle. */
export interface IdleReflectionEvent {
  scope: Scope;
  /** `reflected`: reflection ran; `below-threshold`: not enough importance yet; `failed`: the run threw (retried after the next idle period). */
  outcome: 'reflected' | 'below-threshold' | 'failed';
  /** Importance counted for the scope when it came idle (measured from the store when it was high enough to check). */
  accumulated: number;
  threshold: number;
  /** How long the scope had been idle, ms. */
  idleMs: number;
  /** Reflections created (outcome `reflected`). */
  created?: number;
  error?: unknown;
}

export interface IdleReflectorOptions {
  /** How long a scope must go without writes before it may reflect. */
  idleMs: number;
  /** Accumulated importance that makes an idle scope reflect. */
  threshold: number;
  /** Time of the writes and of the idle check (the wall clock in a server). */
  clock: Clock;
  scheduler: Scheduler;
  /** The importance stored in `scope` since its last reflection. */
  measure: (scope: Scope) => Promise<number>;
  /** Runs reflection for `scope`; resolves with the reflections it created. */
  reflect: (scope: Scope) => Promise<{ created: number }>;
  /** Called for every idle check that did something (a log line in a server). */
  onEvent?: (event: IdleReflectionEvent) => void;
}

interface Account {
  accumulated: number;
  lastWriteAt: number;
  cancel?: () => void;
}

/** Tracks importance per scope and reflects idle scopes (see the module comment). */
export class IdleReflector {
  readonly #options: IdleReflectorOptions;
  readonly #accounts = new Map<Scope, Account>();
  #queue: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(options: IdleReflectorOptions) {
    if (!(options.idleMs > 0) || !(options.threshold > 0)) throw new RangeError('idleMs and threshold must be positive numbers');
    this.#options = options;
  }

  /** A write of `importance` (null: unscored, counts 1) to `scope`: adds it and restarts the scope's idle timer. */
  noteWrite(scope: Scope, importance: number | null | undefined): void {
    if (this.#stopped) return;
    const account = this.#accounts.get(scope) ?? { accumulated: 0, lastWriteAt: 0 };
    account.accumulated += importance ?? 1;
    account.lastWriteAt = this.#options.clock.now();
    this.#arm(scope, account, this.#options.idleMs);
    this.#accounts.set(scope, account);
  }

  /** Importance counted per scope that has not reflected yet. */
  get accounts(): { scope: Scope; accumulated: number; lastWriteAt: number }[] {
    return [...this.#accounts].map(([scope, a]) => ({ scope, accumulated: a.accumulated, lastWriteAt: a.lastWriteAt }));
  }

  /** Resolves once the checks started so far have finished. */
  settled(): Promise<void> {
    return this.#queue;
  }

  /** Cancels every timer and waits for a reflection in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const account of this.#accounts.values()) account.cancel?.();
    await this.#queue;
  }

  #arm(scope: Scope, account: Account, ms: number): void {
    account.cancel?.();
    account.cancel = this.#options.scheduler.after(
      ms,
      () => {
        this.#queue = this.#queue.then(() => this.#check(scope));
      },
      { background: true },
    );
  }

  async #check(scope: Scope): Promise<void> {
    const account = this.#accounts.get(scope);
    if (account === undefined || this.#stopped) return;
    const { clock, idleMs, threshold } = this.#options;
    const idleFor = clock.now() - account.lastWriteAt;
    // a write came in after this timer was set (its own timer is armed too)
    if (idleFor < idleMs) return;
    const event = { scope, threshold, idleMs: idleFor };
    if (account.accumulated < threshold) {
      this.#options.onEvent?.({ ...event, outcome: 'below-threshold', accumulated: account.accumulated });
      return;
    }
    // what this process saw may include writes reflection does not count (or miss other processes'): the store decides
    const measured = await this.#options.measure(scope);
    if (measured < threshold) {
      account.accumulated = measured;
      this.#options.onEvent?.({ ...event, outcome: 'below-threshold', accumulated: measured });
      return;
    }
    const counted = account.accumulated;
    try {
      const { created } = await this.#options.reflect(scope);
      account.accumulated -= counted;
      // writes that arrived while it ran stay counted for the next time
      if (account.accumulated <= 0 && clock.now() - account.lastWriteAt >= idleMs) this.#accounts.delete(scope);
      this.#options.onEvent?.({ ...event, outcome: 'reflected', accumulated: measured, created });
    } catch (error) {
      this.#options.onEvent?.({ ...event, outcome: 'failed', accumulated: measured, error });
      if (!this.#stopped) this.#arm(scope, account, idleMs);
    }
  }
}
