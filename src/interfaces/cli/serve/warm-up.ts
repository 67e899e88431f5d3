/**
 * Warms a fresh `engram serve` in the background once it listens: without it the first write waits
 * seconds for the embedding model and the write-path NLP (compromise, chrono-node) to load, and the
 * first prompt hook for the read path. Records nothing and writes nothing.
 */
import type { Engram } from '../../../engram.js';
import type { Scope } from '../../../core/scope.js';

/** Loads the model, the claim analysers and the read and context paths; resolves with the time taken (ms). */
export async function warmUp(engram: Engram, scopes: readonly Scope[]): Promise<number> {
  const started = performance.now();
  // Read path first (prompt hooks come first), the write-path NLP last; requests that arrive meanwhile
  // are answered between the steps.
  const { embedder } = engram;
  // the model on this thread and in its workers, if it has any
  await (embedder.warmUp !== undefined ? embedder.warmUp() : embedder.embed(['engram serve warm-up']));
  await yieldToRequests();
  await engram.recall('engram serve warm-up', { scopes: [...scopes], k: 1, trackAccess: false });
  await yieldToRequests();
  await engram.warmContext({ scopes: [...scopes] });
  await yieldToRequests();
  const { compareClaims } = await import('../../../core/write/claims/claim-comparison.js');
  // A claim with a time expression exercises both the tagger (compromise) and the date parser (chrono-node).
  compareClaims("The team's favourite editor is Emacs since 2020.", 'The team favourite editor was Vim on Fridays.');
  return Math.round(performance.now() - started);
}

function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
