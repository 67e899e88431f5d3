/**
 * A store seen through a deadline. Every read first yields to the event loop, so the deadline's timer
 * can fire between the reads of a synchronous store (whose answers otherwise chain in microtasks);
 * a read is not started once the deadline has passed, nor when its expected duration (a moving
 * average of the same read on the same scopes) does not fit in the time left — a synchronous read
 * cannot be interrupted once it runs. A read that is not started either never settles (the part
 * that waits for it is reported late) or, for optional search channels when `degrade` is on, answers
 * empty, so recall finishes with the channels that fit.
 */
import type { Store } from '../core/ports/store.js';
import type { Scheduler } from '../core/ports/scheduler.js';
import type { Deadline, Stopwatch } from './deadline.js';

/** Reads gated by the deadline. */
const READS = new Set([
  'getMemories',
  'listMemories',
  'lexicalSearch',
  'vectorSearch',
  'temporalSearch',
  'getEdges',
  'getNeighbours',
  'findClaims',
  'findConcepts',
  'getConceptRefs',
  'findConceptsByRef',
  'findDerived',
]);

/** Reads a caller can do without: what they answer when skipped. */
const OPTIONAL: Record<string, () => unknown> = {
  lexicalSearch: () => [],
  vectorSearch: () => [],
  temporalSearch: () => [],
  getEdges: () => [],
  getConceptRefs: () => [],
  findConceptsByRef: () => [],
  findDerived: () => [],
  getNeighbours: () => new Map(),
};

/** A read is started only if its expected duration × this fits in the time left. */
const SAFETY = 1.2;

/** Moving averages of read durations, shared by the builds of one engine. */
export class ReadTimings {
  readonly #ms = new Map<string, number>();
  expected(key: string): number {
    return this.#ms.get(key) ?? 0;
  }
  record(key: string, ms: number): void {
    const previous = this.#ms.get(key);
    this.#ms.set(key, previous === undefined ? ms : 0.7 * previous + 0.3 * ms);
    if (this.#ms.size > 1_024) this.#ms.delete(this.#ms.keys().next().value as string);
  }
  /** A read skipped for its estimate is estimated a little cheaper, so one slow outlier does not bar it for good. */
  shrink(key: string): void {
    const previous = this.#ms.get(key);
    if (previous !== undefined) this.#ms.set(key, previous * 0.9);
  }
}

export interface DeadlineStoreOptions {
  deadline: Deadline;
  stopwatch: Stopwatch;
  /** Gives one turn of the event loop before each read, so the deadline's timer can fire. */
  scheduler: Scheduler;
  timings: ReadTimings;
  /** Distinguishes the same read on different scopes (its cost depends on their size). */
  key: string;
  /** Answer skipped optional reads with an empty result instead of never. */
  degrade?: boolean;
  /** Called once per skipped read. */
  onSkip?: (method: string) => void;
}

/** `store` with its reads gated by the deadline. */
export function storeWithDeadline(store: Store, options: DeadlineStoreOptions): Store {
  const { deadline, stopwatch, scheduler, timings, key } = options;
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property !== 'string' || !READS.has(property)) return method.bind(target);
      const timingKey = `${property}\n${key}`;
      return async (...args: unknown[]) => {
        await scheduler.nextTurn();
        const late = deadline.expired();
        if (late || timings.expected(timingKey) * SAFETY > deadline.remaining()) {
          if (!late) timings.shrink(timingKey);
          options.onSkip?.(property);
          const empty = OPTIONAL[property];
          return options.degrade === true && empty !== undefined ? empty() : new Promise<never>(() => undefined);
        }
        const started = stopwatch.now();
        const result = await method.apply(target, args);
        timings.record(timingKey, stopwatch.now() - started);
        return result;
      };
    },
  });
}
