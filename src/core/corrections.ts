/**
 * Corrections of captured episodes. A captured turn stores its claims with the turn as their evidence
 * (`provenance.derivedFrom`); when a later claim supersedes one of them and it is no longer current,
 * the turn says something that is no longer true. Recall ranks such an episode after the hits nothing
 * corrected and the context after the episodes nothing corrected, each marking it with what corrected it.
 */
import { isVisible, type MemoryRecord, type TimeFilter } from './memory.js';
import type { StoreReader } from './ports/store.js';
import { readBeliefs } from './read-beliefs.js';
import type { Scope } from './scope.js';
import { CAPTURED_TAG } from './write/capture/index.js';

/** Supersession hops followed from a corrected claim to the one that holds now. */
const MAX_HOPS = 8;

/** What corrected an episode's claim: the claim that holds now in its place. */
export interface Correction {
  id: string;
  content: string;
}

/** A scope's captured claims that a correction superseded, by the episode each was captured from. */
export type CorrectedClaims = ReadonlyMap<string, readonly MemoryRecord[]>;

/** Superseded claims read per page, and the most a scope's index reads (past that, episodes are looked up one read at a time). */
const PAGE = 500;
const MAX_CORRECTED = 10_000;

/**
 * The index of a scope's corrected captured claims: its superseded semantic records tagged `captured`,
 * by the episode they came from; `null` when the scope holds more superseded claims than
 * `MAX_CORRECTED` (then `readCorrections` asks `findDerived` for the episodes shown instead).
 */
export async function correctedClaimsOf(store: Pick<StoreReader, 'listMemories'>, scope: Scope): Promise<CorrectedClaims | null> {
  const byEpisode = new Map<string, MemoryRecord[]>();
  let read = 0;
  for (let afterId: string | undefined; ;) {
    const page = await store.listMemories({
      scopes: [scope],
      layers: ['semantic'],
      statuses: ['superseded'],
      limit: PAGE,
      ...(afterId !== undefined ? { afterId } : {}),
    });
    for (const claim of page) {
      if (!claim.tags.includes(CAPTURED_TAG) || typeof claim.data.supersededBy !== 'string') continue;
      for (const id of claim.provenance.derivedFrom) byEpisode.set(id, [...(byEpisode.get(id) ?? []), claim]);
    }
    read += page.length;
    if (page.length < PAGE) return byEpisode;
    if (read >= MAX_CORRECTED) return null;
    afterId = (page[page.length - 1] as MemoryRecord).id;
  }
}

/**
 * Corrections of the episodes `episodes` (ids with their scope), keyed by episode id: for each, the
 * claim holding now in place of one of its claims that is no longer current `now` (a correction valid
 * from a future date does not count yet), or, under a read's `asOf`/`knownAt` (`filter`), then.
 * `indexOf` gives a scope's index of corrected claims (cached by the caller), or null to look the
 * episodes up with `findDerived`; one `getMemories` read follows for the successors, only when an
 * episode was corrected. Under a `knownAt`, claims and successors are judged by what was believed of
 * them then (their belief intervals, read only for such a read).
 */
export async function readCorrections(
  store: Pick<StoreReader, 'findDerived' | 'getMemories' | 'getBeliefs'>,
  scopes: readonly Scope[],
  episodes: readonly { id: string; scope: Scope }[],
  now: number,
  indexOf: (scope: Scope) => Promise<CorrectedClaims | null> = async () => null,
  filter: Pick<TimeFilter, 'asOf' | 'knownAt'> = {},
): Promise<Map<string, Correction>> {
  const byScope = new Map<Scope, string[]>();
  for (const e of episodes) byScope.set(e.scope, [...(byScope.get(e.scope) ?? []), e.id]);
  const successorOf = new Map<string, string>();
  // the claim of each episode a correction ended: what it said, to tell a correction that says it again
  const correctedOf = new Map<string, MemoryRecord>();
  for (const [scope, ids] of byScope) {
    const wanted = new Set(ids);
    const index = await indexOf(scope);
    const claims = index !== null ? ids.flatMap((id) => index.get(id) ?? []) : await store.findDerived({ scope, ids });
    // under a knownAt, a claim is judged by what was believed of it then
    const claimBeliefs = await readBeliefs(
      store,
      claims.map((c) => c.id),
      [scope],
      filter,
    );
    for (const claim of claims) {
      const by = claim.data.supersededBy;
      if (typeof by !== 'string' || isVisible(claim, filter, now, claimBeliefs.get(claim.id))) continue;
      for (const id of claim.provenance.derivedFrom)
        if (wanted.has(id) && !successorOf.has(id)) {
          successorOf.set(id, by);
          correctedOf.set(id, claim);
        }
    }
  }
  if (successorOf.size === 0) return new Map();
  // a correction corrected in turn names its own successor: the chain is followed to what holds now
  const successors = new Map<string, MemoryRecord>();
  let wanted = [...new Set(successorOf.values())];
  for (let hop = 0; wanted.length > 0 && hop < MAX_HOPS; hop += 1) {
    for (const r of await store.getMemories(wanted, scopes)) successors.set(r.id, r);
    wanted = [...successors.values()]
      .map((r) => r.data.supersededBy)
      .filter((id): id is string => typeof id === 'string' && !successors.has(id));
  }
  const beliefs = await readBeliefs(store, [...successors.keys()], scopes, filter);
  const out = new Map<string, Correction>();
  for (const [episodeId, successorId] of successorOf) {
    let successor = successors.get(successorId);
    for (
      let hop = 0;
      successor !== undefined && !isVisible(successor, filter, now, beliefs.get(successor.id)) && hop < MAX_HOPS;
      hop += 1
    ) {
      const next = successor.data.supersededBy;
      successor = typeof next === 'string' ? successors.get(next) : undefined;
    }
    // a correction said in the same turn corrects nothing said before it
    if (successor === undefined || successor.status === 'deleted' || successor.provenance.derivedFrom.includes(episodeId)) continue;
    // what holds now says what the turn said (Lisbon, then Porto, then "I moved back to Lisbon"): true again
    if (sameSlotValue(correctedOf.get(episodeId), successor)) continue;
    out.set(episodeId, { id: successor.id, content: successor.content });
  }
  return out;
}

/** Whether two claims hold the same value of the same slot (subject, attribute and value as read, neither negated). */
function sameSlotValue(a: MemoryRecord | undefined, b: MemoryRecord): boolean {
  const x = a?.data.claim;
  const y = b.data.claim;
  if (x === undefined || y === undefined || x.negated === true || y.negated === true) return false;
  return x.subject === y.subject && x.attribute === y.attribute && x.value === y.value && x.value !== '';
}
