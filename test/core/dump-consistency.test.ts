/**
 * A dump stays whole when the store is written meanwhile: the export writes only the edges and
 * concept refs whose records it wrote, the import leaves out (and reports) a line naming a record
 * that neither the dump nor the store holds and imports the rest, and two imports racing on one
 * store tell apart what the other one wrote. Two engines on one store: SQLite on one file, and the
 * PostgreSQL server on one schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ExportedIds } from '../../src/core/dump/exported-ids.js';
import { CONCEPT_REFS_CAP } from '../../src/core/ports/store.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';

const A = 'acme/a';
const B = 'acme/b';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Two engines on one store, as two processes would have. */
type Pair = () => Promise<[Engram, Engram]>;

const sqlitePair: Pair = async () => {
  const { engram, path, cleanup } = await tempEngram();
  const other = await Engram.open({ path, embedder: 'hash' });
  cleanups.push(cleanup, () => other.close());
  return [engram, other];
};

const postgresPair: Pair = async () => {
  const pg = freshPgSchema('dc');
  cleanups.push(() => pg.drop());
  const open = async (): Promise<Engram> => {
    const embedder = new HashEmbedder();
    const store = await openPostgresStore({ url: pg.url, embedding: { name: embedder.name, dimension: embedder.dimension }, poolSize: 2 });
    const engram = new Engram({ store, embedder });
    cleanups.push(() => engram.close());
    return engram;
  };
  const first = await open();
  return [first, await open()];
};

const pgUrl = pgTestUrl();
const backends: { name: string; pair: Pair; skip?: string }[] = [
  { name: 'SQLite', pair: sqlitePair },
  { name: 'PostgreSQL', pair: postgresPair, ...(pgUrl === undefined ? { skip: PG_SKIP_REASON } : {}) },
];

interface Parsed {
  kind: string;
  record?: { id: string; scope: string };
  edge?: { id: string; fromId: string; toId: string };
  conceptId?: string;
  refId?: string;
  counts?: Record<string, number>;
}

const parse = (line: string): Parsed => JSON.parse(line) as Parsed;

async function linesOf(engram: Engram, scopes: string[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of engram.exportJsonl({ scopes })) lines.push(line);
  return lines;
}

/** `lines` without the record lines of `ids`, with the end line's counts fixed. */
function withoutRecords(lines: readonly string[], ids: readonly string[]): string[] {
  const kept = lines.filter((line) => !ids.includes(parse(line).record?.id ?? ''));
  const end = parse(kept[kept.length - 1]!);
  end.counts!.record! -= ids.length;
  return [...kept.slice(0, -1), `${JSON.stringify(end)}\n`];
}

describe.each(backends)('a dump of a store written meanwhile ($name)', ({ pair, skip }) => {
  (skip === undefined ? it : it.skip)(
    `holds no edge or concept ref whose record it does not hold${skip === undefined ? '' : ` (${skip})`}`,
    { timeout: 60_000 },
    async () => {
      const [engram, other] = await pair();
      const [a1, a2] = await engram.remember([
        { scope: A, content: 'The kettle is in the kitchen.' },
        { scope: A, content: 'The mugs are above the kettle.' },
      ]);
      await engram.remember([
        { scope: B, content: 'The office opens at nine.' },
        { scope: B, content: 'The office closes at six.' },
      ]);
      await engram.relate({ scope: A, from: a1!.id, type: 'RELATED_TO', to: a2!.id });
      await engram.store.transaction((tx) =>
        tx.addConceptRefs({ scope: A, conceptId: a1!.id, layer: 'episodic', refIds: [a2!.id], cap: CONCEPT_REFS_CAP }),
      );

      const lines: string[] = [];
      let late: string | undefined;
      for await (const line of engram.exportJsonl({ scopes: [A, B] })) {
        lines.push(line);
        if (late === undefined && parse(line).record?.scope === B) {
          // every record of A has been read: another engine writes one there, with links to it
          late = (await other.remember({ scope: A, content: 'The teapot is next to the kettle.' })).id;
          await other.relate({ scope: A, from: a1!.id, type: 'RELATED_TO', to: late });
          await other.store.transaction((tx) =>
            tx.addConceptRefs({ scope: A, conceptId: a1!.id, layer: 'episodic', refIds: [late!], cap: CONCEPT_REFS_CAP }),
          );
        }
      }
      expect(late).toBeDefined();
      const parsed = lines.slice(1).map(parse);
      const records = new Set(parsed.flatMap((p) => (p.record === undefined ? [] : [p.record.id])));
      expect(records.has(late!)).toBe(false);
      const edges = parsed.flatMap((p) => (p.edge === undefined ? [] : [p.edge]));
      const refs = parsed.filter((p) => p.kind === 'conceptRef');
      expect(edges.filter((e) => e.fromId === a1!.id && e.toId === a2!.id)).toHaveLength(1);
      expect(refs.filter((r) => r.refId === a2!.id)).toHaveLength(1);
      for (const edge of edges) expect([records.has(edge.fromId), records.has(edge.toId)]).toEqual([true, true]);
      for (const ref of refs) expect([records.has(ref.conceptId!), records.has(ref.refId!)]).toEqual([true, true]);
      expect(parsed[parsed.length - 1]!.counts).toMatchObject({ edge: edges.length, conceptRef: refs.length });

      const { engram: target, cleanup } = await tempEngram();
      cleanups.push(cleanup);
      const report = await target.importJsonl(lines);
      expect(report.complete).toBe(true);
      expect(report.conflicts).toEqual([]);
      expect(report.counts.edge.created).toBe(edges.length);
    },
  );

  (skip === undefined ? it : it.skip)(
    `imported twice at once: each record is created once and skipped once, with no false conflict${skip === undefined ? '' : ` (${skip})`}`,
    { timeout: 120_000 },
    async () => {
      const { engram: source, cleanup } = await tempEngram();
      cleanups.push(cleanup);
      await source.remember(Array.from({ length: 300 }, (_, i) => ({ scope: A, content: `race line ${i} about topic ${i % 37}` })));
      const dump = await linesOf(source, [A]);

      const [first, second] = await pair();
      const same = await Promise.all([first.importJsonl(dump), second.importJsonl(dump)]);
      expect(same.map((r) => r.conflicts)).toEqual([[], []]);
      expect(same[0]!.counts.record.created + same[1]!.counts.record.created).toBe(300);
      expect(same[0]!.counts.record.skipped + same[1]!.counts.record.skipped).toBe(300);

      // the same ids with other content, or in another scope, are told apart by what the store holds
      const edited = dump.map((line) => line.replace(/"content":"race line/, '"content":"edited line'));
      const elsewhere = dump.map((line) => line.replaceAll(`"${A}"`, `"${B}"`));
      for (const [other, reason] of [
        [edited, 'the store holds this id with other content (kept)'],
        [elsewhere, 'the store holds this id in another scope (kept)'],
      ] as const) {
        const [third, fourth] = await pair();
        const reports = await Promise.all([third.importJsonl(dump), fourth.importJsonl(other)]);
        const conflicts = reports.flatMap((r) => r.conflicts);
        expect(reports[0]!.counts.record.conflicting + reports[1]!.counts.record.conflicting).toBe(300);
        expect(new Set(conflicts.map((c) => c.reason))).toEqual(new Set([reason]));
      }
    },
  );
});

describe('importing a dump with an edge and a concept ref to a record it lacks', () => {
  it('leaves out and reports those lines, and imports everything else', { timeout: 60_000 }, async () => {
    const { engram: source, cleanup } = await tempEngram();
    cleanups.push(cleanup);
    const [a1, a2, a3, purged] = await source.remember([
      { scope: A, content: 'The kettle is in the kitchen.' },
      { scope: A, content: 'The mugs are above the kettle.' },
      { scope: A, content: 'The teapot is next to the kettle.' },
      { scope: A, content: 'A note that will be purged.' },
    ]);
    await source.registerRelation({ scope: A, name: 'keeps warm', proposedBy: 'test' });
    await source.relate({ scope: A, from: a1!.id, type: 'RELATED_TO', to: a2!.id });
    await source.relate({ scope: A, from: a1!.id, type: 'keeps warm', to: a3!.id });
    await source.relate({ scope: A, from: a2!.id, type: 'keeps warm', to: a1!.id });
    await source.store.transaction((tx) =>
      tx.addConceptRefs({ scope: A, conceptId: a1!.id, layer: 'episodic', refIds: [a3!.id, a2!.id], cap: CONCEPT_REFS_CAP }),
    );
    await source.store.transaction((tx) => tx.setState(A, 'test/cursor', { at: 3 }, Date.UTC(2026, 0, 1)));
    await source.purge({ scope: A, ids: [purged!.id], confirm: true }, { actor: 'test' });
    const lines = withoutRecords(await linesOf(source, [A]), [a3!.id]);
    const kinds = lines.slice(1, -1).map((line) => parse(line).kind);
    const edges = kinds.filter((k) => k === 'edge').length;
    expect(edges).toBeGreaterThanOrEqual(3);

    const { engram: target, cleanup: done } = await tempEngram();
    cleanups.push(done);
    const report = await target.importJsonl(lines);
    expect(report.complete).toBe(true);
    expect(report.counts.record).toEqual({ created: 2, skipped: 0, conflicting: 0 });
    expect(report.counts.edge).toEqual({ created: edges - 1, skipped: 0, conflicting: 1 });
    expect(report.counts.conceptRef).toEqual({ created: 1, skipped: 0, conflicting: 1 });
    expect(report.counts.relationType.created).toBe(1);
    expect(report.counts.state.created).toBeGreaterThanOrEqual(1);
    expect(report.counts.audit.created).toBe(1);
    const missing = `record ${a3!.id} is in neither the dump nor the store`;
    expect(report.conflicts).toEqual([
      expect.objectContaining({ kind: 'edge', scope: A, reason: expect.stringContaining(missing) }),
      expect.objectContaining({ kind: 'conceptRef', scope: A, reason: expect.stringContaining(missing) }),
    ]);
    expect((await target.edges(a1!.id, { scopes: [A] })).map((e) => e.type).sort()).toEqual(['KEEPS_WARM', 'RELATED_TO']);
    // idempotent: what was imported is skipped, the lines left out are reported again
    const again = await target.importJsonl(lines);
    expect(again.counts.edge).toEqual({ created: 0, skipped: edges - 1, conflicting: 1 });
    expect(again.counts.conceptRef).toEqual({ created: 0, skipped: 1, conflicting: 1 });
  });
});

describe('ExportedIds', () => {
  it('answers exactly the ids added: packed ULIDs across many chunks, and ids that do not fit the packing', () => {
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const ulid = (n: number): string => {
      let text = '';
      for (let i = 0, rest = n; i < 26; i++, rest = Math.floor(rest / 32)) text = alphabet[rest % 32]! + text;
      return text;
    };
    const ids = new ExportedIds();
    const added: string[] = [];
    for (let n = 0; n < 5_000; n++) if (n % 3 !== 1) added.push(ulid(n * 7 + 1_000_000));
    const odd = ['short-id', ulid(5), 'ÿ'.repeat(26), '名'.repeat(26)];
    added.splice(2_500, 0, ...odd);
    for (const id of added) ids.add(id);
    for (const id of added) expect(ids.has(id)).toBe(true);
    for (let n = 0; n < 5_000; n++) if (n % 3 === 1) expect(ids.has(ulid(n * 7 + 1_000_000))).toBe(false);
    for (const id of [ulid(0), ulid(1_000_002), ulid(99_999_999), '', 'other', '名'.repeat(25)]) expect(ids.has(id)).toBe(false);
  });
});
