/**
 * The statements of the SQLite store's hot and destructive paths seek the index made for them. Without
 * statistics SQLite's planner sometimes preferred an index on the scope alone and read every row of the
 * scope: the neighbour read of the turns without an event time (every anchor near its thread's start),
 * the concepts of a set of refs (twice a recall, from the graph channel), the move of a record's refs to
 * its successor (compression), and the deletes of refs and edges by either end (purge, expiry). Each of
 * those grew with the scope, not with the answer.
 *
 * The store runs as usual; every statement it executes is captured with its parameters (a hook on the
 * driver's `prepare`), and each statement of those paths is then explained with the same parameters.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { tempDir } from '../helpers/temp.js';

interface Executed {
  readonly sql: string;
  readonly params: unknown[];
}

const executed: Executed[] = [];
/** The statements of the writes, before the recall. */
const writeStatements: Executed[] = [];
type Prepare = (this: Database.Database, sql: string) => Database.Statement;
const prototype = Database.prototype as unknown as { prepare: Prepare };
const originalPrepare = prototype.prepare;

/** Records every statement run through `prepare`d statements (the store's only way to the database). */
function captureStatements(): void {
  prototype.prepare = function prepare(this: Database.Database, sql: string): Database.Statement {
    const statement = originalPrepare.call(this, sql);
    for (const method of ['all', 'get', 'run', 'iterate'] as const) {
      const run = statement[method] as (...params: unknown[]) => unknown;
      Object.defineProperty(statement, method, {
        value: (...params: unknown[]) => {
          executed.push({ sql, params });
          return run.apply(statement, params);
        },
      });
    }
    return statement;
  };
}

const SCOPE = 'acme/plans';
let path: string;
let cleanupDir: () => void;

beforeAll(async () => {
  const dir = tempDir();
  cleanupDir = dir.cleanup;
  path = join(dir.dir, 'engram.db');
  captureStatements();
  const embedder = new HashEmbedder();
  // without the read cache: the neighbours of a short thread are read by range, as a long thread's are
  const store = await openSqliteStore({ path, embedding: { name: embedder.name, dimension: embedder.dimension }, readCacheRecords: 0 });
  const engram = new Engram({ store, embedder });
  try {
    const start = Date.UTC(2026, 0, 5, 9);
    const turns = [];
    for (let session = 0; session < 4; session++) {
      for (let turn = 0; turn < 6; turn++) {
        const speaker = turn % 2 === 0 ? 'Maya' : 'Oskar';
        turns.push({
          scope: SCOPE,
          content: `${speaker}: the Lisbon trip ${session}, day ${turn}: the ferry to Cacilhas and the tram to Belém.`,
          // the first turn of each session has no event time: it sorts before the timed turns of its thread
          ...(turn === 0 ? {} : { occurredAt: new Date(start + (session * 24 + turn) * 3_600_000).toISOString() }),
          context: { sessionId: `trip-${session}` },
          perception: { people: [speaker] },
        });
      }
    }
    // a few turns written without a thread: their neighbours are the scope's unthreaded episodes in time
    for (let turn = 0; turn < 4; turn++)
      turns.push({
        scope: SCOPE,
        content: `Maya, later: the ferry to Cacilhas again, trip note ${turn}.`,
        occurredAt: new Date(start + (200 + turn) * 3_600_000 + turn * 60_000).toISOString(),
      });
    const written = await engram.remember(turns);
    await engram.processJobs({ scopes: [SCOPE] });
    await engram.relate({ scope: SCOPE, from: written[1]!.id, type: 'RELATED_TO', to: written[8]!.id });
    writeStatements.push(...executed.splice(0));
    const { hits } = await engram.recall('the ferry to Cacilhas on the Lisbon trip', { scopes: [SCOPE], k: 10 });
    expect(hits.length).toBeGreaterThan(0);
    // with it (the default): a short thread is read whole, in thread order, once
    const cachedStore = await openSqliteStore({ path, embedding: { name: embedder.name, dimension: embedder.dimension } });
    const cached = new Engram({ store: cachedStore, embedder });
    try {
      expect((await cached.recall('the ferry to Cacilhas on the Lisbon trip', { scopes: [SCOPE], k: 10 })).hits.map((h) => h.id)).toEqual(
        hits.map((h) => h.id),
      );
    } finally {
      await cached.close();
    }
    const refs = await store.findConceptsByRef({ scopes: [SCOPE], refIds: written.map((w) => w.id) });
    expect(refs.length).toBeGreaterThan(0);
    await store.transaction((tx) => tx.moveConceptRefs(refs[0]!.refId, written[20]!.id, SCOPE));
    await engram.purge({ scope: SCOPE, ids: [written[1]!.id, written[8]!.id], confirm: true });
  } finally {
    prototype.prepare = originalPrepare;
    await engram.close();
  }
});

afterAll(() => cleanupDir());

/** The plan's lines of every captured statement whose text matches `pattern` (at least one must run). */
function plansOf(pattern: RegExp): string[][] {
  const matching = executed.filter((e) => pattern.test(e.sql));
  expect(matching.length, `no statement matching ${pattern} ran`).toBeGreaterThan(0);
  const db = new Database(path, { readonly: true });
  try {
    return matching.map(({ sql, params }) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail),
    );
  } finally {
    db.close();
  }
}

describe('SQLite statements seek their own index', () => {
  it("a write's novelty read of a small scope reads the scope's index, not the table's end", () => {
    const sql = writeStatements.map((e) => e.sql);
    expect(sql.some((text) => /SELECT rowid FROM memories WHERE scope = \? ORDER BY rowid DESC/.test(text))).toBe(true);
    expect(sql.some((text) => /NOT INDEXED WHERE rowid >/.test(text))).toBe(false);
  });

  it('a neighbour read of the turns without an event time seeks the thread index', () => {
    const plans = plansOf(/m\.thread = \?.*m\.occurred_at IS NULL/s);
    for (const plan of plans) {
      expect(plan.join(' | ')).toMatch(/USING (COVERING )?INDEX memories_thread \(scope=\? AND thread=\? AND occurred_at=\?/);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("a short thread's order is read along the thread index, without sorting", () => {
    for (const plan of plansOf(/m\.thread = \?\s+ORDER BY m\.occurred_at, m\.id LIMIT/s)) {
      expect(plan.join(' | ')).toMatch(/INDEX memories_thread \(scope=\? AND thread=\?\)/);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("a scope's unthreaded episodes are read in time order along their own index, without sorting", () => {
    for (const plan of plansOf(
      /m\.thread IS NULL AND m\.layer = 'episodic' AND m\.occurred_at IS NOT NULL\s+ORDER BY m\.occurred_at, m\.id LIMIT/s,
    )) {
      expect(plan.join(' | ')).toMatch(/INDEX memories_unthreaded \(scope=\?/);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("a recall's sample of the scope's newest episodes (who speaks there) walks the scope's layer index, without sorting", () => {
    for (const plan of plansOf(/m\.layer = 'episodic' AND m\.status = 'active'\s+ORDER BY m\.recorded_at DESC/s)) {
      expect(plan.join(' | ')).toMatch(/INDEX memories_scope_layer_recorded \(scope=\? AND layer=\?\)/);
      expect(plan.join(' | ')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('a neighbour read of timed turns seeks the thread index from the anchor', () => {
    for (const plan of plansOf(/m\.thread = \?.*m\.occurred_at IS NOT NULL/s))
      expect(plan.join(' | ')).toMatch(/INDEX memories_thread \(scope=\? AND thread=\? AND .*\(occurred_at,id\)[<>]\(\?,\?\)/);
  });

  it('the concepts of a set of refs are found by ref, not by reading the scope', () => {
    for (const plan of plansOf(/FROM concept_refs.*WHERE.*ref_id IN/s))
      expect(plan.join(' | ')).toMatch(/INDEX concept_refs_ref \(scope=\? AND ref_id=\?\)/);
  });

  it("a record's refs move to its successor by seeking the ref index", () => {
    for (const plan of plansOf(/^DELETE FROM concept_refs.*ref_id = \? AND EXISTS/s))
      expect(plan[0]).toMatch(/INDEX concept_refs_ref \(scope=\? AND ref_id=\?\)/);
  });

  it('refs and edges of purged records are deleted by seeking each end', () => {
    const refPlans = plansOf(/^DELETE FROM concept_refs/);
    for (const plan of refPlans)
      expect(plan.join(' | ')).toMatch(/INDEX concept_refs_(member|order|ref) \(scope=\? AND (concept_id|ref_id)=\?\)/);
    const edgePlans = plansOf(/^DELETE FROM edges/);
    expect(edgePlans.map((plan) => plan.join(' | ')).join('\n')).toMatch(/edges_scope_from \(scope=\? AND from_id=\?\)/);
    for (const plan of edgePlans) expect(plan.join(' | ')).toMatch(/INDEX edges_scope_(from|to) \(scope=\? AND (from_id|to_id)=\?\)/);
  });
});
