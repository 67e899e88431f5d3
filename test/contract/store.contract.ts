/**
 * The conformance suite of the `Store` port: every backend runs it, and a backend is done
 * when it passes. Backends may skip a test only by naming it with a reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEngramError, type EngramErrorCode } from '../../src/core/errors.js';
import fc from 'fast-check';
import { isVisible, type MemoryRecord, type MemoryStatus, type TimeFilter } from '../../src/core/memory.js';
import type { Store } from '../../src/core/ports/store.js';
import { registerRegistryContract } from './store-registry.contract.js';
import { registerTextContract } from './store-text.contract.js';
import { registerDumpContract } from './store-dump.contract.js';
import { registerPartsContract } from './store-parts.contract.js';
import { registerMentionsContract } from './store-mentions.contract.js';
import { DAY, T0, makeEdge, makeFullRecord, makeRecord, seededVector, vectorOf, withVectors } from './store-fixtures.js';

/** Vector length used by the suite. */
export const CONTRACT_DIMENSION = 8;

export interface StoreFixture {
  /** A new, empty store created for `embedding`. */
  store: Store;
  /** Closes `store` (if still open) and opens the same storage again with the same embedder. */
  reopen(): Promise<Store>;
  /** Deletes the storage; called after the last store is closed. */
  destroy(): Promise<void>;
}

export interface StoreContractOptions {
  name: string;
  createStore(embedding: { name: string; dimension: number }): Promise<StoreFixture>;
  /**
   * Every scope is searched by an approximate index whose search grows with the hits asked, so a
   * vector query's `widenTo` adds only the rows its search returned anyway.
   */
  approximate?: boolean;
  /** Test name → why this backend skips it. Unknown names fail the suite, so skips cannot go stale. */
  skip?: Readonly<Record<string, string>>;
}

const DIM = CONTRACT_DIMENSION;
const NOW = T0 + 30 * DAY;
const A = 'acme/a';
const B = 'acme/b';
const OTHER = 'other/a';

/** Registers the suite for one backend. */
export function runStoreContract(options: StoreContractOptions): void {
  describe(`Store contract: ${options.name}`, () => {
    const names = new Set<string>();
    let fixture: StoreFixture;
    let store: Store;

    const test = (name: string, fn: () => Promise<void>): void => {
      names.add(name);
      const reason = options.skip?.[name];
      if (reason !== undefined) it.skip(`${name} (skipped: ${reason})`, fn);
      else it(name, fn);
    };

    beforeEach(async () => {
      fixture = await options.createStore({ name: 'contract-test:8', dimension: DIM });
      store = fixture.store;
    });
    afterEach(async () => {
      await store.close();
      await fixture.destroy();
    });

    const insert = async (records: MemoryRecord[], vectors?: Float32Array[]): Promise<MemoryRecord[]> => {
      await store.transaction((tx) => tx.insertMemories(withVectors(DIM, records, vectors)));
      return records;
    };
    const ids = (hits: readonly { id: string }[]): string[] => hits.map((h) => h.id);
    const lexical = (terms: string[], extra: Partial<Parameters<Store['lexicalSearch']>[0]> = {}) =>
      store.lexicalSearch({ scopes: [A], now: NOW, limit: 10, terms: terms.map((term) => ({ term })), ...extra });
    const vector = (query: Float32Array, extra: Partial<Parameters<Store['vectorSearch']>[0]> = {}) =>
      store.vectorSearch({ scopes: [A], now: NOW, limit: 10, vector: query, ...extra });

    test('roundtrips every field of a record, nulls and JSON included', async () => {
      const full = makeFullRecord();
      const sparse = makeRecord({ importance: null, layer: 'procedural', content: 'x', data: {} });
      await insert([full, sparse]);
      expect(await store.getMemories([full.id, sparse.id], [A])).toStrictEqual([full, sparse]);
      await store.transaction(async (tx) => {
        expect(await tx.getMemories([full.id], [A])).toStrictEqual([full]);
      });
    });

    test('getMemories follows the order of ids and skips missing and out-of-scope ones', async () => {
      const [first, second] = await insert([makeRecord(), makeRecord()]);
      const [elsewhere] = await insert([makeRecord({ scope: B })]);
      const got = await store.getMemories([second!.id, 'missing', elsewhere!.id, first!.id, second!.id], [A]);
      expect(ids(got)).toEqual([second!.id, first!.id]);
      expect(await store.getMemories([], [A])).toEqual([]);
    });

    test('every read requires at least one valid scope', async () => {
      await insert([makeRecord()]);
      const reads: Array<() => Promise<unknown>> = [
        () => store.getMemories(['x'], []),
        () => store.listMemories({ scopes: [], limit: 10 }),
        () => store.lexicalSearch({ scopes: [], now: NOW, limit: 10, terms: [{ term: 'note' }] }),
        () => store.vectorSearch({ scopes: [], now: NOW, limit: 10, vector: vectorOf(DIM, 1) }),
        () => store.stats([]),
        () => store.getEdges({ scopes: [], ids: ['x'] }),
        () => store.getMemories(['x'], ['../etc']),
      ];
      for (const read of reads) await expectCode(read(), 'INVALID_INPUT');
    });

    test('getNeighbours walks a thread in order: untimed records first, then by event time and id', async () => {
      const thread = { context: { sessionId: 'chat/1' } };
      // ids increase in insertion order; two untimed turns, three turns at one instant, one later
      const records = [
        makeRecord({ data: thread, occurredAt: null }),
        makeRecord({ data: thread, occurredAt: null }),
        makeRecord({ data: thread, occurredAt: T0 + DAY }),
        makeRecord({ data: thread, occurredAt: T0 + DAY }),
        makeRecord({ data: thread, occurredAt: T0 + DAY }),
        makeRecord({ data: thread, occurredAt: T0 + 2 * DAY }),
        makeRecord({ data: { context: { sessionId: 'chat/2' } }, occurredAt: T0 + DAY }),
      ];
      await insert(records);
      const order = records.slice(0, 6).map((r) => r.id);
      const around = async (index: number, window: number) => {
        const got = (await store.getNeighbours({ scopes: [A], ids: [order[index]!], window, now: NOW })).get(order[index]!);
        return { before: ids(got?.before ?? []), after: ids(got?.after ?? []) };
      };
      expect(await around(3, 10)).toEqual({ before: order.slice(0, 3), after: order.slice(4) });
      expect(await around(3, 1)).toEqual({ before: [order[2]], after: [order[4]] });
      expect(await around(2, 2)).toEqual({ before: order.slice(0, 2), after: order.slice(3, 5) });
      expect(await around(1, 3)).toEqual({ before: [order[0]], after: order.slice(2, 5) });
      expect(await around(0, 1)).toEqual({ before: [], after: [order[1]] });
      expect(await around(5, 2)).toEqual({ before: order.slice(3, 5), after: [] });
    });

    test('getNeighbours of many turns of a thread at once equals asking for each alone, long threads included', async () => {
      const turns = (session: string, count: number, extra: (i: number) => Partial<MemoryRecord> = () => ({})) =>
        Array.from({ length: count }, (_, i) =>
          makeRecord({ data: { context: { sessionId: session } }, occurredAt: i < 2 ? null : T0 + Math.floor(i / 3) * DAY, ...extra(i) }),
        );
      // a short thread with a deleted turn and a turn not valid yet; a thread longer than one whole read
      const short = turns('chat/short', 12, (i) => (i === 5 ? { status: 'deleted' } : i === 8 ? { validFrom: NOW + DAY } : {}));
      const long = turns('chat/long', 230);
      await insert([...short, ...long]);
      const asked = [short[0]!, short[3]!, short[5]!, short[6]!, short[11]!, long[1]!, long[100]!, long[101]!, long[229]!].map((r) => r.id);
      for (const window of [1, 3]) {
        const together = await store.getNeighbours({ scopes: [A], ids: asked, window, now: NOW });
        for (const id of asked) {
          const alone = (await store.getNeighbours({ scopes: [A], ids: [id], window, now: NOW })).get(id);
          expect(together.get(id), `${id}, window ${window}`).toEqual(alone);
        }
        const middle = together.get(short[6]!.id)!;
        // the deleted turn and the turn not valid yet are skipped, not counted
        expect(middle.before.map((r) => r.id)).toEqual(window === 1 ? [short[4]!.id] : [short[2]!.id, short[3]!.id, short[4]!.id]);
        expect(middle.after.map((r) => r.id)).toEqual(window === 1 ? [short[7]!.id] : [short[7]!.id, short[9]!.id, short[10]!.id]);
      }
    });

    test('getNeighbours gives an unthreaded episode the unthreaded episodes of its scope within the gap', async () => {
      const MINUTE = 60_000;
      const records = [
        makeRecord({ occurredAt: T0 }),
        makeRecord({ occurredAt: T0 + 10 * MINUTE }),
        makeRecord({ occurredAt: T0 + 10 * MINUTE }),
        // a threaded turn, a semantic note and another scope's episode in between are not neighbours
        makeRecord({ occurredAt: T0 + 11 * MINUTE, data: { context: { sessionId: 'chat/1' } } }),
        makeRecord({ occurredAt: T0 + 12 * MINUTE, layer: 'semantic' }),
        makeRecord({ occurredAt: T0 + 13 * MINUTE, scope: B }),
        makeRecord({ occurredAt: T0 + 15 * MINUTE }),
        // three hours later: another conversation
        makeRecord({ occurredAt: T0 + 195 * MINUTE }),
        makeRecord({ occurredAt: null }),
      ];
      await insert(records);
      const [first, second, third, , , , fourth, later, untimed] = records.map((r) => r.id);
      const around = async (id: string, window: number, gapMs: number | undefined) => {
        const got = (
          await store.getNeighbours({ scopes: [A, B], ids: [id], window, now: NOW, ...(gapMs === undefined ? {} : { gapMs }) })
        ).get(id);
        return got === undefined ? undefined : { before: ids(got.before), after: ids(got.after) };
      };
      const HOUR = 60 * MINUTE;
      expect(await around(second!, 1, HOUR)).toEqual({ before: [first], after: [third] });
      expect(await around(third!, 3, HOUR)).toEqual({ before: [first, second], after: [fourth] });
      expect(await around(fourth!, 1, HOUR)).toEqual({ before: [third], after: [] });
      expect(await around(later!, 2, HOUR)).toEqual({ before: [], after: [] });
      expect(await around(first!, 5, 5 * MINUTE)).toEqual({ before: [], after: [] });
      // no gap, or no event time: no neighbours at all
      expect(await around(second!, 1, undefined)).toBeUndefined();
      expect(await around(second!, 1, 0)).toBeUndefined();
      expect(await around(untimed!, 1, HOUR)).toBeUndefined();
      // a scope outside the query is never read
      const outside = (await store.getNeighbours({ scopes: [B], ids: [second!], window: 1, now: NOW, gapMs: HOUR })).get(second!);
      expect(outside).toBeUndefined();
    });

    test('getNeighbours for many anchors at once answers each anchor as if it were asked alone', async () => {
      const MINUTE = 60_000;
      const chat = (id: string) => ({ data: { context: { sessionId: id } } });
      const records = [
        // two threads in A, interleaved in time, one turn superseded; a thread of the same key in B
        ...[0, 2, 4, 6, 8].map((m) => makeRecord({ ...chat('chat/1'), occurredAt: T0 + m * MINUTE })),
        ...[1, 3, 5, 7].map((m) => makeRecord({ ...chat('chat/2'), occurredAt: T0 + m * MINUTE })),
        makeRecord({ ...chat('chat/1'), occurredAt: T0 + 5 * MINUTE, status: 'superseded', validTo: T0 + DAY, invalidatedAt: T0 + DAY }),
        makeRecord({ ...chat('chat/1'), occurredAt: null }),
        ...[0, 3, 9].map((m) => makeRecord({ ...chat('chat/1'), scope: B, occurredAt: T0 + m * MINUTE })),
        // unthreaded episodes in A and B, two at the same instant, one far later, one untimed
        ...[1, 2, 2, 30, 200].map((m) => makeRecord({ occurredAt: T0 + m * MINUTE })),
        ...[2, 4].map((m) => makeRecord({ scope: B, occurredAt: T0 + m * MINUTE })),
        makeRecord({ occurredAt: null }),
        makeRecord({ occurredAt: T0 + 3 * MINUTE, layer: 'semantic' }),
      ];
      await insert(records);
      const all = records.map((r) => r.id);
      const query = { scopes: [A, B], window: 2, now: NOW, gapMs: 60 * MINUTE };
      const together = await store.getNeighbours({ ...query, ids: [...all, 'missing', all[0]!] });
      const shape = (got: { before: MemoryRecord[]; after: MemoryRecord[] } | undefined) =>
        got === undefined ? undefined : { before: ids(got.before), after: ids(got.after) };
      for (const id of all) {
        const alone = await store.getNeighbours({ ...query, ids: [id] });
        expect(shape(together.get(id)), id).toEqual(shape(alone.get(id)));
      }
      // every threaded record and every timed unthreaded episode anchors; the untimed episode and the note do not
      expect(together.size).toBe(records.length - 2);
      // in thread order: the untimed turn first; the superseded turn is not visible now
      expect(shape(together.get(all[1]!))).toEqual({ before: [all[10], all[0]], after: [all[2], all[3]] });
    });

    test('getNeighbours with records the caller holds (`known`) finds the same neighbours and records', async () => {
      const MINUTE = 60_000;
      const chat = (id: string) => ({ data: { context: { sessionId: id } } });
      const records = [
        ...[0, 1, 2, 3, 4, 5].map((m) => makeRecord({ ...chat('chat/1'), occurredAt: T0 + m * MINUTE })),
        makeRecord({ ...chat('chat/1'), occurredAt: T0 + 150_000, status: 'superseded', validTo: T0 + DAY, invalidatedAt: T0 + DAY }),
        makeRecord({ ...chat('chat/2'), occurredAt: T0 + 2 * MINUTE }),
        ...[1, 2, 3].map((m) => makeRecord({ occurredAt: T0 + m * MINUTE })),
      ];
      await insert(records);
      const all = records.map((r) => r.id);
      const query = { scopes: [A], window: 3, now: NOW, gapMs: 60 * MINUTE, ids: [all[1]!, all[3]!, all[9]!] };
      const plain = await store.getNeighbours(query);
      // the caller holds some neighbours, an invisible record and one of another thread: neither of the
      // last two may become a neighbour for being held
      const held = await store.getMemories([all[0]!, all[2]!, all[6]!, all[7]!, all[10]!], [A]);
      const withKnown = await store.getNeighbours({ ...query, known: new Map(held.map((r) => [r.id, r])) });
      expect([...withKnown.keys()].sort()).toEqual([...plain.keys()].sort());
      for (const [id, got] of plain) expect(withKnown.get(id), id).toEqual(got);
      expect(ids(withKnown.get(all[3]!)?.before ?? [])).toEqual([all[0], all[1], all[2]]);
      expect(ids(withKnown.get(all[9]!)?.after ?? [])).toEqual([all[10]]);
    });

    test('every time-filtered read admits exactly what isVisible admits (property over statuses and both time axes)', async () => {
      const time = fc.integer({ min: 0, max: 8 }).map((h) => T0 + h * DAY);
      const shape = fc.record({
        status: fc.constantFrom<MemoryStatus>('active', 'superseded', 'decayed', 'expired', 'deleted'),
        recordedAt: time,
        validFrom: time,
        validTo: fc.option(time, { nil: null }),
        invalidatedAt: fc.option(time, { nil: null }),
      });
      const shapes = fc.sample(shape, { numRuns: 80, seed: 7 });
      const records = shapes.map((r) => makeRecord({ ...r, content: 'visibility probe', occurredAt: r.validFrom }));
      await insert(
        records,
        records.map(() => vectorOf(DIM, 1)),
      );
      // every third record's validity changed once or twice after it was recorded (belief intervals)
      const beliefs = records.flatMap((r, i) => {
        if (i % 3 !== 0) return [];
        const cut = r.recordedAt + (1 + (i % 4)) * DAY;
        const first = {
          memoryId: r.id,
          scope: r.scope,
          validFrom: r.validFrom - DAY,
          validTo: null,
          knownFrom: r.recordedAt,
          knownTo: cut,
        };
        const second = {
          memoryId: r.id,
          scope: r.scope,
          validFrom: r.validFrom,
          validTo: r.validFrom + 2 * DAY,
          knownFrom: cut,
          knownTo: cut + DAY,
        };
        return i % 2 === 0 ? [first, second] : [first];
      });
      expect(await store.transaction((tx) => tx.restoreBeliefs(beliefs))).toBe(beliefs.length);
      expect(await store.transaction((tx) => tx.restoreBeliefs(beliefs))).toBe(0);
      const history = await store.getBeliefs(
        records.map((r) => r.id),
        [A],
      );
      expect([...history.values()].flat()).toHaveLength(beliefs.length);
      const filter = fc.record({
        asOf: fc.option(time, { nil: undefined }),
        knownAt: fc.option(time, { nil: undefined }),
        includeSuperseded: fc.option(fc.boolean(), { nil: undefined }),
      });
      for (const f of fc.sample(filter, { numRuns: 40, seed: 11 })) {
        const clean = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as TimeFilter;
        const expected = records
          .filter((r) => isVisible(r, clean, NOW, history.get(r.id)))
          .map((r) => r.id)
          .sort();
        const query = { scopes: [A], now: NOW, limit: 200, ...clean };
        const temporal = await store.temporalSearch({ ...query, start: T0 - DAY, end: T0 + 10 * DAY });
        const lexicalHits = await store.lexicalSearch({ ...query, terms: [{ term: 'visibility probe' }] });
        const vectorHits = await store.vectorSearch({ ...query, vector: vectorOf(DIM, 1) });
        expect(ids(temporal).sort(), JSON.stringify(clean)).toEqual(expected);
        expect(ids(lexicalHits).sort(), JSON.stringify(clean)).toEqual(expected);
        expect(ids(vectorHits).sort(), JSON.stringify(clean)).toEqual(expected);
      }
      // a purged record's belief intervals go with it
      const purged = records.filter((_, i) => i % 3 === 0).map((r) => r.id);
      await store.transaction((tx) => tx.deleteMemories(purged, A));
      expect((await store.getBeliefs(purged, [A])).size).toBe(0);
    });

    test('temporal search keeps the newest `limit` of a window over several scopes, ties by id, hidden rows skipped', async () => {
      // 240 records over 12 event times (many tied), three scopes, a fifth of them not visible now
      const records = Array.from({ length: 240 }, (_, i) =>
        makeRecord({
          scope: [A, B, OTHER][i % 3] as string,
          layer: i % 7 === 0 ? 'semantic' : 'episodic',
          status: i % 5 === 0 ? 'deleted' : 'active',
          content: `temporal probe ${i}`,
          occurredAt: i % 11 === 0 ? null : T0 + (i % 12) * DAY,
          validFrom: T0 + (i % 4) * DAY,
        }),
      );
      await insert(records);
      const eventTime = (r: MemoryRecord): number => r.occurredAt ?? r.validFrom;
      const cases = [
        { scopes: [A, B], start: T0, end: T0 + 9 * DAY, limit: 10 },
        { scopes: [A, B], start: T0 + 2 * DAY, end: T0 + 12 * DAY, limit: 25 },
        { scopes: [B], start: T0 - DAY, end: T0 + 20 * DAY, limit: 7 },
        { scopes: [A], start: T0 + 3 * DAY, end: T0 + 4 * DAY, limit: 100 },
        { scopes: [A, B], start: T0, end: T0 + 12 * DAY, limit: 12, layers: ['episodic' as const] },
      ];
      for (const c of cases) {
        const expected = records
          .filter(
            (r) =>
              c.scopes.includes(r.scope) && isVisible(r, {}, NOW) && (c.layers === undefined || c.layers.includes(r.layer as 'episodic')),
          )
          .filter((r) => eventTime(r) >= c.start && eventTime(r) < c.end)
          .sort((x, y) => eventTime(y) - eventTime(x) || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
          .slice(0, c.limit)
          .map((r) => r.id);
        expect(expected.length, JSON.stringify(c)).toBeGreaterThan(0);
        const hits = await store.temporalSearch({ ...c, now: NOW });
        expect(ids(hits), JSON.stringify(c)).toEqual(expected);
      }
    });

    test('identical texts in several scopes never cross scopes', async () => {
      const claim = { claim: { subject: 'user', attribute: 'budget', value: '80' } };
      const same = (scope: string): MemoryRecord =>
        makeRecord({ scope, layer: 'semantic', content: 'the budget is eighty liters', sourceKey: 'conv:1', data: claim });
      const direction = vectorOf(DIM, 1, 1);
      const [a, b, other, nested] = await insert(
        [same(A), same(B), same(OTHER), same(`${A}/sub`)],
        [direction, direction, direction, direction],
      );
      const all = [a!.id, b!.id, other!.id, nested!.id];
      await store.transaction(async (tx) => {
        await tx.insertEdges([makeEdge(A, a!.id, a!.id), makeEdge(B, b!.id, b!.id)]);
      });

      expect(ids(await store.getMemories(all, [A]))).toEqual([a!.id]);
      expect(ids(await store.listMemories({ scopes: [A], limit: 10 }))).toEqual([a!.id]);
      expect(ids(await lexical(['budget']))).toEqual([a!.id]);
      expect(ids(await vector(direction))).toEqual([a!.id]);
      expect((await store.stats([A])).total).toBe(1);
      expect((await store.stats([A])).edges).toBe(1);
      expect([...(await store.findBySourceKey(A, ['conv:1'])).values()]).toEqual([a!.id]);
      expect(ids(await store.findClaims({ scope: A, layers: ['semantic'], subjects: ['user'], limit: 10 }))).toEqual([a!.id]);
      expect((await store.getEdges({ scopes: [A], ids: all })).map((e) => e.scope)).toEqual([A]);

      const both = [A, B];
      expect(new Set(ids(await store.getMemories(all, both)))).toEqual(new Set([a!.id, b!.id]));
      expect(new Set(ids(await lexical(['budget'], { scopes: both })))).toEqual(new Set([a!.id, b!.id]));
      expect(new Set(ids(await vector(direction, { scopes: both })))).toEqual(new Set([a!.id, b!.id]));
      expect((await store.stats(both)).total).toBe(2);

      await store.transaction(async (tx) => {
        expect(await tx.updateMemory(b!.id, A, { content: 'hijacked', updatedAt: NOW })).toBe(false);
        await expectCode(tx.updateEmbedding(b!.id, A, vectorOf(DIM, 0, 1)), 'NOT_FOUND');
        expect(ids(await tx.getMemories(all, [A]))).toEqual([a!.id]);
      });
      expect((await store.getMemories([b!.id], [B]))[0]).toStrictEqual(b);
      expect(ids(await vector(direction, { scopes: [B] }))).toEqual([b!.id]);
    });

    test('lexical search ranks by BM25, best first, with positive scores', async () => {
      const [dense, sparse] = await insert([
        makeRecord({ content: 'kitchen kitchen kitchen' }),
        makeRecord({ content: 'the robot walked past the kitchen on its long way to the garden shed at night' }),
        makeRecord({ content: 'a garden with roses' }),
        makeRecord({ content: 'the garage door is open' }),
        makeRecord({ content: 'lunch was served at noon' }),
      ]);
      const hits = await lexical(['kitchen']);
      expect(ids(hits)).toEqual([dense!.id, sparse!.id]);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      expect(hits[1]!.score).toBeGreaterThan(0);
      expect(await lexical(['kitchen'], { limit: 1 })).toHaveLength(1);
      expect(await lexical(['nonexistentword'])).toEqual([]);
      const either = await lexical(['kitchen', 'roses']);
      expect(either).toHaveLength(3);
    });

    test('lexical search stems words', async () => {
      const [runs] = await insert([makeRecord({ content: 'The dog runs every morning' }), makeRecord({ content: 'cats sleep all day' })]);
      expect(ids(await lexical(['running']))).toEqual([runs!.id]);
      expect(ids(await lexical(['RUN']))).toEqual([runs!.id]);
    });

    test('lexical search finds Chinese words inside unspaced text, in mixed text, and after an update', async () => {
      const [coffee, migration, project, english] = await insert([
        makeRecord({ content: '我喜欢喝咖啡，尤其是拿铁。' }),
        makeRecord({ content: '数据库迁移在周五失败了。' }),
        makeRecord({ content: '我的Python项目deadline是下周五。' }),
        makeRecord({ content: 'Coffee with oat milk every morning.' }),
      ]);
      expect(ids(await lexical(['咖啡']))).toEqual([coffee!.id]);
      expect(ids(await lexical(['迁移']))).toEqual([migration!.id]);
      // an unspaced query term is matched by its words
      expect(ids(await lexical(['数据库迁移']))).toEqual([migration!.id]);
      expect(ids(await lexical(['python']))).toEqual([project!.id]);
      expect(ids(await lexical(['项目', 'deadline']))).toEqual([project!.id]);
      expect(ids(await lexical(['coffee']))).toEqual([english!.id]);
      expect(await lexical(['咖啡馆老板'])).not.toContainEqual(expect.objectContaining({ id: migration!.id }));
      await store.transaction((tx) => tx.updateMemory(migration!.id, A, { content: '服务器升级已经完成。', updatedAt: NOW }));
      expect(await lexical(['迁移'])).toEqual([]);
      expect(ids(await lexical(['服务器']))).toEqual([migration!.id]);
      expect(ids(await lexical(['升级']))).toEqual([migration!.id]);
      expect(ids(await lexical(['咖啡']))).toEqual([coffee!.id]);
    });

    test('lexical search reads full-width letters and ligatures as the words they stand for, in content, tags and entities', async () => {
      const [tesla, finance, tagged, named, japanese, plain] = await insert([
        makeRecord({ content: 'Ｔｅｓｌａ earnings memo for the board' }),
        makeRecord({ content: 'The \ufb01nance report was late again' }),
        makeRecord({ content: 'first note', tags: ['ｈｏｌｉｄａｙ'] }),
        makeRecord({ content: 'second note', entities: ['Ｌｉｓｂｏｎ'] }),
        makeRecord({ content: '昨日、新しいｉＰｈｏｎｅを買った' }),
        makeRecord({ content: 'Nvidia earnings memo for the board, over budget' }),
      ]);
      expect(ids(await lexical(['tesla']))).toEqual([tesla!.id]);
      expect(ids(await lexical(['finance']))).toEqual([finance!.id]);
      expect(ids(await lexical(['holiday']))).toEqual([tagged!.id]);
      expect(ids(await lexical(['lisbon']))).toEqual([named!.id]);
      expect(ids(await lexical(['iphone']))).toEqual([japanese!.id]);
      // a query in those forms finds them and plain text alike
      expect(ids(await lexical(['Ｔｅｓｌａ']))).toEqual([tesla!.id]);
      expect(ids(await lexical(['ｂｕｄｇｅｔ']))).toEqual([plain!.id]);
      await store.transaction(async (tx) => {
        await tx.updateMemory(tesla!.id, A, { content: 'Ｓｐａｃｅｘ launch notes', updatedAt: NOW });
        await tx.updateMemory(tagged!.id, A, { tags: ['ｇａｒｄｅｎ'], updatedAt: NOW });
      });
      expect(await lexical(['tesla'])).toEqual([]);
      expect(ids(await lexical(['spacex']))).toEqual([tesla!.id]);
      expect(await lexical(['holiday'])).toEqual([]);
      expect(ids(await lexical(['garden']))).toEqual([tagged!.id]);
      await store.transaction((tx) => tx.deleteMemories([tesla!.id], A));
      expect(await lexical(['spacex'])).toEqual([]);
    });

    test('lexical search covers tags and entities', async () => {
      const [tagged, named] = await insert([
        makeRecord({ content: 'first note', tags: ['holiday'] }),
        makeRecord({ content: 'second note', entities: ['Lisbon'] }),
      ]);
      expect(ids(await lexical(['holiday']))).toEqual([tagged!.id]);
      expect(ids(await lexical(['lisbon']))).toEqual([named!.id]);
    });

    test('lexical search never fails on hostile input', async () => {
      const [target] = await insert([makeRecord({ content: 'quoted "text" AND stars * and colons: (parens) café 日本語' })]);
      await insert([makeRecord({ content: 'filler one' }), makeRecord({ content: 'filler two' }), makeRecord({ content: 'filler three' })]);
      const hostile = [
        '"',
        '""',
        "'",
        '"unbalanced',
        'AND',
        'OR',
        'NOT',
        'NEAR',
        'NEAR(a b)',
        'a AND',
        'OR b',
        '*',
        'a*',
        '*a',
        'col:term',
        'content:quoted',
        '(',
        ')',
        '(parens)',
        '^start',
        '-minus',
        '+plus',
        '{a b}',
        '[x]',
        '\\',
        "'; DROP TABLE memories; --",
        '',
        '   ',
        '\u200b',
        '😀',
        'naïve',
        'ﬁ',
        'a"b"c',
        '\u0000',
        'x'.repeat(5000),
      ];
      for (const term of hostile) {
        await expect(lexical([term]), `term ${JSON.stringify(term.slice(0, 20))}`).resolves.toBeInstanceOf(Array);
      }
      await expect(lexical(hostile)).resolves.toBeInstanceOf(Array);
      expect(ids(await lexical(['"quoted"', 'AND', '(parens)']))).toContain(target!.id);
      expect(ids(await lexical(['colons:']))).toEqual([target!.id]);
      expect(await lexical([])).toEqual([]);
    });

    test('lexical term weights change the ranking', async () => {
      const [apple, banana] = await insert([
        makeRecord({ content: 'an apple on the table' }),
        makeRecord({ content: 'a banana on the shelf' }),
        makeRecord({ content: 'nothing relevant here' }),
        makeRecord({ content: 'still nothing relevant' }),
      ]);
      const weighted = (appleWeight: number, bananaWeight: number) =>
        store.lexicalSearch({
          scopes: [A],
          now: NOW,
          limit: 10,
          terms: [
            { term: 'apple', weight: appleWeight },
            { term: 'banana', weight: bananaWeight },
          ],
        });
      expect(ids(await weighted(1, 3))).toEqual([banana!.id, apple!.id]);
      expect(ids(await weighted(3, 1))).toEqual([apple!.id, banana!.id]);
      expect(ids(await weighted(1, 0))).toEqual([apple!.id]);
    });

    test('lexical hits say how much of the query they cover', async () => {
      const [both, one] = await insert([
        makeRecord({ content: 'the heron waded through the marsh' }),
        makeRecord({ content: 'a heron on the roof' }),
        makeRecord({ content: 'nothing relevant here' }),
        makeRecord({ content: 'still nothing relevant' }),
      ]);
      const hits = await lexical(['heron', 'marsh']);
      expect(ids(hits)).toEqual([both!.id, one!.id]);
      expect(hits[0]!.coverage).toBeCloseTo(1, 6);
      // "marsh" (one document) is rarer than "heron" (two), so it carries more of the query's weight.
      expect(hits[1]!.coverage).toBeGreaterThan(0.2);
      expect(hits[1]!.coverage).toBeLessThan(0.5);
      // A term that no memory contains still counts in the query's total.
      const partial = await lexical(['heron', 'zeppelin']);
      expect(partial[0]!.coverage).toBeLessThan(0.5);
    });

    test('recent embeddings of several scopes at once are each scope’s own, newest first', async () => {
      const a = [vectorOf(DIM, 1), vectorOf(DIM, 0, 1), vectorOf(DIM, 0, 0, 1)];
      const b = [vectorOf(DIM, 1, 1), vectorOf(DIM, 0, 1, 1)];
      await insert([makeRecord({ scope: A }), makeRecord({ scope: A })], a.slice(0, 2));
      await insert([makeRecord({ scope: B }), makeRecord({ scope: B })], b);
      await insert([makeRecord({ scope: A })], a.slice(2));
      const rounded = (vectors: readonly Float32Array[] | undefined) => (vectors ?? []).map((v) => [...v].map((x) => Number(x.toFixed(5))));
      const empty = 'acme/empty';
      const byScope = await store.recentEmbeddingsByScope([A, B, empty, A], 2);
      expect([...byScope.keys()].sort()).toEqual([A, B, empty].sort());
      expect(rounded(byScope.get(A))).toEqual(rounded([a[2]!, a[1]!]));
      expect(rounded(byScope.get(B))).toEqual(rounded([b[1]!, b[0]!]));
      expect(byScope.get(empty)).toEqual([]);
      for (const scope of [A, B]) expect(rounded(byScope.get(scope))).toEqual(rounded(await store.recentEmbeddings(scope, 2)));
      expect((await store.recentEmbeddingsByScope([A], 0)).get(A)).toEqual([]);
      await expect(store.recentEmbeddingsByScope(['../bad'], 2)).rejects.toThrow();
    });

    test('recent episode heads: newest active episodes of the scopes, their content start and perceived people', async () => {
      const at = (minutes: number) => T0 + minutes * 60_000;
      const long = `Caroline: ${'word '.repeat(60)}`;
      await insert([
        makeRecord({ scope: A, content: 'Caroline: the oldest turn', recordedAt: at(1) }),
        makeRecord({ scope: A, content: long, recordedAt: at(2), data: { perception: { people: ['Caroline', 'Zoë'] } } }),
        makeRecord({ scope: A, content: 'a fact, not an episode', layer: 'semantic', recordedAt: at(3) }),
        makeRecord({ scope: A, content: 'Melanie: decayed', status: 'decayed', recordedAt: at(4) }),
        makeRecord({ scope: A, content: 'I went running', recordedAt: at(5), data: { perception: { people: ['Melanie'] } } }),
        makeRecord({ scope: B, content: 'Melanie: in the other scope', recordedAt: at(6) }),
        makeRecord({ scope: OTHER, content: 'Mallory: another tenant', recordedAt: at(7) }),
      ]);
      expect(await store.recentEpisodeHeads({ scopes: [A], limit: 10 })).toEqual([
        { head: 'I went running', people: ['Melanie'] },
        { head: long.slice(0, 100), people: ['Caroline', 'Zoë'] },
        { head: 'Caroline: the oldest turn', people: [] },
      ]);
      // newest first across scopes, at most `limit`
      expect((await store.recentEpisodeHeads({ scopes: [A, B], limit: 2 })).map((h) => h.head)).toEqual([
        'Melanie: in the other scope',
        'I went running',
      ]);
      expect(await store.recentEpisodeHeads({ scopes: [A], limit: 0 })).toEqual([]);
      await expect(store.recentEpisodeHeads({ scopes: [], limit: 5 })).rejects.toThrow();
      await expect(store.recentEpisodeHeads({ scopes: ['../bad'], limit: 5 })).rejects.toThrow();
    });

    test('vector search orders by cosine similarity', async () => {
      const expected: Array<[Float32Array, number]> = [
        [vectorOf(DIM, 1), 1],
        [vectorOf(DIM, 0.8, 0.6), 0.8],
        [vectorOf(DIM, 2, 0, 2), Math.SQRT1_2],
        [vectorOf(DIM, 0.6, 0.8), 0.6],
        [vectorOf(DIM, 0, 1), 0],
        [vectorOf(DIM, -1), -1],
      ];
      const records = await insert(expected.map(() => makeRecord()).reverse(), expected.map(([v]) => v).reverse());
      records.reverse();
      const hits = await vector(vectorOf(DIM, 3));
      expect(ids(hits)).toEqual(records.map((r) => r.id));
      hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]![1], 5));
      expect(ids(await vector(vectorOf(DIM, 1), { limit: 2 }))).toEqual(records.slice(0, 2).map((r) => r.id));
    });

    test('vector search widens to widenTo hits, best first, beyond an unchanged top limit', async () => {
      const records = Array.from({ length: 30 }, () => makeRecord());
      // cosine with the query falls as i grows; one inactive record in the middle never shows
      const vectors = records.map((_, i) => vectorOf(DIM, 1, 0.05 * i));
      const hidden = makeRecord({ status: 'deleted' });
      await insert([...records, hidden], [...vectors, vectorOf(DIM, 1, 0.3)]);
      const query = vectorOf(DIM, 1);
      const order = records.map((r) => r.id);
      const top = await vector(query, { limit: 5 });
      expect(ids(top)).toEqual(order.slice(0, 5));
      const wide = await vector(query, { limit: 5, widenTo: 20 });
      const all = await vector(query, { limit: 5, widenTo: 100 });
      if (options.approximate === true) {
        // an approximate index adds only the rows its search for the limit returned anyway
        expect(wide.length).toBeGreaterThanOrEqual(5);
        expect(wide.length).toBeLessThanOrEqual(20);
        expect(all.length).toBeLessThan(30);
      } else {
        expect(wide).toHaveLength(20);
        expect(all).toHaveLength(30);
      }
      expect(ids(wide)).toEqual(order.slice(0, wide.length));
      expect(ids(all)).toEqual(order.slice(0, all.length));
      wide.slice(0, 5).forEach((hit, i) => expect(hit.score).toBeCloseTo(top[i]!.score, 3));
      // a widening below the limit, or not a finite number, changes nothing
      for (const widenTo of [2, Number.NaN, Number.POSITIVE_INFINITY])
        expect(ids(await vector(query, { limit: 5, widenTo }))).toEqual(order.slice(0, 5));
    });

    test('vector search is not starved by inactive records', async () => {
      const query = vectorOf(DIM, 1);
      const inactive = Array.from({ length: 60 }, (_, i) => makeRecord({ status: (['deleted', 'decayed', 'expired'] as const)[i % 3] }));
      const active = Array.from({ length: 3 }, () => makeRecord());
      const nearby = inactive.map((_, i) => vectorOf(DIM, 1, 0.001 * i));
      const far = active.map((_, i) => vectorOf(DIM, 0.1 * (i + 1), 1));
      await insert([...inactive, ...active], [...nearby, ...far]);
      const hits = await vector(query, { limit: 3 });
      expect(ids(hits)).toEqual([...active].reverse().map((r) => r.id));
      const elsewhere = Array.from({ length: 12 }, () => makeRecord({ scope: B }));
      await insert(
        elsewhere,
        elsewhere.map((_, i) => vectorOf(DIM, 0.001 * i, 1)),
      );
      expect(ids(await vector(query, { limit: 3, scopes: [A, B] }))).toEqual(ids(hits));
      const layered = await vector(query, { limit: 3, layers: ['semantic'] });
      expect(layered).toEqual([]);
    });

    test('time filters: current, asOf, knownAt and includeSuperseded', async () => {
      const T1 = T0 + DAY;
      const T2 = T0 + 10 * DAY;
      const v = vectorOf(DIM, 1, 0.5);
      const claim = (value: string, at: number): MemoryRecord =>
        makeRecord({ layer: 'semantic', content: `the budget is ${value}`, validFrom: at, recordedAt: at, updatedAt: at });
      const [old, current] = await insert([claim('fifty', T1), claim('eighty', T2)], [v, v]);
      const [decayed, deleted, future] = await insert(
        [
          makeRecord({ content: 'budget decayed', status: 'decayed', recordedAt: T1, validFrom: T1 }),
          makeRecord({ content: 'budget deleted', status: 'deleted', recordedAt: T1, validFrom: T1 }),
          makeRecord({ content: 'budget recorded later', recordedAt: NOW + DAY, validFrom: T1 }),
        ],
        [v, v, v],
      );
      await store.transaction(async (tx) => {
        const superseded = await tx.updateMemory(old!.id, A, { status: 'superseded', validTo: T2, invalidatedAt: T2, updatedAt: T2 });
        expect(superseded).toBe(true);
      });
      expect(deleted && future).toBeTruthy();

      const cases: Array<[string, TimeFilter, MemoryRecord[]]> = [
        ['current', {}, [current!]],
        ['asOf before the correction', { asOf: T1 + DAY }, [old!]],
        ['asOf before anything was valid', { asOf: T0 }, []],
        ['knownAt before the correction', { knownAt: T1 + DAY }, [old!]],
        ['knownAt after the correction', { knownAt: T2 + DAY }, [current!]],
        ['asOf after, known before the correction', { asOf: T2 + DAY, knownAt: T1 + DAY }, [old!]],
        ['includeSuperseded', { includeSuperseded: true }, [old!, current!, decayed!]],
      ];
      for (const [label, filter, expected] of cases) {
        const want = new Set(expected.map((r) => r.id));
        expect(new Set(ids(await lexical(['budget'], filter))), `lexical ${label}`).toEqual(want);
        expect(new Set(ids(await vector(v, filter))), `vector ${label}`).toEqual(want);
      }
    });

    test('layer filters apply to searches and lists', async () => {
      const v = vectorOf(DIM, 1);
      const [episode, fact] = await insert(
        [makeRecord({ content: 'shared word', layer: 'episodic' }), makeRecord({ content: 'shared word', layer: 'semantic' })],
        [v, v],
      );
      expect(ids(await lexical(['shared'], { layers: ['semantic'] }))).toEqual([fact!.id]);
      expect(ids(await vector(v, { layers: ['episodic'] }))).toEqual([episode!.id]);
      expect(ids(await store.listMemories({ scopes: [A], layers: ['semantic'], limit: 10 }))).toEqual([fact!.id]);
      expect(await lexical(['shared'], { layers: [] })).toEqual([]);
    });

    test('a rejected transaction leaves the store unchanged and propagates the error', async () => {
      const [kept, other] = await insert([makeRecord({ content: 'original text' }), makeRecord()]);
      const snapshot = async () => ({
        list: await store.listMemories({ scopes: [A], limit: 100 }),
        stats: await store.stats([A]),
        edges: await store.getEdges({ scopes: [A], ids: [kept!.id, other!.id] }),
        lexical: await lexical(['original', 'changed', 'inserted']),
        vector: await vector(vectorOf(DIM, 0, 0, 1)),
      });
      const before = await snapshot();
      const failure = new Error('caller failed');
      await expect(
        store.transaction(async (tx) => {
          await tx.insertMemories(withVectors(DIM, [makeRecord({ content: 'inserted text' })], [vectorOf(DIM, 0, 0, 1)]));
          await tx.updateMemory(kept!.id, A, { content: 'changed text', status: 'superseded', updatedAt: NOW });
          await tx.updateEmbedding(other!.id, A, vectorOf(DIM, 0, 0, 1));
          await tx.insertEdges([makeEdge(A, kept!.id, other!.id)]);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await snapshot()).toStrictEqual(before);
    });

    test('a committed transaction returns its value and its writes are visible', async () => {
      const record = makeRecord({ content: 'fresh write' });
      const result = await store.transaction(async (tx) => {
        await tx.insertMemories(withVectors(DIM, [record], [vectorOf(DIM, 0, 1)]));
        expect(ids(await tx.getMemories([record.id], [A]))).toEqual([record.id]);
        expect(ids(await tx.lexicalSearch({ scopes: [A], now: NOW, limit: 5, terms: [{ term: 'fresh' }] }))).toEqual([record.id]);
        expect(ids(await tx.vectorSearch({ scopes: [A], now: NOW, limit: 5, vector: vectorOf(DIM, 0, 1) }))).toEqual([record.id]);
        return 42;
      });
      expect(result).toBe(42);
      expect(ids(await store.getMemories([record.id], [A]))).toEqual([record.id]);
    });

    test('reads outside a transaction do not see its uncommitted writes', async () => {
      const record = makeRecord({ content: 'pending write' });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted!: () => void;
      const insertedSignal = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const running = store.transaction(async (tx) => {
        await tx.insertMemories(withVectors(DIM, [record]));
        inserted();
        await gate;
      });
      await insertedSignal;
      expect(await store.getMemories([record.id], [A])).toEqual([]);
      release();
      await running;
      expect(ids(await store.getMemories([record.id], [A]))).toEqual([record.id]);
    });

    test('transactions in one process do not interleave', async () => {
      const [counter] = await insert([makeRecord({ mentionCount: 0 })]);
      await Promise.all(
        Array.from({ length: 10 }, () =>
          store.transaction(async (tx) => {
            const [current] = await tx.getMemories([counter!.id], [A]);
            await new Promise((resolve) => setTimeout(resolve, 2));
            await tx.updateMemory(counter!.id, A, { mentionCount: current!.mentionCount + 1, updatedAt: NOW });
          }),
        ),
      );
      expect((await store.getMemories([counter!.id], [A]))[0]!.mentionCount).toBe(10);
    });

    test('duplicate ids and source keys are conflicts, and a failed write changes nothing', async () => {
      const [existing] = await insert([makeRecord({ sourceKey: 'conv:1' })]);
      await expectCode(insert([makeRecord({ id: existing!.id })]), 'CONFLICT');
      await expectCode(insert([makeRecord({ sourceKey: 'conv:1' })]), 'CONFLICT');
      await insert([makeRecord({ scope: B, sourceKey: 'conv:1' })]);
      const fresh = makeRecord({ content: 'fresh one' });
      await store.transaction(async (tx) => {
        await expectCode(tx.insertMemories(withVectors(DIM, [fresh, makeRecord({ sourceKey: 'conv:1' })])), 'CONFLICT');
      });
      expect(await store.getMemories([fresh.id], [A])).toEqual([]);
      expect((await store.stats([A, B])).total).toBe(2);
    });

    test('a batch larger than one insert statement stores every record and vector, or none of them', async () => {
      // more rows than a multi-row statement takes (500 on PostgreSQL), so the batch spans three
      const records = Array.from({ length: 1201 }, (_, i) => makeRecord({ content: `bulk note ${i}` }));
      const vectors = records.map((_, i) => seededVector(DIM, i + 1));
      const [existing] = await insert([makeRecord({ sourceKey: 'bulk:1' })]);
      // the conflicting row sits in the last statement: the two before it must be undone too
      const failing = [...records.slice(0, 1100), makeRecord({ id: existing!.id }), ...records.slice(1100)];
      await expectCode(
        store.transaction((tx) =>
          tx.insertMemories(withVectors(DIM, failing, [...vectors.slice(0, 1100), vectorOf(DIM, 1), ...vectors.slice(1100)])),
        ),
        'CONFLICT',
      );
      expect((await store.stats([A])).total).toBe(1);
      await insert(records, vectors);
      expect((await store.stats([A])).total).toBe(1202);
      const last = records[1200]!;
      expect(await store.getMemories([records[0]!.id, records[600]!.id, last.id], [A])).toStrictEqual([records[0], records[600], last]);
      for (const index of [0, 499, 500, 1200]) {
        const [hit] = await vector(vectors[index]!, { limit: 1 });
        expect(hit?.id).toBe(records[index]!.id);
      }
    });

    test('findBySourceKey maps known keys of that scope to ids', async () => {
      const [one, two] = await insert([
        makeRecord({ sourceKey: 'c:1' }),
        makeRecord({ sourceKey: 'c:2', status: 'deleted' }),
        makeRecord(),
      ]);
      await insert([makeRecord({ scope: B, sourceKey: 'c:3' })]);
      const found = await store.findBySourceKey(A, ['c:1', 'c:2', 'c:3', 'c:4']);
      expect(found).toEqual(
        new Map([
          ['c:1', one!.id],
          ['c:2', two!.id],
        ]),
      );
      expect(await store.findBySourceKey(A, [])).toEqual(new Map());
    });

    test('findClaims returns active claims by subject and layer, newest first', async () => {
      const slot = (subject: string, attribute: string) => ({ claim: { subject, attribute, value: 'v' } });
      const [older, newer, , procedural] = await insert([
        makeRecord({ layer: 'semantic', data: slot('user', 'budget'), recordedAt: T0 + DAY }),
        makeRecord({ layer: 'semantic', data: slot('user', 'city'), recordedAt: T0 + 2 * DAY }),
        makeRecord({ layer: 'semantic', data: slot('user', 'budget'), status: 'superseded' }),
        makeRecord({ layer: 'procedural', data: slot('user', 'tone') }),
        makeRecord({ layer: 'semantic', data: slot('team', 'budget') }),
        makeRecord({ layer: 'semantic', data: {} }),
      ]);
      expect(ids(await store.findClaims({ scope: A, layers: ['semantic'], subjects: ['user'], limit: 10 }))).toEqual([
        newer!.id,
        older!.id,
      ]);
      expect(ids(await store.findClaims({ scope: A, layers: ['semantic', 'procedural'], subjects: ['user'], limit: 1 }))).toHaveLength(1);
      expect(ids(await store.findClaims({ scope: A, layers: ['procedural'], subjects: ['user'], limit: 10 }))).toEqual([procedural!.id]);
      expect(await store.findClaims({ scope: B, layers: ['semantic'], subjects: ['user'], limit: 10 })).toEqual([]);
    });

    test('edges: inserted, found from either end, filtered by type, same scope only', async () => {
      const [x, y, z] = await insert([makeRecord(), makeRecord(), makeRecord()]);
      const [foreign] = await insert([makeRecord({ scope: B })]);
      const related = makeEdge(A, x!.id, y!.id, {
        weight: 0.6,
        metadata: { jaccard: 0.6, shared: ['e1'] },
        validTo: T0 + DAY,
        invalidatedAt: T0 + 2 * DAY,
      });
      const causes = makeEdge(A, y!.id, z!.id, { type: 'CAUSES' });
      await store.transaction((tx) => tx.insertEdges([related, causes]));
      expect(await store.getEdges({ scopes: [A], ids: [x!.id] })).toStrictEqual([related]);
      expect(await store.getEdges({ scopes: [A], ids: [y!.id] })).toStrictEqual([related, causes]);
      expect(await store.getEdges({ scopes: [A], ids: [y!.id], types: ['CAUSES'] })).toStrictEqual([causes]);
      expect(await store.getEdges({ scopes: [B], ids: [x!.id, y!.id] })).toEqual([]);
      expect(await store.getEdges({ scopes: [A], ids: [] })).toEqual([]);
      await expectCode(
        store.transaction((tx) => tx.insertEdges([makeEdge(A, x!.id, foreign!.id)])),
        'INVALID_INPUT',
      );
      await expectCode(
        store.transaction((tx) => tx.insertEdges([makeEdge(B, x!.id, y!.id)])),
        'INVALID_INPUT',
      );
      await expectCode(
        store.transaction((tx) => tx.insertEdges([{ ...causes }])),
        'CONFLICT',
      );
      expect((await store.stats([A])).edges).toBe(2);
    });

    test('tombstones: content, index entries, edges, refs and source key go; the row still answers by id and in lists', async () => {
      const [x, y] = await insert([
        makeRecord({ content: 'zebra crossing near the harbour', tags: ['zebra'], sourceKey: 'conv:1', status: 'decayed' }),
        makeRecord({ content: 'zebra stripes are unique' }),
      ]);
      const [other] = await insert([makeRecord({ scope: B, content: 'zebra in another scope', status: 'decayed' })]);
      await store.transaction((tx) => tx.insertEdges([makeEdge(A, x!.id, y!.id)]));
      expect(await store.recentEmbeddings(A, 10)).toHaveLength(2);
      const patch = {
        content: '',
        tags: [],
        entities: [],
        summary: null,
        status: 'expired' as const,
        data: { tombstone: true, expiredAt: NOW },
        updatedAt: NOW,
      };
      const counts = await store.transaction((tx) =>
        tx.tombstoneMemories(
          [
            { id: x!.id, patch },
            { id: other!.id, patch },
            { id: 'nope', patch },
          ],
          A,
        ),
      );
      expect(counts).toMatchObject({ records: 1, edges: 1 });
      const [tomb] = await store.getMemories([x!.id], [A]);
      expect(tomb).toMatchObject({
        id: x!.id,
        scope: A,
        status: 'expired',
        content: '',
        tags: [],
        sourceKey: null,
        data: { tombstone: true, expiredAt: NOW },
      });
      expect(ids(await store.listMemories({ scopes: [A], statuses: ['expired'], limit: 10 }))).toEqual([x!.id]);
      expect(await store.getEdges({ scopes: [A], ids: [x!.id] })).toEqual([]);
      expect(await store.recentEmbeddings(A, 10)).toHaveLength(1);
      expect((await store.findBySourceKey(A, ['conv:1'])).size).toBe(0);
      expect(ids(await lexical(['zebra'], { includeSuperseded: true }))).toEqual([y!.id]);
      // another scope's record named in the call is untouched
      expect((await store.getMemories([other!.id], [B]))[0]).toMatchObject({ status: 'decayed', content: 'zebra in another scope' });
    });

    test('stats count by layer and status within the given scopes', async () => {
      await insert([
        makeRecord({ layer: 'episodic' }),
        makeRecord({ layer: 'episodic', status: 'decayed' }),
        makeRecord({ layer: 'semantic', status: 'superseded' }),
        makeRecord({ layer: 'procedural' }),
      ]);
      const [s1, s2] = await insert([makeRecord({ scope: B, layer: 'statistical' }), makeRecord({ scope: B, layer: 'statistical' })]);
      await store.transaction((tx) => tx.insertEdges([makeEdge(B, s1!.id, s2!.id)]));
      expect(await store.stats([A])).toStrictEqual({
        total: 4,
        byLayer: { episodic: 2, semantic: 1, procedural: 1, statistical: 0 },
        concepts: 0,
        byStatus: { active: 2, superseded: 1, decayed: 1, expired: 0, deleted: 0 },
        edges: 0,
      });
      const both = await store.stats([A, B]);
      expect(both.total).toBe(6);
      expect(both.byLayer.statistical).toBe(2);
      expect(both.edges).toBe(1);
    });

    test('updateMemory patches only the given fields and keeps searches in sync', async () => {
      const [record] = await insert([makeFullRecord({ scope: A, content: 'the old wording' })], [vectorOf(DIM, 1)]);
      const changed = await store.transaction((tx) =>
        tx.updateMemory(record!.id, A, {
          content: 'a new phrasing',
          tags: ['edited'],
          importance: null,
          emotion: null,
          data: { claim: { subject: 's', attribute: 'a', value: 'v' } },
          updatedAt: NOW,
        }),
      );
      expect(changed).toBe(true);
      const [after] = await store.getMemories([record!.id], [A]);
      expect(after).toStrictEqual({
        ...record!,
        content: 'a new phrasing',
        tags: ['edited'],
        importance: null,
        emotion: null,
        data: { claim: { subject: 's', attribute: 'a', value: 'v' } },
        updatedAt: NOW,
      });
      const current = { includeSuperseded: true };
      expect(await lexical(['wording'], current)).toEqual([]);
      expect(ids(await lexical(['phrasing'], current))).toEqual([record!.id]);
      expect(ids(await store.findClaims({ scope: A, layers: ['semantic'], subjects: ['s'], limit: 5 }))).toEqual([record!.id]);
      expect(await store.findClaims({ scope: A, layers: ['semantic'], subjects: ['alice'], limit: 5 })).toEqual([]);
      expect(await store.transaction((tx) => tx.updateMemory('missing', A, { pinned: false, updatedAt: NOW }))).toBe(false);
    });

    test('updateEmbedding moves the record in vector search', async () => {
      const [moved, fixed] = await insert([makeRecord(), makeRecord()], [vectorOf(DIM, 1), vectorOf(DIM, 0.9, 0.1)]);
      expect(ids(await vector(vectorOf(DIM, 1), { limit: 1 }))).toEqual([moved!.id]);
      await store.transaction((tx) => tx.updateEmbedding(moved!.id, A, vectorOf(DIM, 0, 0, 0, 1)));
      expect(ids(await vector(vectorOf(DIM, 1), { limit: 1 }))).toEqual([fixed!.id]);
      expect(ids(await vector(vectorOf(DIM, 0, 0, 0, 1), { limit: 1 }))).toEqual([moved!.id]);
      await expectCode(
        store.transaction((tx) => tx.updateEmbedding('missing', A, vectorOf(DIM, 1))),
        'NOT_FOUND',
      );
    });

    test('listMemories paginates by id with layer and status filters', async () => {
      const records = await insert(
        Array.from({ length: 7 }, (_, i) =>
          makeRecord({ layer: i % 2 === 0 ? 'episodic' : 'semantic', status: i === 6 ? 'deleted' : 'active' }),
        ),
      );
      const pages: string[][] = [];
      let afterId: string | undefined;
      for (;;) {
        const page = await store.listMemories({ scopes: [A], limit: 3, ...(afterId === undefined ? {} : { afterId }) });
        if (page.length === 0) break;
        pages.push(ids(page));
        afterId = page[page.length - 1]!.id;
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(records.map((r) => r.id).sort());
      const episodic = await store.listMemories({ scopes: [A], layers: ['episodic'], statuses: ['active'], limit: 10 });
      expect(ids(episodic)).toEqual([records[0]!.id, records[2]!.id, records[4]!.id]);
      expect(await store.listMemories({ scopes: [A], statuses: [], limit: 10 })).toEqual([]);
    });

    test('recordAccess is eventually visible and survives close and reopen', async () => {
      const [seen, unseen] = await insert([makeRecord(), makeRecord()]);
      await store.recordAccess([seen!.id, seen!.id], NOW);
      await store.recordAccess([seen!.id], NOW - DAY);
      store = await fixture.reopen();
      const [after, untouched] = await store.getMemories([seen!.id, unseen!.id], [A]);
      expect(after!.accessCount).toBe(3);
      expect(after!.lastAccessedAt).toBe(NOW);
      expect(untouched!.accessCount).toBe(0);
      expect(untouched!.lastAccessedAt).toBeNull();
    });

    test('metadata values roundtrip', async () => {
      expect(await store.getMeta('missing')).toBeNull();
      await store.setMeta('cursor:session-1', 'message-42');
      await store.setMeta('cursor:session-1', 'message-43');
      expect(await store.getMeta('cursor:session-1')).toBe('message-43');
    });

    test('vectors of the wrong dimension are refused', async () => {
      await expectCode(insert([makeRecord()], [new Float32Array(DIM + 1)]), 'EMBEDDING_DIMENSION_MISMATCH');
      await expectCode(vector(new Float32Array(DIM - 1)), 'EMBEDDING_DIMENSION_MISMATCH');
      expect((await store.stats([A])).total).toBe(0);
    });

    test('close is idempotent and later calls fail', async () => {
      await insert([makeRecord()]);
      await store.close();
      await store.close();
      await expect(store.stats([A])).rejects.toSatisfy(isEngramError);
      await expect(store.transaction(async () => undefined)).rejects.toSatisfy(isEngramError);
    });

    test('scores of different seeded vectors stay within [-1, 1]', async () => {
      const records = Array.from({ length: 50 }, () => makeRecord());
      await insert(
        records,
        records.map((_, i) => seededVector(DIM, i + 1)),
      );
      const hits = await vector(seededVector(DIM, 7), { limit: 50 });
      expect(hits).toHaveLength(50);
      expect(hits[0]!.score).toBeCloseTo(1, 5);
      for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
      for (const hit of hits) expect(Math.abs(hit.score)).toBeLessThanOrEqual(1 + 1e-6);
    });

    const harness = {
      test,
      store: () => store,
      reopen: async () => {
        store = await fixture.reopen();
        return store;
      },
      insert: (records: Parameters<typeof insert>[0]) => insert(records),
    };
    registerRegistryContract(harness);
    registerTextContract(harness);
    registerDumpContract(harness);
    registerPartsContract(harness);
    registerMentionsContract(harness);

    const unknown = Object.keys(options.skip ?? {}).filter((name) => !names.has(name));
    if (unknown.length > 0) throw new Error(`runStoreContract(${options.name}): skip names no test: ${unknown.join(', ')}`);
  });
}

/** Awaits `promise` and asserts it rejects with an `EngramError` of `code`. */
export async function expectCode(promise: Promise<unknown>, code: EngramErrorCode): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${code}`).toSatisfy(isEngramError);
  expect((caught as { code: string }).code).toBe(code);
}
