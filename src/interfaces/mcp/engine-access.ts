/**
 * The engine as the MCP server, HTTP server and hooks see it: the core methods, plus the methods other
 * parts of Engram add (context, predict, consolidate, endSession, relate), looked up by name so a
 * build without one of them still serves every other tool and says clearly what is missing.
 */
import { EngramError } from '../../core/errors.js';
import type { EngramCore } from '../../core/engine.js';

/** Engine methods added by later features; each takes one options object. */
export type OptionalMethod = 'context' | 'predict' | 'consolidate' | 'endSession' | 'relate';

/** Whether this build's engine has `method`. */
export function hasMethod(engram: EngramCore, method: OptionalMethod): boolean {
  return typeof (engram as unknown as Record<string, unknown>)[method] === 'function';
}

/**
 * Calls an optional engine method with one options object. A missing method is not the caller's
 * fault, so it throws `INTERNAL` with a message naming what this build lacks.
 */
export async function callOptional(engram: EngramCore, method: OptionalMethod, options: Record<string, unknown>): Promise<unknown> {
  const fn = (engram as unknown as Record<string, unknown>)[method];
  if (typeof fn !== 'function') {
    throw new EngramError('INTERNAL', `${method} is not available in this build of Engram: update Engram to a version that has engine.${method}().`, {
      details: { method },
    });
  }
  return (fn as (options: Record<string, unknown>) => Promise<unknown>).call(engram, options);
}

/** Starts the engine's background work (concept extraction) when this build has it; returns the stopper. */
export function startBackground(engram: EngramCore): () => Promise<void> {
  const target = engram as unknown as { startBackground?: () => unknown; stopBackground?: () => unknown };
  if (typeof target.startBackground !== 'function') return async () => undefined;
  target.startBackground();
  return async () => {
    await target.stopBackground?.();
  };
}
