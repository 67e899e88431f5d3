/**
 * Browse and purge over a real HTTP server on 127.0.0.1: which scopes each caller sees (an API key its
 * tenant's, a keyless caller the server's --scope list, else every scope), pagination by cursor, bad
 * input answered 400 naming the field, and purge needing confirm.
 */
import { describe, expect, it } from 'vitest';
import { ApiKeys, createHttpApp } from '../../src/interfaces/http/index.js';
import { loopbackServers } from '../helpers/http-app.js';
import { tempEngram } from '../helpers/temp.js';

const { cleanups, server } = loopbackServers();

async function seeded() {
  const t = await tempEngram();
  cleanups.push(t.cleanup);
  await t.engram.remember([
    { scope: 'acme/a', content: 'Acme note one about the launch.' },
    { scope: 'acme/a', content: 'Acme note two about the launch.', tags: ['launch'] },
    { scope: 'acme/a', layer: 'semantic', content: 'The launch date is in May.' },
    { scope: 'acme/b', content: 'Acme note in another scope.' },
    { scope: 'globex/x', content: 'Globex secret about the launch.' },
  ]);
  return t.engram;
}

describe('GET /v1/memories and /v1/scopes', () => {
  it('an API key sees its tenant only; another tenant sees nothing of it', async () => {
    const engram = await seeded();
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const acme = (await keys.create({ tenant: 'acme' })).key;
    const globex = (await keys.create({ tenant: 'globex' })).key;
    const call = await server(engram, { auth: 'auto', keys });
    const mine = await call('/v1/memories', { key: acme });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((i: { scope: string }) => i.scope).sort()).toEqual(['acme/a', 'acme/a', 'acme/a', 'acme/b']);
    expect(mine.body.nextCursor).toBeNull();
    expect((await call('/v1/scopes', { key: acme })).body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['acme/a', 'acme/b']);
    expect((await call('/v1/scopes', { key: acme })).body.scopes[0]).toEqual({
      scope: 'acme/a',
      total: 3,
      byLayer: { episodic: 2, semantic: 1, procedural: 0, statistical: 0 },
      byStatus: { active: 3, superseded: 0, decayed: 0, expired: 0, deleted: 0 },
    });
    const theirs = await call('/v1/memories?text=launch', { key: globex });
    expect(theirs.body.items.map((i: { content: string }) => i.content)).toEqual(['Globex secret about the launch.']);
    expect(JSON.stringify((await call('/v1/scopes', { key: globex })).body)).not.toContain('acme');
    expect((await call('/v1/memories?scope=acme/a', { key: globex })).status).toBe(403);
    expect(
      (await call('/v1/memories?scope=acme/a&layer=semantic', { key: acme })).body.items.map((i: { content: string }) => i.content),
    ).toEqual(['The launch date is in May.']);
    expect((await call('/v1/memories')).status).toBe(401);
  });

  it("keyless: the server's --scope list, else every scope", async () => {
    const engram = await seeded();
    const limited = await server(engram, { auth: 'open', scopes: ['acme/a', 'acme/empty'] });
    expect((await limited('/v1/memories')).body.items).toHaveLength(3);
    expect((await limited('/v1/scopes')).body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['acme/a']);
    const denied = await limited('/v1/memories?scope=acme/b');
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/acme\/b/);
    const open = await server(engram, { auth: 'open' });
    expect((await open('/v1/scopes')).body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['acme/a', 'acme/b', 'globex/x']);
    expect((await open('/v1/memories?limit=200')).body.items).toHaveLength(5);
  });

  it('pages follow nextCursor; bad input is a 400 naming the field', async () => {
    const engram = await seeded();
    const call = await server(engram, { auth: 'open' });
    const seen: string[] = [];
    let path = '/v1/memories?scope=acme/a&scope=acme/b&limit=2&order=asc';
    for (;;) {
      const page = await call(path);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      if (page.body.nextCursor === null) break;
      path = `/v1/memories?scope=acme/a,acme/b&limit=2&order=asc&cursor=${page.body.nextCursor}`;
    }
    expect(new Set(seen).size).toBe(4);
    const first = await call('/v1/memories?limit=1');
    const cursor = first.body.nextCursor as string;
    const cases: [string, string][] = [
      ['/v1/memories?limit=500', 'limit'],
      ['/v1/memories?limit=ten', 'limit'],
      ['/v1/memories?layer=dreams', 'layer'],
      ['/v1/memories?status=gone', 'status'],
      ['/v1/memories?sort=size', 'sort'],
      ['/v1/memories?order=up', 'order'],
      ['/v1/memories?validFrom=yesterday', 'validFrom'],
      ['/v1/memories?recordedFrom=2024-05-01&recordedTo=2024-04-01', 'recordedTo'],
      ['/v1/memories?tag=a&tag=b', 'tag'],
      ['/v1/memories?scope=../x', 'scope'],
      [`/v1/memories?cursor=${cursor.slice(0, -2)}x`, 'cursor'],
      [`/v1/memories?cursor=${cursor}&text=launch`, 'cursor'],
    ];
    for (const [url, field] of cases) {
      const response = await call(url);
      expect(response.status, url).toBe(400);
      expect(response.body.error.code).toBe('INVALID_INPUT');
      expect(response.body.error.message, url).toContain(field);
    }
    // a number that is out of range or not whole is told so, not "must be a number"
    const said: [string, RegExp][] = [
      ['/v1/memories?limit=-1', /limit is too small \(minimum 1\)/],
      ['/v1/memories?limit=0', /limit is too small \(minimum 1\)/],
      ['/v1/memories?limit=1.5', /limit must be a whole number/],
      ['/v1/memories?limit=ten', /limit must be a number/],
    ];
    for (const [url, message] of said) {
      const response = await call(url);
      expect(response.status, url).toBe(400);
      expect(response.body.error.message, url).toMatch(message);
    }
  });
});

describe('unknown query parameters', () => {
  it('are refused with 400 naming the parameter, the nearest accepted one and every accepted one', async () => {
    const engram = await seeded();
    const call = await server(engram, { auth: 'open' });
    // tags is not a filter: without the check every record came back, as if filtered
    const misspelt = await call('/v1/memories?scope=acme/a&tags=launch');
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.error.code).toBe('INVALID_INPUT');
    expect(misspelt.body.error.message).toMatch(
      /unknown query parameter "tags" \(did you mean tag\?\): GET \/v1\/memories accepts scope, layer, status, tag, entity, text,/,
    );
    expect(misspelt.body.error.details).toMatchObject({ field: 'tags' });
    const cases: [string, RegExp][] = [
      ['/v1/memories?Scope=acme/a', /"Scope" \(did you mean scope\?\)/],
      ['/v1/memories?scope=acme/a&as_of=2024-01-01', /"as_of" \(did you mean asOf\?\)/],
      ['/v1/memories?scope=acme/a&colour=red', /unknown query parameter "colour": GET \/v1\/memories accepts/],
      ['/v1/stats?scopes=acme/a&layer=semantic', /unknown query parameter "layer": GET \/v1\/stats accepts scopes\./],
      ['/v1/overview?scope=acme/a&limit=5', /unknown query parameter "limit": GET \/v1\/overview accepts scope\./],
      ['/v1/graph?scope=acme/a&relationTypes=IS_A', /"relationTypes" \(did you mean relationType\?\)/],
      ['/v1/scopes?scope=acme/a', /GET \/v1\/scopes takes no query parameters, not "scope"/],
      ['/v1/export?scope=acme/a&embedding=true', /"embedding" \(did you mean embeddings\?\)/],
    ];
    for (const [path, message] of cases) {
      const response = await call(path);
      expect(response.status, path).toBe(400);
      expect(response.body.error.message, path).toMatch(message);
    }
    const recall = await call('/v1/recall?k=5', { method: 'POST', body: { scopes: ['acme/a'], query: 'launch' } });
    expect(recall.status).toBe(400);
    expect(recall.body.error.message).toMatch(
      /POST \/v1\/recall takes no query parameters, not "k": send the request's fields in the JSON body/,
    );
  });

  it('a GET that takes none says so without pointing to a body; /health and /openapi.json refuse them too', async () => {
    const engram = await seeded();
    const call = await server(engram, { auth: 'open' });
    const scopes = await call('/v1/scopes?scope=acme/a');
    expect(scopes.status).toBe(400);
    expect(scopes.body.error.message).toMatch(/GET \/v1\/scopes takes no query parameters, not "scope"\.$/);
    expect(scopes.body.error.message).not.toMatch(/body/);
    for (const [path, endpoint, name] of [
      ['/health?scopes=a', 'GET /health', 'scopes'],
      ['/openapi.json?x=1', 'GET /openapi.json', 'x'],
    ] as const) {
      const response = await call(path);
      expect(response.status, path).toBe(400);
      expect(response.body.error.code, path).toBe('INVALID_INPUT');
      expect(response.body.error.message, path).toContain(`${endpoint} takes no query parameters, not "${name}"`);
      expect(response.body.error.message, path).not.toMatch(/body/);
    }
    const health = await createHttpApp({ engram, auth: 'open', ui: false }).request('http://127.0.0.1/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('cache-control')).toBe('no-store');
    expect((await call('/openapi.json')).status).toBe(200);
  });

  it('accepts every parameter the web UI and the Python client send, under both scope spellings', async () => {
    const engram = await seeded();
    const call = await server(engram, { auth: 'open' });
    const [id] = (await call('/v1/memories?scope=acme/a&limit=1')).body.items.map((i: { id: string }) => i.id) as [string];
    for (const path of [
      '/v1/memories?scope=acme/a&layer=episodic&layer=semantic&status=active&tag=launch&entity=x&text=launch&validFrom=2020-01-01&validTo=2999-01-01&recordedFrom=0&recordedTo=99999999999999&sort=validFrom&order=asc&limit=5',
      '/v1/memories?scopes=acme/a&asOf=2999-01-01&knownAt=2999-01-01',
      '/v1/stats?scopes=acme/a',
      '/v1/stats?scope=acme/a',
      '/v1/overview?scope=acme/a',
      '/v1/overview?scopes=acme/a',
      '/v1/consolidation/runs?scope=acme/a&limit=50',
      '/v1/graph?scope=acme/a&limit=200&relationType=IS_A',
      `/v1/graph?scope=acme/a&focus=${id}`,
      `/v1/memories/${id}?scopes=acme/a`,
      `/v1/memories/${id}?scope=acme/a`,
      `/v1/memories/${id}/history?scopes=acme/a`,
      `/v1/memories/${id}/versions?scope=acme/a`,
      `/v1/memories/${id}/provenance?scope=acme/a`,
      `/v1/memories/${id}/edges?scopes=acme/a&types=IS_A&asOf=2999-01-01&knownAt=2999-01-01`,
      '/v1/relations/types?scopes=acme/a',
    ]) {
      const response = await call(path);
      expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    }
    const patched = await call(`/v1/memories/${id}?scope=acme/a`, { method: 'PATCH', body: { pinned: true } });
    expect(patched.status).toBe(200);
  });
});

describe('POST /v1/purge', () => {
  it("needs confirm, stays inside the key's tenant, removes for good", async () => {
    const engram = await seeded();
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const acme = (await keys.create({ tenant: 'acme' })).key;
    const globex = (await keys.create({ tenant: 'globex' })).key;
    const call = await server(engram, { auth: 'auto', keys });
    const [target] = (await call('/v1/memories?scope=acme/a&tag=launch', { key: acme })).body.items as { id: string }[];
    const refused = await call('/v1/purge', { method: 'POST', key: acme, body: { scope: 'acme/a', ids: [target!.id] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/confirm: true/);
    expect(
      (await call('/v1/purge', { method: 'POST', key: acme, body: { scope: 'acme/a', ids: [target!.id], confirm: 'yes' } })).status,
    ).toBe(400);
    expect((await call(`/v1/memories/${target!.id}?scope=acme/a`, { key: acme })).status).toBe(200);
    expect(
      (await call('/v1/purge', { method: 'POST', key: globex, body: { scope: 'acme/a', ids: [target!.id], confirm: true } })).status,
    ).toBe(403);
    const done = await call('/v1/purge', { method: 'POST', key: acme, body: { scope: 'acme/a', ids: [target!.id], confirm: true } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      purged: 1,
      removed: { records: 1, chunks: 0, edges: 0, refs: 0, statistics: 0, history: 0, indexEntries: 2, states: 0 },
      restored: [],
      auditId: expect.any(String),
    });
    expect((await call(`/v1/memories/${target!.id}?scope=acme/a`, { key: acme })).status).toBe(404);
    const byFilter = await call('/v1/purge', {
      method: 'POST',
      key: acme,
      body: { scope: 'acme/a', filter: { text: 'LAUNCH DATE' }, confirm: true },
    });
    expect(byFilter.body.purged).toBe(1);
    expect(
      (await call('/v1/purge', { method: 'POST', key: acme, body: { scope: 'acme/a', filter: { layers: ['dreams'] }, confirm: true } }))
        .status,
    ).toBe(400);
    expect((await call('/v1/memories?text=launch', { key: globex })).body.items).toHaveLength(1);
  });

  it('the OpenAPI document lists browse, scopes and purge', async () => {
    const engram = await seeded();
    const call = await server(engram, { auth: 'open' });
    const doc = (await call('/openapi.json')).body;
    expect(doc.paths['/v1/memories'].get.operationId).toBe('listMemories');
    expect(doc.paths['/v1/memories'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['scope', 'layer', 'status', 'tag', 'entity', 'text', 'sort', 'order', 'limit', 'cursor']),
    );
    expect(doc.paths['/v1/scopes'].get.operationId).toBe('listScopes');
    expect(doc.paths['/v1/purge'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PurgeRequest',
    });
    expect(doc.components.schemas.PurgeRequest.required).toEqual(expect.arrayContaining(['scope', 'confirm']));
  });
});
