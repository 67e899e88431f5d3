/**
 * Reading data of older layouts for the migrations of both stores: API keys kept in metadata (now a
 * table), and relation types registered before types belonged to a tenant.
 */
import type { StoredApiKey } from '../core/ports/store.js';
import { scopeProblem } from '../core/scope.js';

/** The metadata key of the old index document, and the prefix of the old per-hash entries. */
export const LEGACY_INDEX_KEY = 'api_keys';
export const LEGACY_HASH_PREFIX = 'api_key:';

/**
 * Keys as the old metadata layout held them (an `api_keys` index document plus one `api_key:<hash>`
 * entry each). Entries missing from the index are included: concurrent creators could drop them from
 * the index while their hash entry still authenticated.
 */
export function legacyMetaKeys(index: string | undefined, entries: readonly string[]): StoredApiKey[] {
  const byHash = new Map<string, StoredApiKey>();
  const add = (value: unknown): void => {
    const key = parseLegacyKey(value);
    if (key === null) return;
    const known = byHash.get(key.hash);
    // a revocation recorded in either copy wins, since the key was meant to be refused
    if (known === undefined || (known.revokedAt === null && key.revokedAt !== null)) byHash.set(key.hash, key);
  };
  for (const raw of entries) add(safeJson(raw));
  const parsedIndex = index === undefined ? null : safeJson(index);
  if (Array.isArray(parsedIndex)) for (const item of parsedIndex) add(item);
  const seenIds = new Set<string>();
  return [...byHash.values()]
    .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
    .filter((k) => (seenIds.has(k.id) ? false : (seenIds.add(k.id), true)));
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function parseLegacyKey(value: unknown): StoredApiKey | null {
  const v = value as Partial<StoredApiKey> | null;
  if (
    v === null ||
    typeof v !== 'object' ||
    typeof v.id !== 'string' ||
    typeof v.hash !== 'string' ||
    typeof v.tenant !== 'string' ||
    typeof v.createdAt !== 'number'
  )
    return null;
  return {
    id: v.id,
    hash: v.hash,
    tenant: v.tenant,
    label: typeof v.label === 'string' ? v.label : null,
    createdAt: v.createdAt,
    revokedAt: typeof v.revokedAt === 'number' ? v.revokedAt : null,
  };
}

/**
 * The tenants an old, tenant-less registered relation type is given: the tenant named by a
 * `tenant:<name>` proposer and every tenant whose edges use it; when neither exists, every tenant of
 * the store, so no tenant loses a type it may rely on.
 */
export function legacyRelationTenants(proposedBy: string | null, edgeTenants: readonly string[], everyTenant: readonly string[]): string[] {
  const tenants = new Set(edgeTenants);
  const named = proposedBy?.startsWith('tenant:') === true ? proposedBy.slice('tenant:'.length) : null;
  if (named !== null && !named.includes('/') && scopeProblem(named) === null) tenants.add(named);
  return [...(tenants.size > 0 ? tenants : new Set(everyTenant))].filter((t) => t !== '');
}
