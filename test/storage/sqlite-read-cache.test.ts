/**
 * The SQLite read connection's record cache (`read-cache.ts`): records read again come from it, a
 * commit by this store, another store on the same file or another process drops it, the scope rule
 * holds for held records, and the records it hands out cannot be changed by a caller.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { ReadCache } from '../../src/storage/sqlite/read-cache.js';
import { T0, makeEdge, makeRecord, withVectors } from '../contract/store-fixtures.js';
import { CONTRACT_DIMENSION } from '../contract/store.contract.js';

const EMBEDDING = { name: 'contract', dimension: CONTRACT_DIMENSION };

describe('SQLite record cache', () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  let other: SqliteStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-record-cache-'));
    path = join(dir, 'engram.db');
    store = await openSqliteStore({ path, embedding: EMBEDDING });
    other = await openSqliteStore({ path, embedding: EMBEDDING });
  });
  afterEach(async () => {
    await Promise.all([store.close(), other.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function insert(contents: readonly string[], scope = 'acme/a', thread = 't1'): Promise<string[]> {
    const records = contents.map((content, i) =>
      makeRecord({ scope, content, occurredAt: T0 + i * 1000, data: { context: { sessionId: thread } } }),
    );
    await store.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, records)));
    return records.map((r) => r.id);
  }

  it('keeps a record read a second time and hands it back without reading it again while nothing is committed', async () => {
    const ids = await insert(['first note', 'second note', 'third note']);
    const first = await store.getMemories(ids, ['acme/a']);
    // read once: only noted, handed back as read
    expect(store.readCacheUsage?.records).toBe(0);
    expect(Object.isFrozen(first[0])).toBe(false);
    const second = await store.getMemories(ids, ['acme/a']);
    expect(store.readCacheUsage?.records).toBe(3);
    const third = await store.getMemories([...ids].reverse(), ['acme/a']);
    expect(third.map((r) => r.id)).toEqual([...ids].reverse());
    // the same objects: the third read was answered from the cache
    for (const record of third) expect(second).toContain(record);
    expect(store.readCacheUsage?.hits).toBe(3);
  });

  it('drops what it holds when this store, another store on the file or another process commits', async () => {
    const [id] = await insert(['the kettle is blue']);
    const read = async () => (await store.getMemories([id as string], ['acme/a']))[0]?.content;
    expect(await read()).toBe('the kettle is blue');

    await store.transaction((tx) => tx.updateMemory(id as string, 'acme/a', { content: 'the kettle is red', updatedAt: T0 + 1 }));
    expect(await read()).toBe('the kettle is red');

    await other.transaction((tx) => tx.updateMemory(id as string, 'acme/a', { content: 'the kettle is green', updatedAt: T0 + 2 }));
    expect(await read()).toBe('the kettle is green');

    execFileSync(process.execPath, [
      '-e',
      `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(path)}); db.prepare("UPDATE memories SET content = 'the kettle is black' WHERE id = ?").run(${JSON.stringify(id)}); db.close();`,
    ]);
    expect(await read()).toBe('the kettle is black');
  });

  it('answers part scores as a store without the cache does, until and after another store commits new parts', async () => {
    const ids = await insert([
      'one. two three four five. six seven eight nine.',
      'alpha',
      'beta gamma delta epsilon. zeta eta theta iota.',
    ]);
    const [otherScope] = await insert(['elsewhere'], 'acme/b');
    const uncached = await openSqliteStore({ path, embedding: EMBEDDING, readCacheRecords: 0 });
    try {
      const unit = (seed: number): Float32Array => {
        const v = Float32Array.from({ length: CONTRACT_DIMENSION }, (_, i) => Math.sin(seed * 7.3 + i * 1.1));
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      };
      const entries = async (seed: number) =>
        (await store.getMemories(ids, ['acme/a'])).map((r, i) => ({
          id: r.id,
          scope: r.scope,
          content: r.content,
          parts: i === 1 ? [] : [unit(seed + i), unit(seed + i + 10)],
        }));
      // both sets of parts are made before any part read, so nothing but partScores reads between the commits
      const [first, second] = [await entries(1), await entries(50)];
      await store.transaction((tx) => tx.setPartVectors(first));
      const query = { scopes: ['acme/a'], ids: [...ids, otherScope as string], vector: unit(99) };
      const expected = await uncached.partScores(query);
      expect([...expected.keys()].sort()).toEqual([ids[0], ids[2]].sort());
      const hitsBefore = store.readCacheUsage?.answerHits ?? 0;
      for (let round = 0; round < 3; round++) expect(await store.partScores(query)).toEqual(expected);
      // the blobs (and the record without parts) came from the cache on the later rounds
      expect((store.readCacheUsage?.answerHits ?? 0) - hitsBefore).toBeGreaterThanOrEqual(2 * 4);
      // never across scopes: the same ids read for acme/b find only its own record (which has no parts)
      expect((await store.partScores({ ...query, scopes: ['acme/b'] })).size).toBe(0);
      // another store on the file replaces the parts: the next read sees them
      await other.transaction((tx) => tx.setPartVectors(second));
      const changed = await store.partScores(query);
      expect(changed).toEqual(await uncached.partScores(query));
      expect(changed).not.toEqual(expected);
      expect(await store.getPartVectors(['acme/a'], ids)).toEqual(await uncached.getPartVectors(['acme/a'], ids));
    } finally {
      await uncached.close();
    }
  });

  it('keeps the scope rule for records it holds', async () => {
    const [a] = await insert(['a note of scope a'], 'acme/a');
    const [b] = await insert(['a note of scope b'], 'acme/b');
    expect(await store.getMemories([a as string, b as string], ['acme/a', 'acme/b'])).toHaveLength(2);
    // both are held now; a read naming one scope still gets only that scope's record
    const onlyA = await store.getMemories([a as string, b as string], ['acme/a']);
    expect(onlyA.map((r) => r.id)).toEqual([a]);
    expect(await store.getMemories([b as string], ['acme/c'])).toEqual([]);
  });

  it('hands out frozen records, nested values included', async () => {
    const [id] = await insert(['a frozen note']);
    await store.getMemories([id as string], ['acme/a']);
    const [record] = await store.getMemories([id as string], ['acme/a']);
    expect(() => {
      (record as { content: string }).content = 'changed';
    }).toThrow(TypeError);
    expect(record?.data.context?.sessionId).toBe('t1');
    expect(() => {
      (record?.data.context as Record<string, unknown>)['sessionId'] = 't2';
    }).toThrow(TypeError);
    expect(() => (record?.tags as string[]).push('x')).toThrow(TypeError);
    const [again] = await store.getMemories([id as string], ['acme/a']);
    expect(again?.content).toBe('a frozen note');
  });

  it("holds a scope's newest episode heads until a commit, and reads them again after one", async () => {
    await insert(['Ann: the kettle is blue', 'Bob: and the mug?']);
    const first = await store.recentEpisodeHeads({ scopes: ['acme/a'], limit: 10 });
    expect(first.map((h) => h.head)).toEqual(['Bob: and the mug?', 'Ann: the kettle is blue']);
    const hits = store.readCacheUsage?.scopeAnswerHits ?? 0;
    expect(await store.recentEpisodeHeads({ scopes: ['acme/a'], limit: 10 })).toEqual(first);
    expect(store.readCacheUsage?.scopeAnswerHits).toBe(hits + 1);
    // another limit or another scope set is another answer
    expect(await store.recentEpisodeHeads({ scopes: ['acme/a'], limit: 1 })).toEqual(first.slice(0, 1));
    expect(await store.recentEpisodeHeads({ scopes: ['acme/b'], limit: 10 })).toEqual([]);
    expect(store.readCacheUsage?.scopeAnswerHits).toBe(hits + 1);
    await other.transaction((tx) =>
      tx.insertMemories(
        withVectors(CONTRACT_DIMENSION, [makeRecord({ scope: 'acme/a', content: 'Cy: a teapot too', recordedAt: T0 + 60_000 })]),
      ),
    );
    const after = await store.recentEpisodeHeads({ scopes: ['acme/a'], limit: 10 });
    expect(after.map((h) => h.head)).toEqual(['Cy: a teapot too', 'Bob: and the mug?', 'Ann: the kettle is blue']);
    expect(store.readCacheUsage?.scopeAnswerHits).toBe(hits + 1);
  });

  it('serves the neighbours of a thread from its order held, and reads them again after a commit', async () => {
    const ids = await insert(['one', 'two', 'three', 'four', 'five']);
    const query = { scopes: ['acme/a'], ids: [ids[2] as string], window: 2, now: T0 + 10_000 };
    // the first read notes the thread's records, the second keeps them
    await store.getNeighbours(query);
    const found = await store.getNeighbours(query);
    expect(found.get(ids[2] as string)?.before.map((r) => r.content)).toEqual(['one', 'two']);
    expect(found.get(ids[2] as string)?.after.map((r) => r.content)).toEqual(['four', 'five']);
    const before = store.readCacheUsage;
    const again = await store.getNeighbours(query);
    expect(again.get(ids[2] as string)?.after.map((r) => r.content)).toEqual(['four', 'five']);
    // the thread's order was remembered and every record held: nothing was read from the table
    expect(store.readCacheUsage?.answerHits).toBe((before?.answerHits ?? 0) + 1);
    expect(store.readCacheUsage?.hits).toBeGreaterThan(before?.hits ?? 0);
    expect(store.readCacheUsage?.misses).toBe(before?.misses);

    await other.transaction((tx) => tx.updateMemory(ids[3] as string, 'acme/a', { content: 'FOUR', updatedAt: T0 + 1 }));
    const changed = await store.getNeighbours(query);
    expect(changed.get(ids[2] as string)?.after.map((r) => r.content)).toEqual(['FOUR', 'five']);
  });

  it('finds the same neighbours as the range reads, over threads short and long, timed and not, under every time filter', async () => {
    // the same rows in a :memory: store, which has no read cache and reads every side by range
    const plain = await openSqliteStore({ path: ':memory:', embedding: EMBEDDING });
    try {
      let seed = 11;
      const next = (): number => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const records = [];
      // threads of 1-40 rows, and one of 300 (longer than the cache keeps: read by range on both)
      const sizes = [1, 2, 5, 9, 17, 40, 300];
      for (const [t, size] of sizes.entries())
        for (let i = 0; i < size; i++) {
          const timed = next() < 0.8;
          const status = next() < 0.1 ? 'superseded' : next() < 0.05 ? 'decayed' : 'active';
          records.push(
            makeRecord({
              content: `turn ${i} of thread ${t}`,
              occurredAt: timed ? T0 + Math.floor(next() * 50) * 1000 : null,
              validFrom: T0 + Math.floor(next() * 20) * 1000,
              recordedAt: T0 + Math.floor(next() * 20) * 1000,
              validTo: next() < 0.15 ? T0 + Math.floor(next() * 40) * 1000 : null,
              invalidatedAt: next() < 0.1 ? T0 + Math.floor(next() * 40) * 1000 : null,
              status,
              data: { context: { sessionId: `thread-${t}` } },
            }),
          );
        }
      const rows = withVectors(CONTRACT_DIMENSION, records);
      await store.transaction((tx) => tx.insertMemories(rows));
      await plain.transaction((tx) => tx.insertMemories(rows));
      const filters = [
        {},
        { asOf: T0 + 10_000 },
        { knownAt: T0 + 12_000 },
        { includeSuperseded: true },
        { asOf: T0 + 30_000, knownAt: T0 + 8_000 },
      ];
      const shown = (found: Map<string, { before: { id: string }[]; after: { id: string }[] }>) =>
        [...found].map(([id, n]) => [id, n.before.map((r) => r.id), n.after.map((r) => r.id)]);
      let compared = 0;
      for (const filter of filters)
        for (const window of [1, 3, 10]) {
          const query = {
            scopes: ['acme/a'],
            ids: records.filter(() => next() < 0.3).map((r) => r.id),
            window,
            now: T0 + 60_000,
            ...filter,
          };
          const cached = shown(await store.getNeighbours(query));
          expect(cached).toEqual(shown(await plain.getNeighbours(query)));
          compared += cached.length;
        }
      expect(compared).toBeGreaterThan(500);
      expect(store.readCacheUsage?.answerHits).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
  });
});

describe('Recall hits from cached records', () => {
  it("are the caller's to change, and a change never reaches the next recall", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-read-cache-views-'));
    const engram = await Engram.open({ path: join(dir, 'engram.db'), embedder: 'hash' });
    try {
      await engram.remember({
        scope: 'acme/views',
        content: 'Maya: the ferry to Cacilhas leaves at nine',
        tags: ['travel'],
        context: { sessionId: 'trip' },
        source: { conversationId: 'trip', messageId: 'm1' },
      });
      const ask = async () => (await engram.recall('ferry to Cacilhas', { scopes: ['acme/views'], k: 3 })).hits[0];
      // three recalls: the record is noted, kept, then handed out from the cache
      await ask();
      await ask();
      const hit = await ask();
      expect(hit?.tags).toEqual(['travel']);
      hit?.tags.push('changed');
      (hit?.provenance.sources[0] as { messageId?: string }).messageId = 'changed';
      const next = await ask();
      expect(next?.tags).toEqual(['travel']);
      expect(next?.provenance.sources[0]?.messageId).toBe('m1');
    } finally {
      await engram.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite graph reads through the read cache', () => {
  let dir: string;
  let store: SqliteStore;
  let plain: SqliteStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-read-cache-graph-'));
    store = await openSqliteStore({ path: join(dir, 'engram.db'), embedding: EMBEDDING });
    // the same rows in a :memory: store, which has no read cache
    plain = await openSqliteStore({ path: ':memory:', embedding: EMBEDDING });
  });
  afterEach(async () => {
    await Promise.all([store.close(), plain.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers edges, concept refs both ways and relation types as the plain reads do, before and after a commit', async () => {
    let seed = 5;
    const next = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const scopes = ['acme/a', 'acme/b'];
    const records = Array.from({ length: 60 }, (_, i) => makeRecord({ scope: scopes[i % 2] as string, content: `record ${i}` }));
    const ids = (scope: string) => records.filter((r) => r.scope === scope).map((r) => r.id);
    const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)] as string;
    const edges = Array.from({ length: 90 }, () => {
      const scope = pick(scopes);
      return makeEdge(scope, pick(ids(scope)), pick(ids(scope)), { type: pick(['RELATED_TO', 'CAUSES', 'BRIDGES']), weight: next() });
    });
    const write = async (target: SqliteStore, edgesToWrite: typeof edges, withRecords: boolean) =>
      target.transaction(async (tx) => {
        if (withRecords) await tx.insertMemories(withVectors(CONTRACT_DIMENSION, records));
        await tx.insertEdges(edgesToWrite);
      });
    const refPlan = (round: number) =>
      scopes.flatMap((scope) => {
        const list = ids(scope);
        return [0, 1, 2, 3].map((c) => ({
          scope,
          conceptId: list[(c + round * 4) % list.length] as string,
          layer: c % 2 === 0 ? ('episodic' as const) : ('semantic' as const),
          refIds: list.filter(() => next() < 0.4),
          cap: 12,
        }));
      });
    const addRefs = async (target: SqliteStore, plan: ReturnType<typeof refPlan>) => {
      for (const input of plan) await target.transaction((tx) => tx.addConceptRefs(input));
    };
    const same = async () => {
      for (let q = 0; q < 30; q++) {
        const asked = records.filter(() => next() < 0.2).map((r) => r.id);
        const readScopes = q % 3 === 0 ? ['acme/a'] : scopes;
        const types = q % 4 === 0 ? ['CAUSES', 'BRIDGES'] : undefined;
        const layers = q % 5 === 0 ? (['semantic'] as const) : undefined;
        const edgeQuery = { scopes: readScopes, ids: asked, ...(types ? { types } : {}) };
        expect(await store.getEdges(edgeQuery)).toEqual(await plain.getEdges(edgeQuery));
        const refQuery = { scopes: readScopes, conceptIds: asked, ...(layers ? { layers } : {}) };
        expect(await store.getConceptRefs(refQuery)).toEqual(await plain.getConceptRefs(refQuery));
        const byRef = { scopes: readScopes, refIds: asked };
        expect(await store.findConceptsByRef(byRef)).toEqual(await plain.findConceptsByRef(byRef));
      }
    };
    const sameTypes = async () => expect(await store.getRelationTypes(scopes)).toEqual(await plain.getRelationTypes(scopes));
    await write(store, edges.slice(0, 60), true);
    await write(plain, edges.slice(0, 60), true);
    const first = refPlan(0);
    await addRefs(store, first);
    await addRefs(plain, first);
    await sameTypes();
    await same();
    await same();
    const answered = store.readCacheUsage?.answerHits ?? 0;
    expect(answered).toBeGreaterThan(50);
    // new edges, refs (some evicting older ones past the cap) and a relation type: the next reads see them
    await write(store, edges.slice(60), false);
    await write(plain, edges.slice(60), false);
    const second = refPlan(1);
    await addRefs(store, second);
    await addRefs(plain, second);
    const type = {
      name: 'MENTORS',
      symmetric: false,
      builtIn: false,
      proposedBy: 'test',
      description: null,
      registeredAt: T0,
      tenant: 'acme',
    };
    await store.transaction((tx) => tx.registerRelationType(type));
    await plain.transaction((tx) => tx.registerRelationType(type));
    await same();
    await sameTypes();
    expect((await store.getRelationTypes(scopes)).some((t) => t.name === 'MENTORS')).toBe(true);
  });
});

/** A cache of `records` fed one-off records until it turns itself off; `fresh` makes more of them. */
function switchedOff(records: number): { cache: ReadCache; fresh: () => ReturnType<typeof makeRecord> } {
  const cache = new ReadCache({ records });
  let n = 0;
  const fresh = () => makeRecord({ content: `one-off ${n++}` });
  for (let i = 0; i < 5000 && cache.usage.on; i++) {
    const record = fresh();
    if (cache.get(record.id) === undefined) cache.keep(record);
  }
  return { cache, fresh };
}

describe('ReadCache limits', () => {
  it('keeps the answers of different reads under the same id apart, and lets the older half go past its budget', () => {
    const cache = new ReadCache({ answers: 8 });
    cache.remember('edges\u0000["a"]', 'r1', ['e1']);
    cache.remember('refs\u0000["a"]', 'r1', ['c1']);
    expect(cache.answer('edges\u0000["a"]', 'r1')).toEqual(['e1']);
    expect(cache.answer('refs\u0000["a"]', 'r1')).toEqual(['c1']);
    expect(cache.answer('edges\u0000["b"]', 'r1')).toBeUndefined();
    // each answer weighs 1 + its length (2 here): the young generation holds two, then becomes the old one
    for (const id of ['r2', 'r3', 'r4', 'r5']) cache.remember('edges\u0000["a"]', id, [id]);
    expect(cache.usage.answers).toBe(4);
    expect(cache.answer('edges\u0000["a"]', 'r1')).toBeUndefined();
    expect(cache.answer('refs\u0000["a"]', 'r1')).toBeUndefined();
    // asked for again from the old generation (r2-r3): moved to a new young one, r4-r5 become the old, r2 goes
    expect(cache.answer('edges\u0000["a"]', 'r3')).toEqual(['r3']);
    expect(cache.usage.answers).toBe(3);
    expect(cache.answer('edges\u0000["a"]', 'r2')).toBeUndefined();
    expect(cache.answer('edges\u0000["a"]', 'r4')).toEqual(['r4']);
    // a value remembered is frozen
    expect(Object.isFrozen(cache.answer('edges\u0000["a"]', 'r5'))).toBe(true);
  });

  it('while off, counts an id as read again only when the same read asks for it again', () => {
    const { cache, fresh } = switchedOff(1000);
    expect(cache.usage.on).toBe(false);
    // each new id read as a record and by another read (its edges), eight times each (while off one
    // lookup in eight is looked at): the same id under two reads is not a working set read again
    for (let i = 0; i < 5000; i++) {
      const { id } = fresh();
      for (let k = 0; k < 8; k++) cache.get(id);
      for (let k = 0; k < 8; k++) cache.answer('edges\u0000["a"]', id);
    }
    expect(cache.usage.on).toBe(false);
  });

  it('holds answers about whole scopes while it is off, reads each once, and forgets them on clear', () => {
    const { cache } = switchedOff(1000);
    expect(cache.usage.on).toBe(false);
    let reads = 0;
    const read = () => {
      reads += 1;
      return [{ head: 'Ann: hello' }];
    };
    expect(cache.scopeAnswer('heads', read)).toEqual([{ head: 'Ann: hello' }]);
    expect(cache.scopeAnswer('heads', read)).toEqual([{ head: 'Ann: hello' }]);
    expect(reads).toBe(1);
    expect(Object.isFrozen(cache.scopeAnswer('heads', read))).toBe(true);
    expect(cache.usage.scopeAnswers).toBe(1);
    cache.clear();
    expect(cache.usage.scopeAnswers).toBe(0);
    cache.scopeAnswer('heads', read);
    expect(reads).toBe(2);
  });

  it('lets the older half go in one piece past its count budget; a record asked for again is kept as new', () => {
    const cache = new ReadCache({ records: 4 });
    const records = Array.from({ length: 7 }, (_, i) => makeRecord({ content: `record ${i}` }));
    const keep = (record: (typeof records)[number]) => {
      cache.keep(record);
      return cache.keep(record);
    };
    for (const record of records.slice(0, 6)) keep(record);
    // four held: two generations of two (4-5 young, 2-3 old)
    expect(cache.usage.records).toBe(4);
    expect(cache.get(records[0]?.id as string)).toBeUndefined();
    expect(cache.get(records[1]?.id as string)).toBeUndefined();
    // record 3 is asked for again: it becomes young, and the generation it joins pushes 4-5 to old
    expect(cache.get(records[3]?.id as string)?.content).toBe('record 3');
    keep(records[6] as (typeof records)[number]);
    // 2 went with the old generation; 3 (asked for) and 6 are young, 4-5 old
    expect(cache.get(records[2]?.id as string)).toBeUndefined();
    expect(cache.usage.records).toBe(4);
    for (const i of [6, 3]) expect(cache.get(records[i]?.id as string)?.content).toBe(`record ${i}`);
  });

  it('counts content characters against its character budget, and keeps no record larger than half of it', () => {
    const cache = new ReadCache({ records: 100, chars: 40 });
    const records = ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc', 'dddddddddd', 'eeeeeeeeee'].map((content) => makeRecord({ content }));
    for (const record of records) cache.keep(cache.keep(record));
    // 10 characters each against 40: at most four held, the newest among them
    expect(cache.usage.records).toBeLessThanOrEqual(4);
    expect(cache.get(records[4]?.id as string)?.content).toBe('eeeeeeeeee');
    expect(cache.get(records[0]?.id as string)).toBeUndefined();
    const big = makeRecord({ content: 'y'.repeat(21) });
    cache.keep(big);
    const huge = cache.keep(big);
    expect(Object.isFrozen(huge)).toBe(true);
    expect(cache.get(huge.id)).toBeUndefined();
  });

  it('turns itself off while few lookups are answered, and on again when the ids read come back', () => {
    // one-off reads: nothing asked for again
    const { cache, fresh } = switchedOff(1000);
    expect(cache.usage.on).toBe(false);
    // off: nothing kept, nothing answered
    const record = fresh();
    cache.keep(record);
    cache.keep(record);
    expect(cache.get(record.id)).toBeUndefined();
    expect(cache.usage.records).toBe(0);
    // a small working set read again and again: on again
    const working = Array.from({ length: 50 }, fresh);
    for (let i = 0; i < 20_000 && !cache.usage.on; i++) {
      const r = working[i % working.length] as (typeof working)[number];
      if (cache.get(r.id) === undefined) cache.keep(r);
    }
    expect(cache.usage.on).toBe(true);
    for (const r of working) cache.keep(cache.keep(r));
    expect(cache.get(working[0]?.id as string)?.id).toBe(working[0]?.id);
  });
});
