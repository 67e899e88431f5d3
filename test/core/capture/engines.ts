/** Engines on temp SQLite files for the capture tests, closed (with anything else registered) after each test. */
import { afterEach } from 'vitest';
import type { Engram, OpenOptions } from '../../../src/index.js';
import { tempEngram } from '../../helpers/temp.js';

/** Registers the cleanup hook; returns `open` (an engine) and `later` (another cleanup for this test). */
export function enginesPerTest(): {
  open: (options?: Partial<OpenOptions>) => Promise<Engram>;
  later: (cleanup: () => Promise<void> | void) => void;
} {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });
  return {
    open: async (options = {}) => {
      const ctx = await tempEngram(options);
      cleanups.push(ctx.cleanup);
      return ctx.engram;
    },
    later: (cleanup) => cleanups.push(cleanup),
  };
}
