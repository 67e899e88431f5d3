import { EngramError } from '../errors.js';

/** Time source. Injected so tests and consolidation can move time. */
export interface Clock {
  /** Current time in epoch milliseconds. Monotonic non-decreasing is not required. */
  now(): number;
}

/**
 * A clock that only moves when told to, for tests and simulations. It starts where it is told to,
 * so a test never depends on the wall clock.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(Date.parse('2024-01-01'));
 * clock.advance(7 * 86_400_000);
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: number) {
    this.#now = instantOf(start, 'new ManualClock(start)');
  }
  now(): number {
    return this.#now;
  }
  set(at: number): void {
    this.#now = instantOf(at, 'ManualClock.set(at)');
  }
  advance(ms: number): void {
    this.#now = instantOf(this.#now + ms, 'ManualClock.advance(ms)');
  }
}

function instantOf(value: unknown, call: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new EngramError(
    'INVALID_INPUT',
    `${call} needs epoch milliseconds, got ${typeof value === 'number' ? String(value) : typeof value}: e.g. new ManualClock(Date.parse('2024-01-01')).`,
  );
}
