/**
 * The rows an open write transaction wrote, for searches of the in-memory lexical index inside it. The
 * index holds committed rows only (a transaction may roll back, and other readers must not see its rows),
 * so a search inside a transaction asks the index for the committed rows, less the rowids the transaction
 * touched, and scores the transaction's versions of those rows beside them (`searchLexicalData`).
 *
 * Which rows: those above the index's highest rowid (inserted), and those `memory_changes` names after
 * the index's mark (changed or deleted), read through the writer. One instance lives as long as its
 * transaction and reads only what changed since its last search, so a batch of claims does not tokenise
 * the batch's rows again for every claim.
 */
import type { MemoryStatus } from '../../../core/memory.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { LEXICAL_ROW_COLUMNS, type SourceRow } from './lexical-data.js';
import type { PendingLexical, PendingLexicalRow } from './lexical-search.js';
import { ownTerms, plainRowFtsTerms, unplainFtsTerms } from './lexical-tokens.js';

export class PendingLexicalRows {
  /** The index state this overlay is relative to: its change-feed mark and highest rowid. */
  #base: { mark: number; maxRowid: number } | undefined;
  #lastSeq = 0;
  #lastRowid = 0;
  /** Touched rowid → its row in the transaction's view (`null`: deleted). */
  readonly #rows = new Map<number, PendingLexicalRow | null>();
  /** What the last read returned, while nothing changed since. */
  #last: PendingLexical | undefined;

  /**
   * The rows touched since the index's `mark` and `maxRowid`, read through `writer` (the transaction's
   * connection); `tokenizer` tokenises text FTS5's way (any connection: it writes only a temporary table).
   */
  read(writer: SqliteConnection, tokenizer: SqliteConnection, base: { mark: number; maxRowid: number }): PendingLexical {
    if (this.#base === undefined || this.#base.mark !== base.mark || this.#base.maxRowid !== base.maxRowid) {
      this.#base = { ...base };
      this.#lastSeq = base.mark;
      this.#lastRowid = base.maxRowid;
      this.#rows.clear();
      this.#last = undefined;
    }
    const changes = writer.all<{ seq: number; memory_rowid: number }>(
      'SELECT seq, memory_rowid FROM memory_changes WHERE seq > ? ORDER BY seq',
      this.#lastSeq,
    );
    const changed = new Set(changes.map((change) => change.memory_rowid));
    this.#lastSeq = changes[changes.length - 1]?.seq ?? this.#lastSeq;
    const rows = writer.all<SourceRow>(`SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE rowid > ? ORDER BY rowid`, this.#lastRowid);
    const again = [...changed].filter((rowid) => rowid <= this.#lastRowid);
    if (again.length > 0) {
      const found = writer.all<SourceRow>(
        `SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE rowid IN (SELECT value FROM json_each(?))`,
        JSON.stringify(again),
      );
      const seen = new Set(found.map((row) => row.rowid));
      for (const rowid of again) if (!seen.has(rowid)) this.#rows.set(rowid, null);
      rows.push(...found);
    }
    if (this.#last !== undefined && changes.length === 0 && rows.length === 0) return this.#last;
    for (const row of rows) this.#lastRowid = Math.max(this.#lastRowid, row.rowid);
    const tokenised = unplainFtsTerms(tokenizer, rows);
    for (const row of rows) {
      const own = ownTerms(row.content, row.tags, row.entities);
      this.#rows.set(row.rowid, {
        rowid: row.rowid,
        id: row.id,
        scope: row.scope,
        layer: row.layer,
        status: row.status as MemoryStatus,
        validFrom: row.valid_from,
        validTo: row.valid_to,
        recordedAt: row.recorded_at,
        invalidatedAt: row.invalidated_at,
        fts: tokenised.get(row.rowid) ?? plainRowFtsTerms(row),
        own: own.terms,
        bm25Length: row.term_count ?? own.length,
        termCount: row.term_count,
      });
    }
    const present = new Map<number, PendingLexicalRow>();
    for (const [rowid, row] of this.#rows) if (row !== null) present.set(rowid, row);
    this.#last = { masked: new Set(this.#rows.keys()), rows: present };
    return this.#last;
  }
}
