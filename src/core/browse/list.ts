/**
 * Browsing: filtered, keyset-paginated pages of records, and the scopes that hold records
 * with their counts. Not ranked recall: a browse lists what is stored, in a stable order.
 */
import type { MemoryRecord } from '../memory.js';
import { toMemoryView, type MemoryView } from '../memory-view.js';
import type { BrowseFilter, BrowseQuery, ScopeSummary, StoreReader } from '../ports/store.js';
import { assertReadScopes, type Scope } from '../scope.js';
import { decodeCursor, encodeCursor, fnv1a } from './cursor.js';
import { DEFAULT_LIST_LIMIT, type ParsedListInput } from './schemas.js';
import { browseSortKey, compareCodePoints } from './sort-key.js';

/** One page of a browse: `nextCursor` is null on the last page. */
export interface ListResult {
  items: MemoryView[];
  nextCursor: string | null;
}

/** Which scopes a browse sees, as parsed. */
export type ScopeSelectionInput = Pick<ParsedListInput, 'scopes' | 'tenant' | 'allScopes'>;

/** The scopes a selection names: the listed ones, or the existing scopes of a tenant or of the whole store. */
export async function selectedScopes(store: StoreReader, selection: ScopeSelectionInput): Promise<readonly Scope[]> {
  if (selection.scopes !== undefined) return assertReadScopes(selection.scopes);
  if (selection.tenant !== undefined) return store.listScopes({ tenants: [selection.tenant] });
  return store.listScopes('all');
}

/** The filter part of a parsed browse input, as the store takes it. */
export function browseFilterOf(input: BrowseFilter): BrowseFilter {
  const filter: BrowseFilter = {};
  if (input.layers !== undefined) filter.layers = [...new Set(input.layers)];
  if (input.statuses !== undefined) filter.statuses = [...new Set(input.statuses)];
  for (const field of ['tag', 'entity', 'text'] as const) if (input[field] !== undefined) filter[field] = input[field];
  for (const field of ['validFrom', 'validTo', 'recordedFrom', 'recordedTo'] as const)
    if (input[field] !== undefined) filter[field] = input[field];
  return filter;
}

/** One page of records of the selected scopes (see `listInputSchema`); `now` is the instant `asOf` / `knownAt` default to. */
export async function listPage(store: StoreReader, input: ParsedListInput, now: number): Promise<ListResult> {
  const sort = input.sort ?? 'recordedAt';
  const order = input.order ?? 'desc';
  const limit = input.limit ?? DEFAULT_LIST_LIMIT;
  const filter = browseFilterOf(input);
  const fingerprint = listFingerprint(input, filter, [input.asOf ?? null, input.knownAt ?? null]);
  // the cursor is checked before any read, so a bad one costs nothing
  const after = input.cursor !== undefined ? decodeCursor(input.cursor, { sort, order, fingerprint }) : undefined;
  const scopes = await selectedScopes(store, input);
  if (scopes.length === 0) return { items: [], nextCursor: null };
  const visibleAt =
    input.asOf !== undefined || input.knownAt !== undefined
      ? {
          now,
          ...(input.asOf !== undefined ? { asOf: input.asOf } : {}),
          ...(input.knownAt !== undefined ? { knownAt: input.knownAt } : {}),
        }
      : undefined;
  const query: BrowseQuery = {
    scopes,
    ...filter,
    sort,
    order,
    limit: limit + 1,
    ...(after !== undefined ? { after } : {}),
    ...(visibleAt !== undefined ? { visibleAt } : {}),
  };
  const records = await store.browseMemories(query);
  const page = records.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    records.length > limit && last !== undefined
      ? encodeCursor({ sort, order, fingerprint, key: browseSortKey(last, sort), id: last.id })
      : null;
  return { items: page.map(toMemoryView), nextCursor };
}

/** Every record of `scope` under `filter` (any status unless filtered), in pages of 1000: what a purge by filter selects. */
export async function allMatching(store: StoreReader, scope: Scope, filter: BrowseFilter): Promise<MemoryRecord[]> {
  const found: MemoryRecord[] = [];
  let after: { key: number; id: string } | undefined;
  for (;;) {
    const page = await store.browseMemories({
      scopes: [scope],
      ...filter,
      sort: 'recordedAt',
      order: 'asc',
      limit: 1000,
      ...(after !== undefined ? { after } : {}),
    });
    found.push(...page);
    const last = page[page.length - 1];
    if (page.length < 1000 || last === undefined) return found;
    after = { key: last.recordedAt, id: last.id };
  }
}

/** The scopes of a selection that hold records, with their counts. */
export async function scopeSummaries(store: StoreReader, selection: ScopeSelectionInput): Promise<ScopeSummary[]> {
  const scopes = await selectedScopes(store, selection);
  if (scopes.length === 0) return [];
  const summaries = await store.summarizeScopes(scopes);
  return summaries.sort((a, b) => compareCodePoints(a.scope, b.scope));
}

/** What a cursor is bound to: the selection and filters (not the page size). */
function listFingerprint(selection: ScopeSelectionInput, filter: BrowseFilter, instants: [number | null, number | null]): string {
  const scopes =
    selection.scopes === undefined
      ? null
      : [...new Set(Array.isArray(selection.scopes) ? selection.scopes : [selection.scopes])].sort(compareCodePoints);
  const canonical = {
    scopes,
    tenant: selection.tenant ?? null,
    all: selection.allScopes === true,
    layers: filter.layers === undefined ? null : [...filter.layers].sort(),
    statuses: filter.statuses === undefined ? null : [...filter.statuses].sort(),
    tag: filter.tag ?? null,
    entity: filter.entity ?? null,
    text: filter.text ?? null,
    valid: [filter.validFrom ?? null, filter.validTo ?? null],
    recorded: [filter.recordedFrom ?? null, filter.recordedTo ?? null],
    // absent on lists without instants, so their cursors stay what they were
    ...(instants[0] !== null || instants[1] !== null ? { at: instants } : {}),
  };
  return fnv1a(JSON.stringify(canonical));
}
