/**
 * The dump over HTTP: `GET /v1/export` streams NDJSON of the key's tenant only, `POST /v1/import`
 * streams a body larger than the JSON body limit, answers a report, and refuses another tenant's
 * scopes before writing anything. Both routes are in the OpenAPI document with named schemas.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';
import { ApiKeys, createHttpApp } from '../../src/interfaces/http/index.js';
import { tempEngram } from '../helpers/temp.js';
import { populateRichStore, RICH_T0, SCOPES } from './rich-store.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function engine(): Promise<Engram> {
  const t = await tempEngram({ clock: new ManualClock(RICH_T0) });
  cleanups.push(t.cleanup);
  return t.engram;
}

const base = 'http://127.0.0.1:7077';

describe('dump over HTTP', () => {
  it(
    "exports a tenant's scopes as NDJSON and imports them elsewhere, byte-identical, past the body limit",
    { timeout: 120_000 },
    async () => {
      const source = await engine();
      await populateRichStore(source, new ManualClock(RICH_T0));
      await source.remember({ scope: 'globex/x', content: 'another tenant' });
      const keys = new ApiKeys(source.store, { presenceTtlMs: 0 });
      const { key } = await keys.create({ tenant: 'acme' });
      const app = createHttpApp({ engram: source, keys, log: () => undefined });
      const auth = { authorization: `Bearer ${key}` };

      const exported = await app.request(`${base}/v1/export?embeddings=true`, { headers: auth });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
      const dump = await exported.text();
      // every scope of the key's tenant, none of another's
      expect(JSON.parse(dump.split('\n')[0]!).scopes).toEqual([...SCOPES]);
      let library = '';
      for await (const line of source.exportJsonl({ scopes: [...SCOPES], embeddings: true })) library += line;
      expect(dump).toBe(library);
      expect((await app.request(`${base}/v1/export?scope=globex/x`, { headers: auth })).status).toBe(403);
      expect((await app.request(`${base}/v1/export?scope=acme/a&embeddings=maybe`, { headers: auth })).status).toBe(400);

      const target = await engine();
      const targetKeys = new ApiKeys(target.store, { presenceTtlMs: 0 });
      const acme = await targetKeys.create({ tenant: 'acme' });
      const globex = await targetKeys.create({ tenant: 'globex' });
      const small = createHttpApp({ engram: target, keys: targetKeys, limits: { maxBodyBytes: 1024 }, log: () => undefined });
      expect(dump.length).toBeGreaterThan(1024);
      const post = (k: string, body: string) =>
        small.request(`${base}/v1/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${k}`, 'content-type': 'application/x-ndjson' },
          body,
        });
      const denied = await post(globex.key, dump);
      expect(denied.status).toBe(403);
      expect((await target.stats({ scopes: [...SCOPES] })).total).toBe(0);

      const imported = await post(acme.key, dump);
      expect(imported.status).toBe(200);
      const report = (await imported.json()) as {
        complete: boolean;
        counts: { record: { created: number } };
        embedder: { vectors: string };
      };
      expect(report.complete).toBe(true);
      expect(report.embedder.vectors).toBe('dump');
      expect(report.counts.record.created).toBe(dump.split('\n').filter((l) => l.startsWith('{"kind":"record"')).length);
      const back = await small.request(`${base}/v1/export?scope=${SCOPES.join(',')}&embeddings=true`, {
        headers: { authorization: `Bearer ${acme.key}` },
      });
      expect(await back.text()).toBe(dump);

      const again = (await (await post(acme.key, dump)).json()) as { counts: Record<string, { created: number }> };
      for (const counts of Object.values(again.counts)) expect(counts.created).toBe(0);
      const bad = await post(acme.key, '{"scope":"acme/a","content":"x"}\n');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('engram remember --file');
    },
  );

  it('an export that meets a damaged record after its 200 ends with an error line saying which and how to fix it, and logs nothing', async () => {
    const { engram, path, cleanup } = await tempEngram();
    cleanups.push(cleanup);
    await engram.remember({ scope: 'demo/dmg', content: 'A sound fact about penguins.' });
    const { id } = await engram.remember({ scope: 'demo/dmg', content: 'A fact about penguins that gets damaged.' });
    const db = new Database(path);
    db.prepare("UPDATE memories SET tags = 'not json' WHERE id = ?").run(id);
    db.close();
    const logged: unknown[] = [];
    const app = createHttpApp({ engram, log: (error) => logged.push(error) });

    const exported = await app.request(`${base}/v1/export?scope=demo/dmg`);
    expect(exported.status).toBe(200);
    const lines = (await exported.text()).split('\n').filter((line) => line.length > 0);
    const last = JSON.parse(lines.at(-1)!) as { error?: { code: string; message: string; details?: Record<string, unknown> } };
    expect(last.error?.code).toBe('STORAGE_CORRUPT');
    expect(last.error?.message).toContain(id);
    expect(last.error?.message).toMatch(/engram update.*engram purge/);
    expect(last.error?.details).toMatchObject({ id, scope: 'demo/dmg' });
    expect(lines.some((line) => (JSON.parse(line) as { kind?: string }).kind === 'end')).toBe(false);
    expect(logged).toEqual([]);
  });

  it('documents both routes with NDJSON content and named schemas', async () => {
    const engram = await engine();
    const app = createHttpApp({ engram, log: () => undefined });
    const doc = (await (await app.request(`${base}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content?: Record<string, unknown> }> }
        >
      >;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths['/v1/export']!.get!.responses['200']!.content!)).toEqual(['application/x-ndjson']);
    expect(Object.keys(doc.paths['/v1/import']!.post!.requestBody!.content)).toEqual(['application/x-ndjson']);
    expect(doc.paths['/v1/import']!.post!.responses['200']!.content!['application/json']).toEqual({
      schema: { $ref: '#/components/schemas/DumpImportReport' },
    });
    for (const name of ['DumpLine', 'DumpHeader', 'DumpImportReport']) expect(doc.components.schemas[name], name).toBeDefined();
  });
});
