/**
 * The change feeds derived indexes catch up from — `memory_changes` (the lexical index) and
 * `vector_changes` (the vector indexes, per scope) — and their pruning. Both only grew until pruned:
 *
 * - an entry is deleted only when no persisted index file still needs it (the lexical file's mark, each
 *   scope's ANN manifest mark) and it is older than the newest `retention` entries, so a live process a
 *   little behind still catches up entry by entry;
 * - every prune raises the feed's floor in `change_feed_floors` (schema migration 22) in the same
 *   transaction: entries below the floor may be gone. A reader whose high-water mark is below the floor
 *   minus one has missed entries and must rebuild instead of catching up (`feedFloor`);
 * - the entry at a persisted file's mark is kept (`seq < cut`), so the file's own check that the log
 *   still holds its mark keeps working.
 *
 * Deletes run in short write transactions of `batch` entries, so writers of other processes interleave.
 */
import { META_STAGING_NAME } from '../staging-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';

export type ChangeFeed = 'memory_changes' | 'vector_changes';

/** Entries deleted per write transaction. */
const PRUNE_BATCH = 5000;

/** The feed's floor for `scope` ('' for `memory_changes`): entries with `seq` below it may have been pruned. */
export function feedFloor(connection: SqliteConnection, feed: ChangeFeed, scope: string): number {
  return (
    connection.get<{ floor: number }>('SELECT pruned_below AS floor FROM change_feed_floors WHERE feed = ? AND scope = ?', feed, scope)
      ?.floor ?? 0
  );
}

/** Whether a reader of `feed` (for `scope`) at high-water mark `mark` has missed pruned entries. */
export function prunedPast(connection: SqliteConnection, feed: ChangeFeed, scope: string, mark: number): boolean {
  return feedFloor(connection, feed, scope) > mark + 1;
}

export interface PruneOptions {
  /** The newest entries of each feed that are always kept. */
  readonly retention: number;
  /** The high-water mark of the persisted lexical index file, if there is one: entries from it on are kept. */
  readonly lexicalMark: number | undefined;
  /** The high-water mark of `scope`'s persisted ANN file, if it has one. */
  readonly annMark: (scope: string) => number | undefined;
  readonly batch?: number;
}

export interface PruneResult {
  readonly memoryChanges: number;
  readonly vectorChanges: number;
  readonly lexicalChanges: number;
}

/**
 * Deletes the feed entries no reader needs any more (see the module comment), on a writable
 * connection outside any transaction; safe to run from several processes at once.
 */
export async function pruneChangeFeeds(connection: SqliteConnection, options: PruneOptions): Promise<PruneResult> {
  const batch = Math.max(1, options.batch ?? PRUNE_BATCH);
  const retention = Math.max(1, Math.floor(options.retention));
  const memoryTop = connection.snapshot(() => connection.get<{ m: number | null }>('SELECT max(seq) AS m FROM memory_changes')?.m ?? 0);
  let memoryCut = memoryTop - retention + 1;
  if (options.lexicalMark !== undefined) memoryCut = Math.min(memoryCut, options.lexicalMark);
  const memoryChanges = await pruneBelow(connection, { feed: 'memory_changes', scope: '', cut: memoryCut, batch });

  let vectorChanges = 0;
  const { scopes, top, staging } = connection.snapshot(() => ({
    scopes: connection.all<{ scope: string; top: number }>('SELECT scope, max(seq) AS top FROM vector_changes GROUP BY scope'),
    top: connection.get<{ m: number | null }>('SELECT max(seq) AS m FROM vector_changes')?.m ?? 0,
    staging: connection.get('SELECT 1 FROM meta WHERE key = ?', META_STAGING_NAME) !== undefined,
  }));
  // a re-embedding in progress compares staged vectors against the log from its own marks
  if (!staging) {
    for (const scope of scopes) {
      // each scope keeps its newest entry, so a caught-up reader's mark is never below the floor
      let cut = Math.min(top - retention + 1, scope.top);
      const annMark = options.annMark(scope.scope);
      if (annMark !== undefined) cut = Math.min(cut, annMark);
      vectorChanges += await pruneBelow(connection, { feed: 'vector_changes', scope: scope.scope, cut, batch });
    }
  }
  return { memoryChanges, vectorChanges, lexicalChanges: await pruneLexicalChanges(connection, batch) };
}

/** Deletes the feed's entries (of the scope) below `cut`, raising the floor with each batch. */
async function pruneBelow(
  connection: SqliteConnection,
  target: { feed: ChangeFeed; scope: string; cut: number; batch: number },
): Promise<number> {
  const { feed, scope, cut, batch } = target;
  if (cut <= feedFloor(connection, feed, scope) || cut <= 1) return 0;
  const scoped = feed === 'vector_changes';
  return inWriteBatches(connection, batch, () => {
    // the batch's last seq below the cut: the floor rises to just after it
    const last =
      connection.get<{ seq: number | null }>(
        `SELECT max(seq) AS seq FROM (SELECT seq FROM ${feed} WHERE ${scoped ? 'scope = ? AND ' : ''}seq < ? ORDER BY seq LIMIT ?)`,
        ...(scoped ? [scope, cut, batch] : [cut, batch]),
      )?.seq ?? null;
    const floor = last === null ? cut : Math.min(cut, last + 1);
    const removed =
      last === null
        ? 0
        : connection.run(`DELETE FROM ${feed} WHERE ${scoped ? 'scope = ? AND ' : ''}seq <= ?`, ...(scoped ? [scope, last] : [last]));
    connection.run(
      `INSERT INTO change_feed_floors (feed, scope, pruned_below) VALUES (?, ?, ?)
       ON CONFLICT (feed, scope) DO UPDATE SET pruned_below = max(pruned_below, excluded.pruned_below)`,
      feed,
      scope,
      floor,
    );
    return removed;
  });
}

/** `lexical_changes` only moves the scope statistics' generation (its newest id): everything else goes. */
async function pruneLexicalChanges(connection: SqliteConnection, batch: number): Promise<number> {
  return inWriteBatches(connection, batch, () =>
    connection.run(
      `DELETE FROM lexical_changes WHERE id IN (
         SELECT id FROM lexical_changes WHERE id < (SELECT max(id) FROM lexical_changes) ORDER BY id LIMIT ?)`,
      batch,
    ),
  );
}

/**
 * Runs `step` (which deletes at most `batch` rows and returns how many) in write transactions of its
 * own until a step deletes fewer: other processes' writers interleave between them. Returns the total.
 */
async function inWriteBatches(connection: SqliteConnection, batch: number, step: () => number): Promise<number> {
  let deleted = 0;
  for (;;) {
    await connection.beginImmediate();
    let removed: number;
    try {
      removed = step();
      connection.commit();
    } catch (error) {
      connection.rollbackQuietly();
      throw error;
    }
    deleted += removed;
    if (removed < batch) return deleted;
  }
}
