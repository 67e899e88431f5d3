/**
 * The lossless dump: SQLite → JSONL → PostgreSQL (the real server, and PGlite) → JSONL
 * gives byte-identical dumps of a store holding every kind of state; importing twice creates nothing.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DUMP_VERSION } from '../../src/core/dump/index.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPgliteStore, openPostgresStore } from '../../src/storage/postgres/index.js';
import { closeSharedPglite, freshPgSchema, pgTestUrl, PG_SKIP_REASON, sharedPglite, uniqueSchema } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';
import { populateRichStore, RICH_T0, SCOPES } from './rich-store.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});
afterAll(closeSharedPglite);

async function dumpOf(engram: Engram, embeddings = false): Promise<string> {
  let text = '';
  for await (const line of engram.exportJsonl({ scopes: [...SCOPES], embeddings })) text += line;
  return text;
}

async function richSqlite(): Promise<Engram> {
  const clock = new ManualClock(RICH_T0);
  const { engram, cleanup } = await tempEngram({ clock });
  cleanups.push(cleanup);
  await populateRichStore(engram, clock);
  return engram;
}

function kinds(dump: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of dump.trim().split('\n').slice(1)) {
    const kind = (JSON.parse(line) as { kind: string }).kind;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

describe('dump round trip', () => {
  it('SQLite → JSONL → SQLite gives the same bytes, and a second import creates nothing', async () => {
    const source = await richSqlite();
    const dump = await dumpOf(source);
    const seen = kinds(dump);
    for (const kind of ['record', 'edge', 'conceptRef', 'relationType', 'state', 'audit', 'end'])
      expect(seen[kind], kind).toBeGreaterThan(0);
    expect(dump).toContain('"beliefs":[');
    expect(dump.split('\n')[0]).toBe(
      `{"format":"engram-dump","version":${DUMP_VERSION},"embedder":{"dimension":256,"name":"hash:256"},"embeddings":false,"scopes":["acme/robot","acme/users/alice"]}`,
    );

    const { engram: target, cleanup } = await tempEngram({ clock: new ManualClock(RICH_T0) });
    cleanups.push(cleanup);
    const first = await target.importJsonl([dump]);
    expect(first.complete).toBe(true);
    expect(first.counts.record.created).toBe(seen.record);
    expect(first.counts.record.skipped).toBe(0);
    expect(await dumpOf(target)).toBe(dump);

    const second = await target.importJsonl([dump]);
    for (const counts of Object.values(second.counts)) expect(counts.created).toBe(0);
    expect(second.counts.record.skipped).toBe(seen.record);
    expect(second.counts.edge.skipped).toBe(seen.edge);
    expect(second.conflicts).toEqual([]);
    expect(await dumpOf(target)).toBe(dump);
  });

  it('carries belief intervals: the copy answers knownAt reads as the source does; a dump without them still imports', async () => {
    const DAY = 86_400_000;
    const scope = 'acme/beliefs';
    const clock = new ManualClock(RICH_T0);
    const { engram: source, cleanup } = await tempEngram({ clock });
    cleanups.push(cleanup);
    const old = await source.remember({ scope, layer: 'semantic', content: 'The deploy target is staging.', validTo: RICH_T0 + 200 * DAY });
    clock.advance(10 * DAY);
    const t1 = clock.now();
    const fix = await source.remember({ scope, layer: 'semantic', content: 'The deploy target moved from staging to production.' });
    expect(fix.action).toBe('superseded');
    clock.advance(10 * DAY);
    await source.unsupersede(old.id, { scope });
    const reads = [
      { knownAt: t1 - DAY, asOf: RICH_T0 + 300 * DAY },
      { knownAt: t1 + 5 * DAY, asOf: t1 + 5 * DAY },
      { knownAt: clock.now(), asOf: t1 + 5 * DAY },
    ];
    const answers = async (engram: Engram) => {
      const out: string[][] = [];
      for (const at of reads) out.push((await engram.recall('deploy target', { scopes: [scope], ...at })).hits.map((h) => h.id).sort());
      return out;
    };
    const dumpOfScope = async (engram: Engram) => {
      let text = '';
      for await (const line of engram.exportJsonl({ scopes: [scope] })) text += line;
      return text;
    };
    const expected = await answers(source);
    expect(expected).toEqual([[], [fix.id], [fix.id, old.id].sort()]);
    const dump = await dumpOfScope(source);
    const oldLine = dump.split('\n').find((line) => line.includes(`"id":"${old.id}"`))!;
    expect((JSON.parse(oldLine) as { beliefs: unknown[] }).beliefs).toEqual([
      { knownFrom: RICH_T0, knownTo: t1, validFrom: RICH_T0, validTo: RICH_T0 + 200 * DAY },
      { knownFrom: t1, knownTo: t1 + 10 * DAY, validFrom: RICH_T0, validTo: t1 },
    ]);

    const { engram: copy, cleanup: dropCopy } = await tempEngram({ clock: new ManualClock(clock.now()) });
    cleanups.push(dropCopy);
    expect((await copy.importJsonl([dump])).counts.record.created).toBe(2);
    expect(await dumpOfScope(copy)).toBe(dump);
    expect(await answers(copy)).toEqual(expected);
    expect((await copy.importJsonl([dump])).counts.record).toEqual({ created: 0, skipped: 2, conflicting: 0 });

    // a dump of an older Engram has no beliefs: it imports, and its records are judged by their rows
    const older = dump.replace(/"beliefs":\[[^\]]*\],/g, '');
    expect(older).not.toContain('"beliefs"');
    const { engram: fromOlder, cleanup: dropOlder } = await tempEngram({ clock: new ManualClock(clock.now()) });
    cleanups.push(dropOlder);
    const report = await fromOlder.importJsonl([older]);
    expect(report.complete).toBe(true);
    expect(report.counts.record.created).toBe(2);
    expect(await dumpOfScope(fromOlder)).toBe(older);
    // the same records with a history the store does not hold are told apart, not merged silently
    const again = await fromOlder.importJsonl([dump]);
    expect(again.counts.record).toEqual({ created: 0, skipped: 1, conflicting: 1 });
    expect(again.conflicts[0]).toMatchObject({ kind: 'record', key: old.id, reason: expect.stringContaining('history of its validity') });
  });

  it('with --embeddings the vectors come back exactly (same model) and the dump is byte-identical', async () => {
    const source = await richSqlite();
    const dump = await dumpOf(source, true);
    const { engram: target, cleanup } = await tempEngram({ clock: new ManualClock(RICH_T0) });
    cleanups.push(cleanup);
    const report = await target.importJsonl([dump]);
    expect(report.embedder.vectors).toBe('dump');
    expect(report.embedded).toBe(0);
    expect(await dumpOf(target, true)).toBe(dump);
  });

  it('SQLite → JSONL → PGlite → JSONL is byte-identical', { timeout: 240_000 }, async () => {
    const source = await richSqlite();
    const dump = await dumpOf(source, true);
    const pglite = await sharedPglite();
    const schema = uniqueSchema('d');
    const embedder = new HashEmbedder();
    const store = await openPgliteStore({ pglite, schema, embedding: { name: embedder.name, dimension: embedder.dimension } });
    const target = new Engram({ store, embedder, clock: new ManualClock(RICH_T0) });
    cleanups.push(async () => {
      await target.close();
      await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
    await target.importJsonl([dump]);
    expect(await dumpOf(target, true)).toBe(dump);
  });

  const url = pgTestUrl();
  (url === undefined ? it.skip : it)(
    `SQLite → JSONL → PostgreSQL server → JSONL is byte-identical${url === undefined ? ` (${PG_SKIP_REASON})` : ''}`,
    { timeout: 240_000 },
    async () => {
      const source = await richSqlite();
      const dump = await dumpOf(source, true);
      const pg = freshPgSchema('d');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: pg.url,
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 2,
      });
      const target = new Engram({ store, embedder, clock: new ManualClock(RICH_T0) });
      cleanups.push(async () => {
        await target.close();
        await pg.drop();
      });
      const report = await target.importJsonl([dump]);
      expect(report.complete).toBe(true);
      expect(await dumpOf(target, true)).toBe(dump);
      // and back again into SQLite: the same bytes
      const { engram: back, cleanup } = await tempEngram({ clock: new ManualClock(RICH_T0) });
      cleanups.push(cleanup);
      await back.importJsonl([await dumpOf(target, true)]);
      expect(await dumpOf(back, true)).toBe(dump);
    },
  );
});
