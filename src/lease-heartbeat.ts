/**
 * The timer behind a consolidation cycle's lease renewal. Core stays free of timers; `Engram.open`
 * passes this to the engine so a phase that runs longer than the lease between checkpoints keeps it.
 */
import type { LeaseHeartbeat } from './core/ports/lease-heartbeat.js';

/** Calls `renew` every `everyMs` until stopped; never keeps the process alive on its own. */
export const timerHeartbeat: LeaseHeartbeat = (renew, everyMs) => {
  const timer = setInterval(() => void renew(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
};
