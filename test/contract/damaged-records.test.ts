/**
 * Reads survive a damaged stored record: a row whose time no calendar can print, or whose JSON does
 * not parse (written here with raw SQL, as another program or an old bug could), is left out of
 * recall, history, export and context and listed in `skipped`; get, forget and update still work on
 * it by id. On a SQLite file, PGlite and the PostgreSQL server when `ENGRAM_TEST_PG_URL` is set.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPgliteStore, openPostgresStore } from '../../src/storage/postgres/index.js';
import { closeSharedPglite, dropPgSchema, pgExec, pgTestUrl, sharedPglite, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';

interface Opened {
  engram: Engram;
  /** Runs `SET <assignment>` on one row of the memories table, outside the store. */
  damage: (id: string, assignment: string) => Promise<void>;
  close: () => Promise<void>;
}

interface Backend {
  name: string;
  open: () => Promise<Opened>;
  /** Damage only some backends can hold (PostgreSQL types refuse the rest). */
  extraDamage: readonly [what: string, assignment: string][];
}

const backends: Backend[] = [
  {
    name: 'SQLite file',
    extraDamage: [
      ['an occurredAt of 1e300', 'occurred_at = 1e300'],
      ['a fractional recordedAt', 'recorded_at = 1.5'],
    ],
    async open() {
      const { engram, path, cleanup } = await tempEngram();
      return {
        engram,
        damage: async (id, assignment) => {
          const db = new Database(path);
          try {
            db.prepare(`UPDATE memories SET ${assignment} WHERE id = ?`).run(id);
          } finally {
            db.close();
          }
        },
        close: cleanup,
      };
    },
  },
  {
    name: 'PGlite',
    extraDamage: [],
    async open() {
      const pglite = await sharedPglite();
      const schema = uniqueSchema('d');
      const embedder = new HashEmbedder();
      const store = await openPgliteStore({ pglite, schema, embedding: { name: embedder.name, dimension: embedder.dimension } });
      const engram = new Engram({ store, embedder });
      return {
        engram,
        damage: async (id, assignment) => void (await pglite.query(`UPDATE "${schema}".memories SET ${assignment} WHERE id = $1`, [id])),
        close: async () => {
          await engram.close();
          await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        },
      };
    },
  },
];

const url = pgTestUrl();
if (url !== undefined) {
  backends.push({
    name: 'PostgreSQL server',
    extraDamage: [],
    async open() {
      const schema = uniqueSchema('d');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: withSchema(url, schema),
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 2,
      });
      const engram = new Engram({ store, embedder });
      return {
        engram,
        damage: (id, assignment) => pgExec(url, `UPDATE "${schema}".memories SET ${assignment} WHERE id = '${id}'`),
        close: async () => {
          await engram.close();
          await dropPgSchema(url, schema);
        },
      };
    },
  });
}

beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

const SCOPE = 'acme/office';
const COMMON: readonly [what: string, assignment: string][] = [
  ['a validTo of 9e15 (past year 9999)', 'valid_to = 9000000000000000'],
  ['a validFrom before year 1', 'valid_from = -90000000000000000'],
  ['tags that are not JSON', "tags = 'not json'"],
  ['entities that are a JSON object', `entities = '{"a":1}'`],
  ['provenance that is a JSON list', "provenance = '[1,2]'"],
];

for (const backend of backends) {
  describe(`damaged records on ${backend.name}`, () => {
    for (const [what, assignment] of [...COMMON, ...backend.extraDamage]) {
      it(`reads around a record with ${what}, and can forget it`, async () => {
        const { engram, damage, close } = await backend.open();
        try {
          const good = await engram.remember({ scope: SCOPE, layer: 'semantic', content: 'The Leeds office opens at nine.' });
          const other = await engram.remember({ scope: SCOPE, content: 'Visited the Leeds office on Monday.', occurredAt: '2024-05-06' });
          const bad = await engram.remember({ scope: SCOPE, content: 'The Leeds office has a rooftop garden.', occurredAt: '2024-05-07' });
          await damage(bad.id, assignment);

          const recalled = await engram.recall('Leeds office', { scopes: [SCOPE] });
          const ids = recalled.hits.map((h) => h.id);
          expect(ids).toEqual(expect.arrayContaining([good.id, other.id]));
          expect(ids).not.toContain(bad.id);
          expect(recalled.skipped).toEqual([{ id: bad.id, reason: expect.any(String) as unknown as string }]);

          const shown = await engram.get(bad.id, { scopes: [SCOPE] });
          expect(shown.damaged).toEqual(recalled.skipped?.[0]?.reason);
          expect((await engram.get(good.id, { scopes: [SCOPE] })).damaged).toBeUndefined();

          const history = await engram.history(bad.id, { scopes: [SCOPE] });
          expect(history.versions).toEqual([]);
          expect(history.skipped?.map((s) => s.id)).toEqual([bad.id]);
          expect((await engram.history(good.id, { scopes: [SCOPE] })).versions.map((v) => v.id)).toEqual([good.id]);

          const files = await engram.exportMarkdown({ scope: SCOPE });
          const exported = Object.values(files).join('\n');
          expect(exported).toContain('opens at nine');
          expect(exported).not.toContain('rooftop garden');

          const context = await engram.context({ scopes: [SCOPE], message: 'What about the Leeds office?', budgetMs: 60_000 });
          expect(context.markdown).toContain('opens at nine');
          expect(context.markdown).not.toContain('rooftop garden');

          const forgotten = await engram.forget(bad.id, { scope: SCOPE });
          expect(forgotten.status).toBe('deleted');
          expect((await engram.get(bad.id, { scopes: [SCOPE] })).status).toBe('deleted');
          expect((await engram.recall('Leeds office rooftop', { scopes: [SCOPE] })).skipped).toBeUndefined();
        } finally {
          await close();
        }
      });
    }

    it('repairs a record with an out-of-range time through update', async () => {
      const { engram, damage, close } = await backend.open();
      try {
        const bad = await engram.remember({ scope: SCOPE, layer: 'semantic', content: 'The Leeds office has a rooftop garden.' });
        await damage(bad.id, 'valid_from = 9000000000000000');
        const fixed = await engram.update(bad.id, { validFrom: '2024-01-01' }, { scope: SCOPE });
        expect(fixed.validFrom).toBe('2024-01-01T00:00:00.000Z');
        expect(fixed.damaged).toBeUndefined();
        const recalled = await engram.recall('Leeds office garden', { scopes: [SCOPE] });
        expect(recalled.hits.map((h) => h.id)).toContain(bad.id);
        expect(recalled.skipped).toBeUndefined();
      } finally {
        await close();
      }
    });
  });
}
