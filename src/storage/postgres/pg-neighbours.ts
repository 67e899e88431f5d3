/**
 * Neighbour reads on PostgreSQL in two statements whatever the number of anchors: the anchors, then
 * every anchor's neighbours on both sides at once (a LATERAL index walk per anchor and side), instead of
 * two round trips per anchor — a recall asks for ~40 anchors, and each round trip costs more than the
 * index walk it carries.
 */
import type { MemoryRecord } from '../../core/memory.js';
import type { NeighbourQuery } from '../../core/ports/store.js';
import { neighbourBounds } from '../neighbour-reads.js';
import type { PgQueryable } from './pg-driver.js';
import { memoryColumns, Params, rowToMemory, visibilityClause, type MemoryRow, type Tables } from './pg-rows.js';

interface AnchorRow {
  id: string;
  scope: string;
  thread: string | null;
  occurred_at: number | null;
}

type Side = 'before' | 'after';

/** One neighbour as read: the anchor's position in the anchor list, the side, its order key and the record. */
type NeighbourRow = MemoryRow & { anchor_index: number; side: Side; order_key: number };

/** The neighbours of `query.ids`, per anchor in the order the anchor read returns them; each side in thread order. */
export async function readNeighbours(
  db: PgQueryable,
  t: Tables,
  query: NeighbourQuery,
): Promise<Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>> {
  const { scopes, window, gap, anchorCondition } = neighbourBounds(query);
  const result = new Map<string, { before: MemoryRecord[]; after: MemoryRecord[] }>();
  if (window === 0) return result;
  const anchors = (
    await db.query<AnchorRow>(
      `SELECT id, scope, thread, occurred_at FROM ${t.memories}
       WHERE id = ANY($1::text[]) AND scope = ANY($2::text[]) AND ${anchorCondition}`,
      [[...query.ids], [...scopes]],
    )
  ).rows.filter((a) => a.thread !== null || a.occurred_at !== null);
  if (anchors.length === 0) return result;
  for (const anchor of anchors) result.set(anchor.id, { before: [], after: [] });

  const p = new Params();
  const list = `unnest(${p.add(anchors.map((a) => a.id))}::text[], ${p.add(anchors.map((a) => a.scope))}::text[],
      ${p.add(anchors.map((a) => a.thread))}::text[], ${p.add(anchors.map((a) => (a.occurred_at === null ? -1 : Number(a.occurred_at))))}::bigint[])
      WITH ORDINALITY AS a(id, scope, thread, at, i)`;
  const visible = visibilityClause(query, query.now, 'm', p, t);
  const limit = p.add(window);
  const unthreaded = anchors.some((a) => a.thread === null);
  // only bound when an unthreaded walk uses it (a parameter no statement names is refused)
  const gapMs = unthreaded ? p.add(gap) : '';
  const columns = memoryColumns('m');
  // the same conditions, index order and bounds as one anchor's read, per anchor row
  const walk = (threaded: boolean, side: Side): string => {
    const comparison = side === 'before' ? '<' : '>';
    const order = side === 'before' ? 'DESC' : 'ASC';
    const key = threaded ? 'coalesce(m.occurred_at, -1)' : 'm.occurred_at';
    const where = threaded
      ? `m.thread = a.thread AND (coalesce(m.occurred_at, -1), m.id COLLATE "C") ${comparison} (a.at, a.id COLLATE "C")`
      : `m.thread IS NULL AND m.layer = 'episodic' AND m.occurred_at IS NOT NULL
         AND (m.occurred_at, m.id COLLATE "C") ${comparison} (a.at, a.id COLLATE "C")
         AND m.occurred_at ${side === 'before' ? `>= a.at - ${gapMs}::bigint` : `<= a.at + ${gapMs}::bigint`}`;
    return `SELECT a.i::int AS anchor_index, '${side}' AS side, n.* FROM ${list}
      CROSS JOIN LATERAL (
        SELECT ${columns}, ${key} AS order_key FROM ${t.memories} m
        WHERE m.scope = a.scope AND ${where} AND ${visible}
        ORDER BY ${key} ${order}, m.id COLLATE "C" ${order} LIMIT ${limit}
      ) n
      WHERE a.thread IS ${threaded ? 'NOT NULL' : 'NULL'}`;
  };
  const walks = [walk(true, 'before'), walk(true, 'after')];
  if (unthreaded) walks.push(walk(false, 'before'), walk(false, 'after'));
  const rows = (await db.query<NeighbourRow>(walks.join('\nUNION ALL\n'), p.values)).rows;
  // each side ascending in thread order (event time, then id in byte order, as COLLATE "C" compares)
  rows.sort((x, y) => Number(x.order_key) - Number(y.order_key) || Buffer.compare(Buffer.from(String(x.id)), Buffer.from(String(y.id))));
  for (const row of rows) {
    const anchor = anchors[Number(row.anchor_index) - 1];
    if (anchor !== undefined) result.get(anchor.id)?.[row.side].push(rowToMemory(row));
  }
  return result;
}
