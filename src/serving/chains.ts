/**
 * The decision-chains part of a context (`chains: true`): each chain that one of the hits belongs to,
 * once, whole and in order (see `core/chains`).
 */
import { readChains, type ChainQuery } from '../core/chains/chain.js';
import type { StoreReader } from '../core/ports/store.js';
import type { ChainEntry } from './types.js';

/** Chains shown in one context, in the order of the hits that reached them. */
export const CHAINS_IN_CONTEXT = 3;

export async function chainEntries(reader: StoreReader, query: ChainQuery): Promise<ChainEntry[]> {
  const chains = await readChains(reader, query);
  const entries: ChainEntry[] = [];
  const seen = new Set<string>();
  for (const id of query.ids) {
    const members = chains.get(id);
    const first = members?.[0];
    if (members === undefined || first === undefined || seen.has(first.id)) continue;
    seen.add(first.id);
    entries.push({ id: first.id, scope: first.scope, members });
    if (entries.length >= CHAINS_IN_CONTEXT) break;
  }
  return entries;
}
