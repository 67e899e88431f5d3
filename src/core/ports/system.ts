/**
 * The process's own time and randomness, as core receives them from the composition root (which
 * builds them from the wall clock, `performance.now` and `Math.random`).
 */
import type { Clock } from './clock.js';
import type { RandomSource } from './random.js';
import type { Stopwatch } from './stopwatch.js';

export interface SystemPorts {
  /**
   * The clock of job queues and leases shared with other processes: real time, even when the domain
   * `Clock` is moved (a simulation, a benchmark's `--now`).
   */
  wallClock: Clock;
  /** Durations: batch pacing, time limits of a drain, phase durations. */
  stopwatch: Stopwatch;
  /** Claim-owner ids and sampling. */
  random: RandomSource;
}

/** A random id segment of `length` base-36 characters (an owner's suffix). */
export function randomSuffix(random: RandomSource, length: number): string {
  return random
    .next()
    .toString(36)
    .slice(2, 2 + length);
}
