/**
 * The graph reads of recall's spreading activation (edges, concept refs both ways, relation types), the
 * SQLite store's one implementation of them. With a read cache that is on (`read-cache.ts`) each id's
 * answer is remembered until the next commit and only the ids not held are read; without one, every id
 * is read. Either way one statement reads the ids, and the rows come back once each in the table's
 * order (rowid, seq). A recall walks three waves of these from the same strong hits as the question
 * before it, and an empty answer (most records have no edges) cost as much as a full one.
 */
import type { Edge } from '../../core/memory.js';
import type { ConceptRef, ConceptRefQuery, EpisodeHead } from '../../core/ports/store.js';
import type { RelationType } from '../../core/relations.js';
import { assertReadScopes, type Scope } from '../../core/scope.js';
import { toConceptRef, type RefRow } from '../concept-ref-rows.js';
import type { ReadCache } from './read-cache.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { readRelationTypes } from './sqlite-relations.js';
import { recentEpisodeHeads } from './sqlite-browse.js';
import { EDGE_COLUMNS, inList, rowToEdge, visibilityClause, type EdgeRow } from './sqlite-rows.js';

interface Ordered<T> {
  /** The row's position in the plain read's order (rowid or seq). */
  readonly order: number;
  readonly value: T;
}

/**
 * The rows of `ids`: the remembered answers (key: kind, scopes, id) when the cache is on, the others
 * read with `read`, which returns each id's rows (an id it leaves out has none). Every row once, in order.
 */
function perId<T>(
  connection: SqliteConnection,
  cache: ReadCache | undefined,
  kind: string,
  scopes: readonly Scope[],
  ids: readonly string[],
  read: (missing: readonly string[]) => Map<string, Ordered<T>[]>,
): T[] {
  const held = cache?.active === true ? cache : undefined;
  held?.sync(connection);
  const group = `${kind}\u0000${JSON.stringify(scopes)}`;
  const lists: (readonly Ordered<T>[])[] = [];
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const answer = held?.answer<readonly Ordered<T>[]>(group, id);
    if (answer === undefined) missing.push(id);
    else lists.push(answer);
  }
  if (missing.length > 0) {
    const found = read(missing);
    for (const id of missing) {
      const rows = found.get(id) ?? [];
      lists.push(held === undefined ? rows : held.remember(group, id, rows));
    }
  }
  const seen = new Set<number>();
  const rows: Ordered<T>[] = [];
  for (const list of lists)
    for (const row of list) {
      if (seen.has(row.order)) continue;
      seen.add(row.order);
      rows.push(row);
    }
  return rows.sort((a, b) => a.order - b.order).map((row) => row.value);
}

function push<T>(lists: Map<string, Ordered<T>[]>, id: string, row: Ordered<T>): void {
  const list = lists.get(id);
  if (list === undefined) lists.set(id, [row]);
  else list.push(row);
}

/** Edges from or to any of `ids` in `scopes` (of `types` when given), by rowid. */
export function readEdges(
  connection: SqliteConnection,
  cache: ReadCache | undefined,
  query: { scopes: readonly Scope[]; ids: readonly string[]; types?: readonly string[] },
): Edge[] {
  const scopes = assertReadScopes(query.scopes);
  if (query.ids.length === 0 || query.types?.length === 0) return [];
  const edges = perId<Edge>(connection, cache, 'edges', scopes, query.ids, (missing) => {
    const ids = JSON.stringify(missing);
    const wanted = new Set(missing);
    const lists = new Map<string, Ordered<Edge>[]>();
    for (const row of connection.all<EdgeRow & { edge_rowid: number }>(
      `SELECT rowid AS edge_rowid, ${EDGE_COLUMNS} FROM edges WHERE rowid IN (
         SELECT rowid FROM edges WHERE ${inList('scope')} AND ${inList('from_id')}
         UNION SELECT rowid FROM edges WHERE ${inList('scope')} AND ${inList('to_id')}
       ) ORDER BY rowid`,
      JSON.stringify(scopes),
      ids,
      JSON.stringify(scopes),
      ids,
    )) {
      const edge = rowToEdge(row);
      const ordered = { order: row.edge_rowid, value: edge };
      if (wanted.has(edge.fromId)) push(lists, edge.fromId, ordered);
      if (wanted.has(edge.toId) && edge.toId !== edge.fromId) push(lists, edge.toId, ordered);
    }
    return lists;
  });
  return query.types === undefined ? edges : edges.filter((edge) => query.types?.includes(edge.type));
}

/** The refs of the concepts `query.conceptIds` (of `query.layers` when given), by seq. */
export function readConceptRefs(connection: SqliteConnection, cache: ReadCache | undefined, query: ConceptRefQuery): ConceptRef[] {
  const scopes = assertReadScopes(query.scopes);
  if (query.conceptIds.length === 0 || query.layers?.length === 0) return [];
  const refs = perId<ConceptRef>(connection, cache, 'refs', scopes, query.conceptIds, (missing) => {
    const lists = new Map<string, Ordered<ConceptRef>[]>();
    for (const row of connection.all<RefRow & { seq: number }>(
      `SELECT seq, scope, concept_id, layer, ref_id FROM concept_refs WHERE ${inList('scope')} AND ${inList('concept_id')} ORDER BY seq`,
      JSON.stringify(scopes),
      JSON.stringify(missing),
    ))
      push(lists, row.concept_id, { order: row.seq, value: toConceptRef(row) });
    return lists;
  });
  const wanted = query.layers === undefined ? refs : refs.filter((ref) => query.layers?.includes(ref.layer));
  if (query.visibleAt === undefined || wanted.length === 0) return wanted;
  const visible = visibilityClause({}, query.visibleAt, 'm');
  const current = new Set(
    connection
      .all<{ id: string }>(
        `SELECT m.id FROM memories m WHERE ${inList('m.id')} AND ${inList('m.scope')} AND ${visible.sql}`,
        JSON.stringify([...new Set(wanted.map((ref) => ref.refId))]),
        JSON.stringify(scopes),
        ...visible.params,
      )
      .map((row) => row.id),
  );
  return wanted.filter((ref) => current.has(ref.refId));
}

/** The concepts whose refs hold any of `query.refIds`, by seq. */
export function readConceptsByRef(
  connection: SqliteConnection,
  cache: ReadCache | undefined,
  query: { scopes: readonly Scope[]; refIds: readonly string[] },
): ConceptRef[] {
  const scopes = assertReadScopes(query.scopes);
  if (query.refIds.length === 0) return [];
  return perId<ConceptRef>(connection, cache, 'refs-of', scopes, query.refIds, (missing) => {
    const lists = new Map<string, Ordered<ConceptRef>[]>();
    // The (scope, ref_id) index is named: the planner took the (scope, concept_id, …) index instead and
    // read every ref of the scope (21 ms a call at 200,000 refs against 0.09; the graph channel makes two a recall).
    for (const row of connection.all<RefRow & { seq: number }>(
      `SELECT seq, scope, concept_id, layer, ref_id FROM concept_refs INDEXED BY concept_refs_ref
       WHERE ${inList('scope')} AND ${inList('ref_id')} ORDER BY seq`,
      JSON.stringify(scopes),
      JSON.stringify(missing),
    ))
      push(lists, row.ref_id, { order: row.seq, value: toConceptRef(row) });
    return lists;
  });
}

/** The relation types the scopes' tenants see, remembered until the database changes. */
export function relationTypesOf(connection: SqliteConnection, cache: ReadCache | undefined, scopes: readonly Scope[]): RelationType[] {
  if (cache === undefined) return readRelationTypes(connection, scopes);
  cache.sync(connection);
  const key = `relation-types\u0000${JSON.stringify(assertReadScopes(scopes))}`;
  return [...cache.scopeAnswer<readonly RelationType[]>(key, () => readRelationTypes(connection, scopes))];
}

/** The scopes' newest episode heads (`recentEpisodeHeads`), remembered until the database changes. */
export function episodeHeadsOf(
  connection: SqliteConnection,
  cache: ReadCache | undefined,
  query: { scopes: readonly Scope[]; limit: number },
): EpisodeHead[] {
  if (cache === undefined) return recentEpisodeHeads(connection, query);
  cache.sync(connection);
  const key = `episode-heads\u0000${Math.floor(query.limit)}\u0000${JSON.stringify(assertReadScopes(query.scopes))}`;
  return [...cache.scopeAnswer<readonly EpisodeHead[]>(key, () => recentEpisodeHeads(connection, query))];
}
