/**
 * A keyless server started with --scope is held to that list on every /v1 route, as a key is held to
 * its tenant: naming another scope is 403 SCOPE_DENIED, and nothing of that scope is read or written.
 * Every route of the table needs a case here, so a new route cannot skip the check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { ApiKeys, createHttpApp, httpRoutes, type HttpApp } from '../../src/interfaces/http/index.js';
import { tempEngram } from '../helpers/temp.js';

const SERVED = 'acme/a';
const OTHER = 'beta/x';

let engram: Engram;
let cleanup: () => Promise<void>;
let app: HttpApp;
let served: { id: string };
let other: { id: string };
let otherPeer: { id: string };
const OTHER_CONTENT = 'Carol likes coffee.';

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  app = createHttpApp({ engram, auth: 'open', scopes: [SERVED], log: () => undefined, ui: false });
  served = await engram.remember({ scope: SERVED, layer: 'semantic', content: 'Alice likes tea.' });
  other = await engram.remember({ scope: OTHER, layer: 'semantic', content: OTHER_CONTENT });
  otherPeer = await engram.remember({ scope: OTHER, layer: 'semantic', content: 'Carol works in Lisbon.' });
});
afterAll(async () => cleanup());

function call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Response> {
  return Promise.resolve(
    app.request(`http://127.0.0.1${path}`, {
      method,
      headers: { 'content-type': contentType },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    }),
  );
}

/** One request per route naming the scope the server does not serve, keyed by `METHOD path`. */
async function requestsNamingOther(): Promise<Record<string, () => Promise<Response>>> {
  const id = other.id;
  let dump = '';
  for await (const line of engram.exportJsonl({ scopes: [OTHER] })) dump += line;
  return {
    'POST /v1/memories': () => call('POST', '/v1/memories', { scope: OTHER, content: 'Written from outside --scope.' }),
    'GET /v1/memories/:id': () => call('GET', `/v1/memories/${id}?scopes=${OTHER}`),
    'PATCH /v1/memories/:id': () => call('PATCH', `/v1/memories/${id}?scope=${OTHER}`, { content: 'Carol likes tea.' }),
    'DELETE /v1/memories/:id': () => call('DELETE', `/v1/memories/${id}?scope=${OTHER}`),
    'POST /v1/memories/:id/restore': () => call('POST', `/v1/memories/${id}/restore`, { scope: OTHER }),
    'POST /v1/memories/:id/unsupersede': () => call('POST', `/v1/memories/${id}/unsupersede`, { scope: OTHER }),
    'GET /v1/memories/:id/history': () => call('GET', `/v1/memories/${id}/history?scopes=${OTHER}`),
    'GET /v1/memories': () => call('GET', `/v1/memories?scope=${OTHER}`),
    'POST /v1/purge': () => call('POST', '/v1/purge', { scope: OTHER, ids: [id], confirm: true }),
    'POST /v1/recall': () => call('POST', '/v1/recall', { scopes: [OTHER], query: 'coffee' }),
    'GET /v1/stats': () => call('GET', `/v1/stats?scopes=${OTHER}`),
    'POST /v1/stats': () => call('POST', '/v1/stats', { scopes: [OTHER] }),
    'POST /v1/context': () => call('POST', '/v1/context', { scopes: [OTHER], message: 'What does Carol like?' }),
    'POST /v1/predict': () => call('POST', '/v1/predict', { scopes: [OTHER], episode: { perception: 'Carol orders a drink' } }),
    'POST /v1/relations': () => call('POST', '/v1/relations', { scope: OTHER, from: id, type: 'RELATED_TO', to: otherPeer.id }),
    'GET /v1/relations/types': () => call('GET', `/v1/relations/types?scopes=${OTHER}`),
    'POST /v1/relations/types': () => call('POST', '/v1/relations/types', { scope: OTHER, name: 'LIKES', symmetric: false }),
    'GET /v1/memories/:id/edges': () => call('GET', `/v1/memories/${id}/edges?scopes=${OTHER}`),
    'POST /v1/activate': () => call('POST', '/v1/activate', { id, scopes: [OTHER] }),
    'POST /v1/consolidate': () => call('POST', '/v1/consolidate', { scope: OTHER }),
    'POST /v1/sessions/end': () => call('POST', '/v1/sessions/end', { scope: OTHER, sessionId: 's1' }),
    'POST /v1/surface': () => call('POST', '/v1/surface', { scopes: [OTHER] }),
    'POST /v1/decay': () => call('POST', '/v1/decay', { scope: OTHER }),
    'POST /v1/expire': () => call('POST', '/v1/expire', { scope: OTHER, dryRun: false }),
    'GET /v1/export': () => call('GET', `/v1/export?scope=${OTHER}`),
    'POST /v1/import': () => call('POST', '/v1/import', dump, 'application/x-ndjson'),
    'GET /v1/consolidation/runs': () => call('GET', `/v1/consolidation/runs?scope=${OTHER}`),
    'GET /v1/consolidation/runs/:id': () => call('GET', `/v1/consolidation/runs/01HZZZZZZZZZZZZZZZZZZZZZZZ?scope=${OTHER}`),
    'GET /v1/overview': () => call('GET', `/v1/overview?scope=${OTHER}`),
    'GET /v1/graph': () => call('GET', `/v1/graph?scope=${OTHER}`),
    'GET /v1/memories/:id/versions': () => call('GET', `/v1/memories/${id}/versions?scope=${OTHER}`),
    'GET /v1/memories/:id/provenance': () => call('GET', `/v1/memories/${id}/provenance?scope=${OTHER}`),
  };
}

/** Routes that name no scope: they show the served scopes only (checked below). */
const NAMES_NO_SCOPE = ['GET /v1/scopes'];

describe("a keyless caller and the server's --scope list", () => {
  it('is refused another scope on every route, and nothing of that scope is read or written', async () => {
    const before = await engram.stats({ scopes: [OTHER] });
    const requests = await requestsNamingOther();
    const routes = httpRoutes().map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(routes.filter((r) => requests[r] === undefined && !NAMES_NO_SCOPE.includes(r))).toEqual([]);

    for (const [route, send] of Object.entries(requests)) {
      const response = await send();
      const text = await response.text();
      expect(response.status, `${route}: ${text}`).toBe(403);
      const { error } = JSON.parse(text) as { error: { code: string; message: string } };
      expect(error.code, route).toBe('SCOPE_DENIED');
      expect(error.message, route).toContain(OTHER);
      expect(error.message, route).toContain('--scope');
      expect(text, route).not.toMatch(/Carol/);
    }

    const after = await engram.stats({ scopes: [OTHER] });
    expect(after.total).toBe(before.total);
    expect(after.byStatus).toEqual(before.byStatus);
    expect(after.edges).toBe(before.edges);
    const kept = await engram.get(other.id, { scopes: [OTHER] });
    expect(kept.content).toBe(OTHER_CONTENT);
    expect(kept.status).toBe('active');
    expect((await engram.relations({ scopes: [OTHER] })).map((t) => t.name)).not.toContain('LIKES');
  });

  it('is served its own scopes on the same routes, and lists only them', async () => {
    const got = await call('GET', `/v1/memories/${served.id}?scopes=${SERVED}`);
    expect(got.status).toBe(200);
    const recall = await call('POST', '/v1/recall', { scopes: [SERVED], query: 'tea' });
    expect(recall.status).toBe(200);
    const written = await call('POST', '/v1/memories', { scope: SERVED, content: 'Alice drinks green tea.' });
    expect(written.status).toBe(200);
    // naming a served scope and another one is refused whole
    const mixed = await call('GET', `/v1/stats?scopes=${SERVED},${OTHER}`);
    expect(mixed.status).toBe(403);
    const listed = (await (await call('GET', '/v1/scopes')).json()) as { scopes: Array<{ scope: string }> };
    expect(listed.scopes.map((s) => s.scope)).toEqual([SERVED]);
  });

  it("holds a key to the list too: its tenant's scopes of it, as /mcp serves a key", async () => {
    await engram.remember({ scope: 'acme/b', layer: 'semantic', content: 'Acme note outside the list.' });
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const acme = (await keys.create({ tenant: 'acme' })).key;
    const beta = (await keys.create({ tenant: 'beta' })).key;
    const keyed = createHttpApp({ engram, auth: 'required', keys, scopes: [SERVED, OTHER], log: () => undefined, ui: false });
    const as = (key: string, path: string): Promise<Response> =>
      Promise.resolve(keyed.request(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${key}` } }));
    expect((await as(acme, `/v1/stats?scopes=${SERVED}`)).status).toBe(200);
    const outside = await as(acme, '/v1/stats?scopes=acme/b');
    expect(outside.status).toBe(403);
    expect(await outside.text()).toContain('--scope');
    // the tenant check comes first: another tenant's listed scope stays refused as such
    expect((await as(acme, `/v1/stats?scopes=${OTHER}`)).status).toBe(403);
    // browse without scopes: the key's tenant's scopes of the list
    const listed = (await (await as(acme, '/v1/scopes')).json()) as { scopes: Array<{ scope: string }> };
    expect(listed.scopes.map((s) => s.scope)).toEqual([SERVED]);
    const items = (await (await as(beta, '/v1/memories')).json()) as { items: Array<{ scope: string }> };
    expect(new Set(items.items.map((i) => i.scope))).toEqual(new Set([OTHER]));
  });

  it("lets a key import its tenant's dump with its relation types, and list its types, on a --scope server", async () => {
    await engram.registerRelation({ scope: SERVED, name: 'MENTORS', symmetric: false });
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const acme = (await keys.create({ tenant: 'acme' })).key;
    const keyed = createHttpApp({ engram, auth: 'required', keys, scopes: [SERVED], log: () => undefined, ui: false });
    const headers = { authorization: `Bearer ${acme}` };
    const types = await keyed.request('http://127.0.0.1/v1/relations/types', { headers });
    expect(types.status, await types.clone().text()).toBe(200);
    expect(((await types.json()) as { types: { name: string }[] }).types.map((t) => t.name)).toContain('MENTORS');
    let dump = '';
    for await (const line of engram.exportJsonl({ scopes: [SERVED] })) dump += line;
    expect(dump).toContain('"relationType"');
    const imported = await keyed.request('http://127.0.0.1/v1/import', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      body: dump,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    // a scope that is the tenant's name alone is a scope, not the tenant: outside the list, refused, nothing written
    await engram.remember({ scope: 'acme', layer: 'semantic', content: 'A note in the bare tenant scope.' });
    let bare = '';
    for await (const line of engram.exportJsonl({ scopes: ['acme'] })) bare += line;
    await engram.purge({ scope: 'acme', confirm: true });
    const refused = await keyed.request('http://127.0.0.1/v1/import', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      body: bare,
    });
    expect(refused.status).toBe(403);
    expect((await engram.stats({ scopes: ['acme'] })).total).toBe(0);
  });

  it('names any scope when the server has no --scope list', async () => {
    const open = createHttpApp({ engram, auth: 'open', log: () => undefined, ui: false });
    const response = await open.request(`http://127.0.0.1/v1/memories/${other.id}?scopes=${OTHER}`);
    expect(response.status).toBe(200);
  });
});
