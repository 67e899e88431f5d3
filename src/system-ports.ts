/**
 * The process's own clock, stopwatch, randomness and timers: the composition root builds them here
 * and injects them, so nothing in core reads the wall clock, draws randomness or sets a timer.
 */
import type { Clock } from './core/ports/clock.js';
import type { RandomSource } from './core/ports/random.js';
import type { Scheduler } from './core/ports/scheduler.js';
import type { Stopwatch } from './core/ports/stopwatch.js';
import type { SystemPorts } from './core/ports/system.js';

/** The wall clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** `performance.now()`: monotonic, unaffected by clock changes. */
export const wallStopwatch: Stopwatch = Object.freeze({ now: () => performance.now() });

/** `Math.random()`. */
export const systemRandom: RandomSource = Object.freeze({ next: () => Math.random() });

/** What `Engram` injects into core unless told otherwise. */
export const systemPorts: SystemPorts = Object.freeze({ wallClock: systemClock, stopwatch: wallStopwatch, random: systemRandom });

type Immediate = { setImmediate?: (fn: () => void) => unknown };

/** `setTimeout` (unref'd for background calls) and `setImmediate` where the runtime has it, else a zero timeout. */
export const systemScheduler: Scheduler = Object.freeze({
  after(ms: number, fn: () => void, options: { background?: boolean } = {}): () => void {
    const timer = setTimeout(fn, ms);
    if (options.background === true) (timer as { unref?: () => void }).unref?.();
    return () => clearTimeout(timer);
  },
  nextTurn(): Promise<void> {
    const immediate = (globalThis as Immediate).setImmediate;
    return new Promise((resolve) => (immediate !== undefined ? immediate(resolve) : setTimeout(resolve, 0)));
  },
});
