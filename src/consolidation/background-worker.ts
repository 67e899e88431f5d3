/**
 * The background worker: drains the store's concept-extraction queue (and other queued work) off the
 * hot path on a timer loop, in the process that opened the engine with `background: true`.
 */
import { drainConceptJobs, newWorkerOwner, type ConceptJobDeps } from '../core/concepts/concept-jobs.js';
import type { Scheduler } from '../core/ports/scheduler.js';

/**
 * Runs `drainConceptJobs` in the background: wakes when notified (a write queued work) or every
 * `idleMs`, yields to the event loop between batches so it never holds up `remember` for long.
 */
export class BackgroundWorker {
  readonly #deps: ConceptJobDeps;
  readonly #scheduler: Scheduler;
  readonly #idleMs: number;
  readonly #owner: string;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  /** Waiting for work (a notify ends it) rather than pausing between batches (only stop ends that). */
  #idling = false;
  #cancelTimer: (() => void) | undefined;
  #lastError: unknown;

  readonly #duty: number;
  /** Other queued work (importance recovery) done when there is no concept job; returns jobs done. */
  readonly #also: ((owner: string) => Promise<number>) | undefined;

  /**
   * `idleMs`: how often an idle worker looks for work (it is also woken by `notify`). `duty`: the share
   * of wall time the worker may spend working while there is a backlog (default 0.5): after a batch
   * that took t ms it pauses t·(1−duty)/duty ms, so writers always find the store free most of the time.
   */
  constructor(
    deps: ConceptJobDeps,
    options: { scheduler: Scheduler; idleMs?: number; duty?: number; also?: (owner: string) => Promise<number> },
  ) {
    this.#deps = deps;
    this.#scheduler = options.scheduler;
    this.#owner = newWorkerOwner(deps);
    this.#also = options.also;
    this.#idleMs = options.idleMs ?? 1_000;
    this.#duty = Math.min(1, Math.max(0.05, options.duty ?? 0.5));
  }

  get running(): boolean {
    return this.#running;
  }

  /** The last failure of the loop itself (store unavailable, …), if any. */
  get lastError(): unknown {
    return this.#lastError;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** New work was queued: skip the idle wait. */
  notify(): void {
    if (this.#idling) this.#wake?.();
  }

  /** Stops after the batch in flight; resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let did = 0;
      const started = this.#deps.stopwatch.now();
      try {
        did = (await drainConceptJobs(this.#deps, { owner: this.#owner, limit: 1, batch: 1 })).jobs;
        if (did === 0 && this.#also !== undefined) did = await this.#also(this.#owner);
        this.#lastError = undefined;
      } catch (error) {
        this.#lastError = error;
      }
      if (!this.#running) break;
      this.#idling = did === 0;
      if (did > 0) await this.#idle(Math.max(1, ((this.#deps.stopwatch.now() - started) * (1 - this.#duty)) / this.#duty));
      else await this.#idle(this.#idleMs);
      this.#idling = false;
    }
  }

  /** Waits `ms`, or less when notified or stopped (so `stop()` never waits on an unref'd timer). */
  #idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.#cancelTimer?.();
        this.#cancelTimer = undefined;
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
      this.#cancelTimer = this.#scheduler.after(ms, done, { background: true });
    });
  }
}
