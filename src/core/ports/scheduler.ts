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
