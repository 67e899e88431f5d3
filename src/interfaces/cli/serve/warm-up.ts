/**
 * Warms a fresh `engram serve` in the background once it listens: without it the first write waits
 * seconds for the embedding model and the write-path NLP (compromise, chrono-node) to load, and the
 * first prompt hook for the read path. Records nothing and writes nothing.
 */
import type { Engram } from '../../../engram.js';
import type { Scope } from '../../../core/scope.js';

/** The server's own app, called in-process (not over the network, not counted as a client's activity). */
export interface WarmUpHttp {
  fetch: (request: Request) => Response | Promise<Response>;
  /** Whether a keyless loopback caller may recall (no key needed): then recalls go through the app too. */
  keyless: boolean;
}

/**
 * Loads the model, the claim analysers and the read and context paths, and with `http` the HTTP layer
 * (routing, body parsing and validation, the JSON answer); resolves with the time taken (ms).
 */
export async function warmUp(engram: Engram, scopes: readonly Scope[], http?: WarmUpHttp): Promise<number> {
  const started = performance.now();
  // Read path first (prompt hooks come first), the write-path NLP last; requests that arrive meanwhile
  // are answered between the steps.
  const { embedder } = engram;
  // the model on this thread and in its workers, if it has any
  await (embedder.warmUp !== undefined ? embedder.warmUp() : embedder.embed(['engram serve warm-up']));
  await yieldToRequests();
  // Recalls of the size clients ask for, several times over: V8 optimises the read path's functions
  // only once they have run often. One recall of one hit left a server's first HTTP recalls at about
  // twice their later time (2-core EPYC, server side: 70 against 33 ms with one round of these, 44 with three).
  for (let round = 0; round < WARM_UP_ROUNDS; round++)
    for (const query of WARM_UP_QUERIES) {
      await engram.recall(query, { scopes: [...scopes], k: 10, trackAccess: false });
      await yieldToRequests();
    }
  await engram.warmContext({ scopes: [...scopes] });
  await yieldToRequests();
  const { compareClaims } = await import('../../../core/write/claims/claim-comparison.js');
  // A claim with a time expression exercises both the tagger (compromise) and the date parser (chrono-node).
  compareClaims("The team's favourite editor is Emacs since 2020.", 'The team favourite editor was Vim on Fridays.');
  await yieldToRequests();
  // last, so that the read path has run just before the first requests come
  if (http !== undefined) await warmHttp(http, scopes);
  return Math.round(performance.now() - started);
}

const WARM_UP_ROUNDS = 3;

/** Questions of the shapes the read path branches on: a plain one, one with names, one with a time. */
const WARM_UP_QUERIES = [
  'engram serve warm-up',
  'What did Alice and Bob decide about the Berlin office?',
  'Which database did we choose last week, and why?',
  'how do we deploy the service to production',
];

/**
 * The first requests through the app paid for its router (built on the first request), the request
 * schemas' first parse and the answer's first serialisation: ~40-70 ms on top of the recall on a 2-core
 * machine. A server that needs keys gets `/health` only (no key is made up for it).
 */
async function warmHttp(http: WarmUpHttp, scopes: readonly Scope[]): Promise<void> {
  const origin = 'http://127.0.0.1';
  const answered = async (request: Request) => {
    const response = await http.fetch(request);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${request.method} ${new URL(request.url).pathname} answered ${response.status}`);
  };
  await answered(new Request(`${origin}/health`));
  await yieldToRequests();
  if (!http.keyless) return;
  for (const query of WARM_UP_QUERIES.slice(0, 3)) {
    const body = JSON.stringify({ query, scopes, k: 10, trackAccess: false });
    await answered(new Request(`${origin}/v1/recall`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    await yieldToRequests();
  }
}

function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
