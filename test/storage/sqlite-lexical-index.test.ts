/**
 * The in-memory lexical index returns exactly what the FTS5 path returns (same ids, scores and
 * coverage, in the same order), for every scope, layer and time filter, and stays exact after writes
 * by another connection: inserts, text updates, status and validity changes, deletes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../src/core/memory.js';
import type { LexicalQuery, StoreTransaction } from '../../src/core/ports/store.js';
import { contentTerms } from '../../src/core/text/index.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { plainFtsTerms, plainText } from '../../src/storage/sqlite/lexical/lexical-tokens.js';
import { DAY, T0, makeRecord, seededVector, withVectors } from '../contract/store-fixtures.js';
import { CONTRACT_DIMENSION } from '../contract/store.contract.js';
import Database from 'better-sqlite3';
import { skewedWords } from '../helpers/skewed-words.js';

const EMBEDDING = { name: 'contract-test:8', dimension: CONTRACT_DIMENSION };
const WORDS = [
  'coffee',
  'coffees',
  'generous',
  'host',
  'deploy',
  'deployed',
  'deploying',
  'alice',
  'bob',
  'paris',
  'meeting',
  'garden',
  'running',
  'runner',
  'blue',
  'green',
  'report',
  'reports',
  'owns',
  'own',
  'noon',
  'dream',
  'budget',
  'kitchen',
  'mug',
  'rollout',
  'cluster',
];
const EXTRAS = [
  "Alice's café in Zürich serves crème brûlée",
  'v2.1 shipped to acme.com — finally',
  "don't forget the 1,500 euros",
  '東京 trip with Bob',
  'naïve coöperation at the Ærøskøbing garden',
  'the deploy — deployed at noon',
  'Ｆｕｌｌwidth coffee',
  'tab\tseparated coffee\nlines',
  'the \ufb01nance report: ｂｕｄｇｅｔ for the ｇａｒｄｅｎ',
  'Acme™ deploy ② at noon',
  '昨日、新しいｉＰｈｏｎｅ１５を買った coffee',
];

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('SQLite in-memory lexical index', () => {
  let dir: string;
  let writer: SqliteStore;
  let fts: SqliteStore;
  let indexed: SqliteStore;
  const next = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const sentence = (): string =>
    next() < 0.15
      ? pick(EXTRAS)
      : Array.from({ length: 2 + Math.floor(next() * 9) }, () => (next() < 0.3 ? pick(['the', 'a', 'and', 'of', 'to']) : pick(WORDS))).join(
          ' ',
        );

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-lexidx-'));
    const path = join(dir, 'engram.db');
    writer = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: Infinity });
    fts = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: Infinity });
    indexed = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: 0 });
  });
  afterEach(async () => {
    await Promise.all([writer.close(), fts.close(), indexed.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function insert(n: number): Promise<string[]> {
    const records = Array.from({ length: n }, () =>
      makeRecord({
        scope: pick(['acme/a', 'acme/a', 'acme/b', 'acme/c']),
        layer: pick(['episodic', 'episodic', 'semantic', 'procedural']),
        content: sentence(),
        tags: next() < 0.3 ? [pick(WORDS), pick(['ops', 'home', 'ｂｕｄｇｅｔ', 'ﬁnance'])] : [],
        entities: next() < 0.3 ? [pick(['Alice', 'Bob', 'VS Code', 'Zürich', 'Ｂｏｂ', 'Acme™'])] : [],
        validFrom: T0 + Math.floor(next() * 30) * DAY,
        recordedAt: T0 + Math.floor(next() * 30) * DAY,
        status: pick(['active', 'active', 'active', 'superseded', 'decayed', 'expired']),
        validTo: next() < 0.15 ? T0 + Math.floor(next() * 40) * DAY : null,
        invalidatedAt: next() < 0.1 ? T0 + Math.floor(next() * 40) * DAY : null,
      }),
    );
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, records)));
    return records.map((r) => r.id);
  }

  /** Every query shape against both stores: identical hits, and the index answered most of them. */
  async function expectSameResults(rounds: number): Promise<void> {
    const before = indexed.lexicalIndexUsage?.indexed ?? 0;
    const now = T0 + 31 * DAY;
    const shapes: Omit<LexicalQuery, 'terms'>[] = [
      { scopes: ['acme/a'], now, limit: 10 },
      { scopes: ['acme/a', 'acme/b'], now, limit: 5 },
      { scopes: ['acme/c'], now, limit: 60, layers: ['semantic', 'procedural'] },
      { scopes: ['acme/a', 'acme/c'], now, limit: 10, includeSuperseded: true },
      { scopes: ['acme/b'], now, limit: 10, asOf: T0 + 10 * DAY },
      { scopes: ['acme/a'], now, limit: 10, knownAt: T0 + 20 * DAY },
      { scopes: ['acme/a'], now, limit: 10, asOf: T0 + 35 * DAY, knownAt: T0 + 15 * DAY },
      { scopes: ['acme/none'], now, limit: 10 },
    ];
    for (let i = 0; i < rounds; i++) {
      const text = next() < 0.2 ? pick(EXTRAS) : sentence();
      const terms = contentTerms(text).map((term) => ({ term, ...(next() < 0.3 ? { weight: 0.5 + next() * 2 } : {}) }));
      for (const shape of shapes) {
        const query = { ...shape, terms, bm25: next() < 0.2 ? { k1: 0.9, b: 0.4 } : undefined };
        const expected = await fts.lexicalSearch(query);
        const actual = await indexed.lexicalSearch(query);
        expect(actual, `${text} ${JSON.stringify(shape)}`).toEqual(expected);
        for (const hit of actual) expect(hit.coverage).toBeGreaterThan(0);
        // the vector search's post-filter comes from the same index once it is built
        const vectorQuery = { ...shape, vector: seededVector(CONTRACT_DIMENSION, i + 1) };
        expect(await indexed.vectorSearch(vectorQuery)).toEqual(await fts.vectorSearch(vectorQuery));
      }
    }
    expect((indexed.lexicalIndexUsage?.indexed ?? 0) - before).toBeGreaterThan(rounds * 4);
  }

  it('returns the same hits, scores and coverage as FTS5 for every scope, layer and time filter', async () => {
    await insert(400);
    await expectSameResults(40);
    expect(indexed.lexicalIndexUsage?.rows).toBe(400);
  });

  it('stays exact after inserts, text updates, status and validity changes and deletes by another connection', async () => {
    const ids = await insert(300);
    await expectSameResults(5);
    await insert(80);
    for (const id of ids.slice(0, 40)) {
      const scope = (await writer.getMemories([id], ['acme/a', 'acme/b', 'acme/c']))[0]?.scope ?? 'acme/a';
      const change = next();
      if (change < 0.3)
        await writer.transaction((tx) =>
          tx.updateMemory(id, scope, { updatedAt: T0 + 40 * DAY, content: sentence(), tags: [pick(WORDS)] }),
        );
      else if (change < 0.5)
        await writer.transaction((tx) =>
          tx.updateMemory(id, scope, { updatedAt: T0 + 40 * DAY, status: pick(['active', 'superseded', 'decayed', 'deleted']) }),
        );
      else if (change < 0.7)
        await writer.transaction((tx) =>
          tx.updateMemory(id, scope, { updatedAt: T0 + 40 * DAY, validTo: T0 + 5 * DAY, invalidatedAt: T0 + 12 * DAY }),
        );
      else
        await writer.transaction((tx) =>
          tx.updateMemory(id, scope, { updatedAt: T0 + 40 * DAY, entities: ['Alice', 'coffee'], importance: 0.9 }),
        );
    }
    await expectSameResults(10);
    // a raw delete (as a migration or repair tool might do) reaches the index through the change feed
    const raw = new Database(join(dir, 'engram.db'));
    raw.prepare("DELETE FROM memories WHERE rowid IN (SELECT rowid FROM memories WHERE scope = 'acme/b' LIMIT 20)").run();
    raw.close();
    await expectSameResults(10);
  });

  it('answers a small scope of a large store from its own rows, with the same hits as FTS5', async () => {
    await insert(6000);
    // forty small scopes (one per user) beside the three large ones
    const small = Array.from({ length: 120 }, (_, i) =>
      makeRecord({
        scope: `acme/user-${i % 40}`,
        layer: pick(['episodic', 'semantic']),
        content: sentence(),
        entities: next() < 0.3 ? [pick(['Alice', 'Bob'])] : [],
        validFrom: T0 + Math.floor(next() * 30) * DAY,
        recordedAt: T0 + Math.floor(next() * 30) * DAY,
        status: pick(['active', 'active', 'superseded']),
      }),
    );
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, small)));
    await indexed.prepareLexicalIndex();
    // a text change after indexing moves a row to the index's delta, which the scope path reads too
    const changed = small[7] as MemoryRecord;
    const now = T0 + 31 * DAY;
    const check = async (rounds: number): Promise<void> => {
      for (let i = 0; i < rounds; i++) {
        const terms = contentTerms(sentence()).map((term) => ({ term }));
        for (const scopes of [[`acme/user-${i % 40}`], ['acme/user-7', 'acme/user-8'], ['acme/user-3', 'acme/b'], ['acme/a']]) {
          const query = { scopes, now, limit: 10, terms, ...(i % 3 === 0 ? { includeSuperseded: true } : {}) };
          expect(await indexed.lexicalSearch(query), `${JSON.stringify(terms)} ${scopes.join(',')}`).toEqual(
            await fts.lexicalSearch(query),
          );
        }
      }
    };
    await check(30);
    await writer.transaction((tx) =>
      tx.updateMemory(changed.id, changed.scope, { updatedAt: T0 + 40 * DAY, content: 'coffee garden deploy' }),
    );
    await check(10);
    const usage = indexed.lexicalIndexUsage;
    // most small-scope searches took the scope path; the large scopes' did not
    expect(usage?.byScope).toBeGreaterThan(40);
    expect(usage?.byScope).toBeLessThan(usage?.indexed ?? 0);
  });

  it("picks a small scope's first-stage candidates from its own rows as FTS5 picks them", async () => {
    // the query's words are in every row of a large scope, so their posting lists are long; the small
    // scope holds more matching rows than the first stage keeps (200), so which ones it keeps matters
    const big = Array.from({ length: 8000 }, (_, i) =>
      makeRecord({ scope: 'acme/big', content: `coffee garden deploy ${pick(WORDS)} ${i}`, validFrom: T0, recordedAt: T0 }),
    );
    const small = Array.from({ length: 400 }, () =>
      makeRecord({
        scope: 'acme/small',
        content: `${sentence()} ${Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(['coffee', 'garden', 'deploy'])).join(' ')}`,
        validFrom: T0,
        recordedAt: T0,
      }),
    );
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, [...big, ...small])));
    await indexed.prepareLexicalIndex();
    const before = indexed.lexicalIndexUsage?.byScope ?? 0;
    for (const words of [['coffee', 'garden', 'deploy'], ['coffee', 'coffee', 'garden'], ['deploy', 'kitchen'], ['garden']]) {
      const query = { scopes: ['acme/small'], now: T0 + DAY, limit: 60, terms: words.map((term) => ({ term })) };
      expect(await indexed.lexicalSearch(query), words.join(' ')).toEqual(await fts.lexicalSearch(query));
    }
    // all but "deploy kitchen" (kitchen's short list makes the posting walk cheap) took the scope path
    expect((indexed.lexicalIndexUsage?.byScope ?? 0) - before).toBeGreaterThanOrEqual(3);
  });

  it('builds in the background after the first search of a large store, which FTS5 answers meanwhile', async () => {
    await insert(5200);
    const path = join(dir, 'engram.db');
    const lazy = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: 5000 });
    try {
      const query = { scopes: ['acme/a'], now: T0 + 31 * DAY, limit: 10, terms: [{ term: 'coffee' }, { term: 'garden' }] };
      const first = await lazy.lexicalSearch(query);
      expect(first).toEqual(await fts.lexicalSearch(query));
      expect(lazy.lexicalIndexUsage).toMatchObject({ indexed: 0, fts: 1 });
      await lazy.prepareLexicalIndex();
      expect(await lazy.lexicalSearch(query)).toEqual(first);
      expect(lazy.lexicalIndexUsage).toMatchObject({ indexed: 1, rows: 5200 });
    } finally {
      await lazy.close();
    }
  });

  it('indexes a store below the threshold once its FTS5 searches have cost what a build would, never on a one-off search', async () => {
    const first = await insert(1000);
    const path = join(dir, 'engram.db');
    // the default threshold (5,000): a store of 1,000 rows starts on FTS5
    const small = await openSqliteStore({ path, embedding: EMBEDDING });
    try {
      const now = T0 + 31 * DAY;
      const queryOf = (i: number) => ({
        scopes: ['acme/a', 'acme/b'],
        now,
        limit: 10,
        terms: [{ term: WORDS[i % WORDS.length] as string }, { term: WORDS[(i * 7 + 3) % WORDS.length] as string }],
      });
      expect(await small.lexicalSearch(queryOf(0))).toEqual(await fts.lexicalSearch(queryOf(0)));
      // one search (a CLI command, a hook) never pays for a build
      expect(small.lexicalIndexUsage).toMatchObject({ indexed: 0, fts: 1, rows: 0 });
      let searches = 1;
      while ((small.lexicalIndexUsage?.indexed ?? 0) === 0 && searches < 5000) {
        const query = queryOf(searches++);
        expect(await small.lexicalSearch(query)).toEqual(await fts.lexicalSearch(query));
      }
      // built inline (no worker, no file) once FTS5 had cost ~0.06 ms a row; answers as FTS5 does since
      expect(small.lexicalIndexUsage).toMatchObject({ indexed: 1, rows: 1000, builds: 0, loads: 0 });
      expect(small.lexicalIndexUsage?.fts).toBe(searches - 1);
      for (let i = 0; i < 20; i++)
        expect(await small.lexicalSearch(queryOf(searches + i))).toEqual(await fts.lexicalSearch(queryOf(searches + i)));
      expect(small.lexicalIndexUsage?.indexed).toBe(21);
      // kept current through later writes, and never written to a file (a small store's is not read),
      // though a large store's index would start writing its file once over 5,000 changes ahead of none
      const added = await insert(2000);
      const records = await writer.getMemories([...first, ...added], ['acme/a', 'acme/b', 'acme/c']);
      await writer.transaction(async (tx) => {
        for (const record of records) await tx.updateMemory(record.id, record.scope, { updatedAt: T0 + 40 * DAY, content: sentence() });
      });
      for (let i = 0; i < 5; i++) expect(await small.lexicalSearch(queryOf(i))).toEqual(await fts.lexicalSearch(queryOf(i)));
      expect(small.lexicalIndexUsage).toMatchObject({ indexed: 26, rows: 3000 });
      for (let waited = 0; waited < 2000 && !existsSync(`${path}.lexical`); waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(`${path}.lexical`)).toBe(false);
    } finally {
      await small.close();
    }
  });

  it('tokenises plain text exactly like FTS5 porter unicode61', () => {
    const raw = new Database(':memory:');
    raw.exec(
      "CREATE VIRTUAL TABLE t USING fts5 (content, tags, entities, tokenize = 'porter unicode61'); CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')",
    );
    const texts = [
      "The deploy — deployed at noon, 1,500 ms; v2.1 (acme.com) don't “quoted” €5 50% #tag @user",
      'running runner runs ran generously generous hopping hoped',
      ...Array.from({ length: 50 }, () => sentence()),
    ].filter((text) => plainText(text));
    expect(texts.length).toBeGreaterThan(30);
    texts.forEach((text, i) =>
      raw
        .prepare('INSERT INTO t (rowid, content, tags, entities) VALUES (?, ?, ?, ?)')
        .run(i + 1, text, JSON.stringify([text.slice(0, 12)]), '["Alice","VS Code"]'),
    );
    const rows = raw.prepare('SELECT term, doc, col FROM v').all() as { term: string; doc: number; col: string }[];
    texts.forEach((text, i) => {
      const mine = plainFtsTerms(text, JSON.stringify([text.slice(0, 12)]), '["Alice","VS Code"]');
      const theirs = rows.filter((r) => r.doc === i + 1);
      expect(mine.length).toBe(theirs.length);
      const weights: Record<string, number> = { content: 1, tags: 0.5, entities: 0.25 };
      const expected = new Map<string, number>();
      for (const r of theirs) expected.set(r.term, (expected.get(r.term) ?? 0) + (weights[r.col] ?? 0));
      for (const [term, freq] of mine.terms) expect(freq, `${term} in ${text}`).toBe(expected.get(term));
    });
    raw.close();
  });
});

/**
 * Inside a write transaction the index holds only committed rows; the transaction's own inserts, text
 * and status changes and deletes are scored beside it. Two databases with the same rows, one searched
 * by FTS5 and one by the index, go through the same transaction: every search inside it, and after its
 * commit or rollback, answers the same on both.
 */
describe('SQLite in-memory lexical index inside a write transaction', () => {
  let dir: string;
  let plain: SqliteStore;
  let indexed: SqliteStore;
  const next = random(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const sentence = (): string =>
    next() < 0.1 ? pick(EXTRAS) : Array.from({ length: 2 + Math.floor(next() * 9) }, () => pick(WORDS)).join(' ');
  const record = (): ReturnType<typeof makeRecord> =>
    makeRecord({
      scope: pick(['acme/a', 'acme/a', 'acme/b']),
      layer: pick(['episodic', 'semantic', 'semantic', 'procedural']),
      content: sentence(),
      tags: next() < 0.3 ? [pick(WORDS)] : [],
      entities: next() < 0.3 ? [pick(['Alice', 'Bob', 'Zürich'])] : [],
      validFrom: T0 + Math.floor(next() * 30) * DAY,
      recordedAt: T0 + Math.floor(next() * 30) * DAY,
      status: pick(['active', 'active', 'active', 'superseded']),
    });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-lexidx-tx-'));
    plain = await openSqliteStore({ path: join(dir, 'fts.db'), embedding: EMBEDDING, lexicalIndexThreshold: Infinity });
    indexed = await openSqliteStore({ path: join(dir, 'indexed.db'), embedding: EMBEDDING, lexicalIndexThreshold: 0 });
    const memories = withVectors(CONTRACT_DIMENSION, Array.from({ length: 400 }, record));
    for (const store of [plain, indexed]) await store.transaction((tx) => tx.insertMemories(memories));
  });
  afterEach(async () => {
    await Promise.all([plain.close(), indexed.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Steps of one transaction, the same on both stores: writes, and searches whose hits are collected. */
  type Step = { write: (tx: StoreTransaction) => Promise<unknown> } | { search: LexicalQuery; vector: Float32Array };

  function script(existing: readonly MemoryRecord[]): Step[] {
    const now = T0 + 31 * DAY;
    const steps: Step[] = [];
    const search = (): void => {
      const text = sentence();
      const layers = next() < 0.5 ? (['semantic'] as const) : undefined;
      const shape = {
        scopes: next() < 0.7 ? ['acme/a'] : ['acme/a', 'acme/b'],
        now,
        limit: pick([6, 10, 60]),
        ...(layers ? { layers } : {}),
      };
      steps.push({
        search: { ...shape, terms: contentTerms(text).map((term) => ({ term })) },
        vector: seededVector(CONTRACT_DIMENSION, steps.length + 1),
      });
    };
    for (let round = 0; round < 12; round++) {
      const fresh = Array.from({ length: 1 + Math.floor(next() * 6) }, record);
      const memories = withVectors(CONTRACT_DIMENSION, fresh);
      steps.push({ write: (tx) => tx.insertMemories(memories) });
      search();
      const target = pick(existing);
      const change = next();
      const patch =
        change < 0.35
          ? { updatedAt: now, content: sentence(), tags: [pick(WORDS)] }
          : change < 0.7
            ? { updatedAt: now, status: pick(['superseded', 'active', 'decayed'] as const) }
            : { updatedAt: now, validTo: T0 + 5 * DAY, invalidatedAt: T0 + 12 * DAY };
      steps.push({ write: (tx) => tx.updateMemory(target.id, target.scope, patch) });
      // a row written earlier in this transaction changes too
      const own = fresh[0] as MemoryRecord;
      const rewritten = { updatedAt: now, content: sentence() };
      if (next() < 0.5) steps.push({ write: (tx) => tx.updateMemory(own.id, own.scope, rewritten) });
      if (next() < 0.3) {
        const gone = pick(existing);
        steps.push({ write: (tx) => tx.deleteMemories([gone.id], gone.scope) });
      }
      search();
      search();
    }
    return steps;
  }

  async function run(store: SqliteStore, steps: readonly Step[], outcome: 'commit' | 'rollback'): Promise<unknown[]> {
    const found: unknown[] = [];
    await store
      .transaction(async (tx) => {
        for (const step of steps) {
          if ('write' in step) await step.write(tx);
          else found.push(await tx.lexicalSearch(step.search), await tx.vectorSearch({ ...step.search, vector: step.vector }));
        }
        if (outcome === 'rollback') throw new Error('roll back');
      })
      .catch((error: unknown) => {
        if (outcome === 'commit') throw error;
      });
    return found;
  }

  for (const outcome of ['commit', 'rollback'] as const)
    it(`answers as FTS5 does for the transaction's own inserts, changes and deletes, and after its ${outcome}`, async () => {
      const existing = await indexed.listMemories({ scopes: ['acme/a', 'acme/b'], limit: 1000 });
      await indexed.prepareLexicalIndex();
      const steps = script(existing);
      const before = indexed.lexicalIndexUsage?.indexed ?? 0;
      const expected = await run(plain, steps, outcome);
      const actual = await run(indexed, steps, outcome);
      expect(actual.length).toBe(expected.length);
      for (let i = 0; i < expected.length; i++) expect(actual[i], `search ${i}`).toEqual(expected[i]);
      expect(expected.some((hits) => (hits as unknown[]).length > 0)).toBe(true);
      // the index answered the searches (FTS5 only those with a word it does not index, as outside a transaction)
      expect((indexed.lexicalIndexUsage?.indexed ?? 0) - before).toBeGreaterThanOrEqual((expected.length / 2) * 0.75);
      // afterwards (committed or rolled back) the index answers from what is committed, with nothing left over
      for (let i = 0; i < 20; i++) {
        const query = {
          scopes: ['acme/a', 'acme/b'],
          now: T0 + 31 * DAY,
          limit: 10,
          terms: contentTerms(sentence()).map((term) => ({ term })),
        };
        expect(await indexed.lexicalSearch(query)).toEqual(await plain.lexicalSearch(query));
      }
    });
});

/**
 * A large index skips the rows whose best possible score cannot make a search's candidates (MaxScore).
 * It must pick exactly the candidates scoring every holder picks: a store whose words follow a skewed
 * law (a few in most rows, most in few) holds far more matching rows than the 200 candidates, with
 * repeated words, tagged words, duplicate texts (equal scores, ordered by rowid), several scopes,
 * layers and time filters, then text changes, deletes and inserts by another connection. Three stores
 * read the same file: FTS5, the index skipping rows (`lexicalPruneRows: 0`) and the index scoring every
 * holder (`Infinity`).
 */
describe('SQLite in-memory lexical index skipping rows that cannot make the candidates', () => {
  let dir: string;
  let writer: SqliteStore;
  let fts: SqliteStore;
  let pruned: SqliteStore;
  let full: SqliteStore;
  const next = random(23);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // 600 made-up words; a word's chance falls steeply with its index
  const { word } = skewedWords(600, 'x', next);
  const texts: string[] = [];
  const sentence = (): string => {
    if (texts.length > 0 && next() < 0.05) return pick(texts);
    const words = Array.from({ length: 3 + Math.floor(next() * 22) }, word);
    if (next() < 0.2) words.push(words[0] as string, words[0] as string);
    const text = words.join(' ');
    texts.push(text);
    return text;
  };
  const record = (): MemoryRecord =>
    makeRecord({
      scope: pick(['acme/a', 'acme/a', 'acme/a', 'acme/b', 'acme/c']),
      layer: pick(['episodic', 'episodic', 'semantic', 'procedural']),
      content: sentence(),
      tags: next() < 0.2 ? [word()] : [],
      validFrom: T0 + Math.floor(next() * 30) * DAY,
      recordedAt: T0 + Math.floor(next() * 30) * DAY,
      status: pick(['active', 'active', 'active', 'active', 'superseded', 'decayed']),
      validTo: next() < 0.1 ? T0 + Math.floor(next() * 40) * DAY : null,
    });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-lexidx-prune-'));
    const path = join(dir, 'engram.db');
    writer = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: Infinity });
    fts = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: Infinity });
    pruned = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: 0, lexicalPruneRows: 0 });
    full = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: 0, lexicalPruneRows: Infinity });
  });
  afterEach(async () => {
    await Promise.all([writer.close(), fts.close(), pruned.close(), full.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function expectSameCandidates(rounds: number): Promise<void> {
    const now = T0 + 31 * DAY;
    const shapes: Omit<LexicalQuery, 'terms'>[] = [
      { scopes: ['acme/a'], now, limit: 10 },
      { scopes: ['acme/a', 'acme/b', 'acme/c'], now, limit: 5 },
      { scopes: ['acme/b'], now, limit: 60, layers: ['episodic', 'semantic'] },
      { scopes: ['acme/a', 'acme/c'], now, limit: 10, includeSuperseded: true },
      { scopes: ['acme/a'], now, limit: 10, asOf: T0 + 10 * DAY },
    ];
    for (let i = 0; i < rounds; i++) {
      const words = Array.from({ length: 1 + Math.floor(next() * 12) }, word);
      if (next() < 0.2) words.push(words[0] as string);
      const terms = contentTerms(words.join(' ')).map((term) => ({ term, ...(next() < 0.3 ? { weight: 0.5 + next() * 2 } : {}) }));
      for (const shape of shapes) {
        const query = { ...shape, terms };
        const expected = await fts.lexicalSearch(query);
        expect(await pruned.lexicalSearch(query), `${words.join(' ')} ${JSON.stringify(shape)}`).toEqual(expected);
        expect(await full.lexicalSearch(query)).toEqual(expected);
      }
    }
  }

  it('picks the same candidates as scoring every holder and FTS5, before and after changes by another connection', async () => {
    const first = Array.from({ length: 3000 }, record);
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, first)));
    await expectSameCandidates(25);
    // the searches skipped rows (the words are common enough) and the exhaustive index none
    const skipped = pruned.lexicalIndexUsage?.skipped ?? 0;
    expect(skipped).toBeGreaterThan(1000);
    expect(full.lexicalIndexUsage?.skipped).toBe(0);
    expect(pruned.lexicalIndexUsage?.fts).toBe(0);
    // text changes (rows the index scores from its delta), deletes, status changes and new rows
    for (const target of first.slice(0, 150)) {
      const change = next();
      if (change < 0.5)
        await writer.transaction((tx) => tx.updateMemory(target.id, target.scope, { updatedAt: T0 + 40 * DAY, content: sentence() }));
      else if (change < 0.7) await writer.transaction((tx) => tx.deleteMemories([target.id], target.scope));
      else await writer.transaction((tx) => tx.updateMemory(target.id, target.scope, { updatedAt: T0 + 40 * DAY, status: 'superseded' }));
    }
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, Array.from({ length: 300 }, record))));
    await expectSameCandidates(25);
    expect(pruned.lexicalIndexUsage?.skipped).toBeGreaterThan(skipped);
  });

  it('refuses a prune threshold that is not a number of rows', async () => {
    await expect(openSqliteStore({ path: join(dir, 'other.db'), embedding: EMBEDDING, lexicalPruneRows: -1 })).rejects.toThrow(
      /lexicalPruneRows/,
    );
  });
});
