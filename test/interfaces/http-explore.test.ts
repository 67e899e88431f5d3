/**
 * The exploring routes over a real HTTP server on 127.0.0.1: consolidation runs, overview, graph,
 * versions, provenance, activation steps and browsing at an instant; an API key sees its tenant only
 * (another tenant's scope is 403, its own reads show nothing of the first tenant), a keyless caller the
 * server's --scope list; every read needs a scope; bad parameters are 400 naming the parameter; the
 * OpenAPI document names the response schemas.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import { loopbackServers } from '../helpers/http-app.js';
import { tempEngram } from '../helpers/temp.js';

const DAY = 86_400_000;
const T0 = Date.parse('2024-03-01T09:00:00Z');

const { cleanups, server } = loopbackServers();

/** Two tenants: acme with episodes (concepts after a cycle) and a corrected claim, globex with one note. */
async function seeded() {
  const clock = new ManualClock(T0);
  const t = await tempEngram({ clock });
  cleanups.push(t.cleanup);
  const { engram } = t;
  const old = await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'The deploy target is staging.' });
  const episodes = await engram.remember(
    Array.from({ length: 5 }, (_, i) => ({
      scope: 'acme/a',
      content: `Grasp attempt ${i} on the coffee mug in the kitchen succeeded.`,
      importance: 0.8,
      perception: { objects: ['coffee_mug'], people: ['Alice'] },
      context: { goal: 'grasp_coffee_mug', location: 'kitchen', sessionId: 's1' },
      action: { tool: 'graspObject' },
      outcome: { success: true },
    })),
  );
  clock.advance(10 * DAY);
  const fix = await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'The deploy target moved from staging to production.' });
  await engram.remember({ scope: 'globex/x', content: 'Globex secret about the launch.' });
  await engram.processJobs();
  const report = await engram.consolidate({ scope: 'acme/a', phases: ['extract', 'ground', 'decay'] });
  const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
  const acme = (await keys.create({ tenant: 'acme' })).key;
  const globex = (await keys.create({ tenant: 'globex' })).key;
  return { engram, clock, keys, acme, globex, old, fix, episodes, report };
}

describe('exploring routes', () => {
  it('an API key reads its tenant; another tenant is refused and sees nothing of it', async () => {
    const s = await seeded();
    const call = await server(s.engram, { auth: 'auto', keys: s.keys });
    const runs = await call('/v1/consolidation/runs?scope=acme/a', { key: s.acme });
    expect(runs.status).toBe(200);
    expect(runs.body).toEqual({ items: [s.report], nextCursor: null });
    expect((await call(`/v1/consolidation/runs/${s.report.id}?scope=acme/a`, { key: s.acme })).body).toEqual(s.report);
    const overview = await call('/v1/overview?scope=acme/a', { key: s.acme });
    expect(overview.status).toBe(200);
    expect(overview.body.totals.total).toBeGreaterThan(7);
    expect(overview.body.lastRun).toEqual({ id: s.report.id, scope: 'acme/a', finishedAt: s.report.finishedAt });
    expect(overview.body.growth.map((g: { day: string }) => g.day)).toEqual(['2024-03-01', '2024-03-11']);
    const graph = await call('/v1/graph?scope=acme/a', { key: s.acme });
    expect(graph.body.nodes.length).toBeGreaterThan(0);
    const focus = await call(`/v1/graph?scope=acme/a&focus=${s.episodes[0]!.id}&relationType=REF`, { key: s.acme });
    expect(focus.body.edges.length).toBeGreaterThan(0);
    expect(focus.body.edges.every((e: { type: string; from: string }) => e.type === 'REF' && e.from === s.episodes[0]!.id)).toBe(true);
    const versions = await call(`/v1/memories/${s.old.id}/versions?scope=acme/a`, { key: s.acme });
    expect(versions.body.chain.map((v: { id: string; supersededBy: string[] }) => [v.id, v.supersededBy])).toEqual([
      [s.old.id, [s.fix.id]],
      [s.fix.id, []],
    ]);
    expect(versions.body.chain[0]).toMatchObject({
      validTo: '2024-03-11T09:00:00.000Z',
      recordedAt: '2024-03-01T09:00:00.000Z',
      supersededAt: '2024-03-11T09:00:00.000Z',
    });
    const provenance = await call(`/v1/memories/${s.episodes[0]!.id}/provenance?scope=acme/a`, { key: s.acme });
    expect(provenance.body.concepts.length).toBeGreaterThan(0);
    const activation = await call('/v1/activate', { method: 'POST', key: s.acme, body: { id: s.episodes[0]!.id, scopes: ['acme/a'] } });
    expect(activation.body.steps[0]).toEqual({
      hop: 1,
      activated: expect.arrayContaining([{ id: provenance.body.concepts[0].id, activation: expect.any(Number) }]),
    });
    expect(activation.body.ranked.length).toBeGreaterThan(0);

    // another tenant: refused on acme's scope, and its own reads hold nothing of acme
    for (const path of [
      '/v1/consolidation/runs?scope=acme/a',
      `/v1/consolidation/runs/${s.report.id}?scope=acme/a`,
      '/v1/overview?scope=acme/a',
      '/v1/graph?scope=acme/a',
      `/v1/memories/${s.old.id}/versions?scope=acme/a`,
      `/v1/memories/${s.old.id}/provenance?scope=acme/a`,
      '/v1/overview?scope=globex/x&scope=acme/a',
    ]) {
      const refused = await call(path, { key: s.globex });
      expect(refused.status, path).toBe(403);
      expect(JSON.stringify(refused.body), path).not.toContain('staging');
    }
    expect((await call('/v1/consolidation/runs?scope=globex/x', { key: s.globex })).body).toEqual({ items: [], nextCursor: null });
    expect((await call(`/v1/consolidation/runs/${s.report.id}?scope=globex/x`, { key: s.globex })).status).toBe(404);
    expect((await call(`/v1/memories/${s.old.id}/versions?scope=globex/x`, { key: s.globex })).status).toBe(404);
    expect((await call(`/v1/graph?scope=globex/x&focus=${s.episodes[0]!.id}`, { key: s.globex })).status).toBe(404);
    const theirs = await call('/v1/overview?scope=globex/x', { key: s.globex });
    expect(theirs.body.totals.total).toBe(1);
    expect(theirs.body.lastRun).toBeNull();
    expect(JSON.stringify(theirs.body)).not.toMatch(/coffee|staging/);
    expect((await call('/v1/graph?scope=globex/x', { key: s.globex })).body).toEqual({ nodes: [], edges: [], truncated: false });
    expect((await call('/v1/overview?scope=acme/a')).status).toBe(401);
  });

  it('every read needs a scope; bad parameters are 400 naming them; keyless callers see the --scope list', async () => {
    const s = await seeded();
    const call = await server(s.engram, { auth: 'open', scopes: ['acme/a'] });
    const cases: [string, string][] = [
      ['/v1/consolidation/runs', 'scope'],
      ['/v1/overview', 'scope'],
      ['/v1/graph', 'scope'],
      [`/v1/memories/${s.old.id}/versions`, 'scope'],
      [`/v1/memories/${s.old.id}/provenance`, 'scope'],
      ['/v1/consolidation/runs?scope=acme/a&limit=500', 'limit'],
      ['/v1/consolidation/runs?scope=acme/a&limit=ten', 'limit'],
      ['/v1/consolidation/runs?scope=acme/a&cursor=abc', 'cursor'],
      ['/v1/consolidation/runs?scope=acme/a&limit=1&limit=2', 'limit'],
      ['/v1/consolidation/runs/last?scope=acme/a', 'id'],
      ['/v1/graph?scope=acme/a&limit=0', 'limit'],
      ['/v1/graph?scope=acme/a&focus=a&focus=b', 'focus'],
      ['/v1/overview?scope=../x', 'scope'],
      ['/v1/memories?scope=acme/a&asOf=yesterday', 'asOf'],
      ['/v1/memories?scope=acme/a&knownAt=2024-02-30', 'knownAt'],
    ];
    for (const [url, field] of cases) {
      const response = await call(url);
      expect(response.status, url).toBe(400);
      expect(response.body.error.code, url).toBe('INVALID_INPUT');
      expect(response.body.error.message, url).toContain(field);
    }
    const notServed = await call('/v1/overview?scope=globex/x');
    expect(notServed.status).toBe(403);
    expect(notServed.body.error.message).toMatch(/--scope/);
    const missing = await call('/v1/consolidation/runs/01HZZZZZZZZZZZZZZZZZZZZZZZ?scope=acme/a');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    // browsing at an instant: before the correction the old claim was what was true
    const past = await call(`/v1/memories?scope=acme/a&layer=semantic&asOf=${T0 + DAY}`);
    expect(past.body.items.map((i: { id: string }) => i.id)).toEqual([s.old.id]);
    const believed = await call('/v1/memories?scope=acme/a&layer=semantic&knownAt=2024-03-05T00:00:00Z');
    expect(believed.body.items.map((i: { id: string }) => i.id)).toEqual([s.old.id]);
    const now = await call('/v1/memories?scope=acme/a&layer=semantic&asOf=2024-03-12');
    expect(now.body.items.map((i: { id: string }) => i.id)).toContain(s.fix.id);
    expect(now.body.items.map((i: { id: string }) => i.id)).not.toContain(s.old.id);
  });

  it('pages runs by cursor, and the OpenAPI document names the response schemas', async () => {
    const s = await seeded();
    for (let i = 0; i < 3; i++) {
      s.clock.advance(DAY);
      await s.engram.consolidate({ scope: 'acme/a', phases: ['decay'] });
    }
    const call = await server(s.engram, { auth: 'open' });
    const ids: string[] = [];
    let path = '/v1/consolidation/runs?scope=acme/a&limit=3';
    for (;;) {
      const page = await call(path);
      expect(page.status).toBe(200);
      ids.push(...page.body.items.map((r: { id: string }) => r.id));
      if (page.body.nextCursor === null) break;
      path = `/v1/consolidation/runs?scope=acme/a&limit=3&cursor=${page.body.nextCursor}`;
    }
    expect(ids).toHaveLength(4);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(ids.at(-1)).toBe(s.report.id);

    const doc = (await call('/openapi.json')).body;
    for (const path of [
      '/v1/consolidation/runs',
      '/v1/consolidation/runs/{id}',
      '/v1/overview',
      '/v1/graph',
      '/v1/memories/{id}/versions',
      '/v1/memories/{id}/provenance',
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
      expect(doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'scope')?.required, path).toBe(true);
    }
    const schemas = doc.components.schemas as Record<string, unknown>;
    for (const name of [
      'ConsolidationReport',
      'PhaseReport',
      'ConsolidationRunsPage',
      'Overview',
      'DecayCandidate',
      'Graph',
      'GraphNode',
      'GraphEdge',
      'VersionChain',
      'ChainVersion',
      'Provenance',
      'RecordSummary',
      'Activation',
      'Error',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(doc.paths['/v1/overview'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Overview',
    });
    // every reference resolves to a named component (a schema, or a shared error response)
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const [kind, name] = ref.slice('"$ref":"#/components/'.length, -1).split('/') as [string, string];
      expect(doc.components[kind]?.[name], ref).toBeDefined();
    }
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });
});
