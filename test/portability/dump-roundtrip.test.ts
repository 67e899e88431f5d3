/**
 * The lossless dump: SQLite → JSONL → PostgreSQL (the real server, and PGlite) → JSONL
 * gives byte-identical dumps of a store holding every kind of state; importing twice creates nothing.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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
    expect(dump.split('\n')[0]).toBe(
      `{"format":"engram-dump","version":1,"embedder":{"dimension":256,"name":"hash:256"},"embeddings":false,"scopes":["acme/robot","acme/users/alice"]}`,
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
