/**
 * `POST /v1/surface`, `/v1/decay`, `/v1/expire` and decision chains over HTTP, in-process through
 * `app.request()`, on planted data with an injected clock; keys bound to a tenant stay in it, and the
 * OpenAPI document names the new schemas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import { ApiKeys, createHttpApp, type HttpApp } from '../../src/interfaces/http/index.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/agent';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
async function post(app: HttpApp, path: string, body: unknown, key?: string): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(key !== undefined ? { authorization: `Bearer ${key}` } : {}),
  };
  const response = await app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

async function open() {
  const clock = new ManualClock(T0);
  const t = await tempEngram({ clock });
  cleanups.push(t.cleanup);
  return { engram: t.engram, clock, app: createHttpApp({ engram: t.engram, auth: 'open', log: () => undefined }) };
}

describe('MAPLE maintenance over HTTP', () => {
  it('surface, decay (dry run, then run), expire (dry run by default, then tombstones), GET answers the tombstone', async () => {
    const { engram, clock, app } = await open();
    const [idle, important] = await engram.remember([
      { scope: SCOPE, content: 'A passing remark about lunch.', importance: 0.2 },
      { scope: SCOPE, content: 'The customer database holds personal data: encrypt every backup.', importance: 0.95, layer: 'semantic' },
    ]);
    const surfaced = await post(app, '/v1/surface', { scopes: [SCOPE], limit: 1 });
    expect(surfaced.status).toBe(200);
    expect(surfaced.json.hits.map((h: { id: string }) => h.id)).toEqual([important!.id]);
    expect(surfaced.json.hits[0].why).toMatchObject({ importance: 0.95, relevance: null });
    const about = await post(app, '/v1/surface', { scopes: [SCOPE], context: 'lunch remark', limit: 1 });
    expect(about.json.hits[0].id).toBe(idle!.id);
    expect((await post(app, '/v1/surface', { limit: 1 })).status).toBe(400);

    clock.set(T0 + 8 * DAY);
    const dry = await post(app, '/v1/decay', { scope: SCOPE, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ name: 'decay', dryRun: true, runId: null, decayed: [idle!.id], counts: { decayed: 1, expired: 0 } });
    const run = await post(app, '/v1/decay', { scope: SCOPE });
    expect(run.json).toMatchObject({ dryRun: false, decayed: [idle!.id] });

    clock.set(T0 + 40 * DAY);
    const preview = await post(app, '/v1/expire', { scope: SCOPE });
    expect(preview.json).toMatchObject({ dryRun: true, expired: 1, ids: [idle!.id], auditIds: [] });
    const done = await post(app, '/v1/expire', { scope: SCOPE, dryRun: false });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ dryRun: false, expired: 1 });
    const got = await app.request(`/v1/memories/${idle!.id}?scopes=${SCOPE}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ id: idle!.id, status: 'expired', content: '', tombstone: true, expiredAt: T0 + 40 * DAY });
    expect((await post(app, '/v1/expire', { scope: SCOPE, dryRun: 'no' })).status).toBe(400);
  });

  it('recall and context return decision chains with chains: true', async () => {
    const { app } = await open();
    const decided = await post(app, '/v1/memories', {
      scope: SCOPE,
      content: 'Decided to run the search cluster on three nodes.',
      decision: { intent: 'cluster size', rationale: 'survive one node loss' },
      rejected: ['A single large node'],
    });
    expect(decided.status).toBe(200);
    const outcome = await post(app, '/v1/memories', {
      scope: SCOPE,
      content: 'One search node died in May and search stayed up.',
      follows: decided.json.id,
    });
    const recall = await post(app, '/v1/recall', { scopes: [SCOPE], query: 'search cluster nodes', chains: true });
    const hit = recall.json.hits.find((h: { id: string }) => h.id === decided.json.id);
    expect(hit.chain.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [decided.json.id, 'decision'],
      [decided.json.rejected[0], 'rejected'],
      [outcome.json.id, 'outcome'],
    ]);
    const context = await post(app, '/v1/context', { scopes: [SCOPE], message: 'why three search nodes?', chains: true, budgetMs: 5000 });
    expect(context.json.parts.chains.items[0].members).toHaveLength(3);
    const edge = await post(app, '/v1/relations', { scope: SCOPE, from: decided.json.id, type: 'LED_TO', to: outcome.json.id });
    expect(edge.json.action).toBe('updated');
  });

  it('a tenant key cannot surface, decay or expire another tenant; the OpenAPI document names the schemas', async () => {
    const clock = new ManualClock(T0);
    const t = await tempEngram({ clock });
    cleanups.push(t.cleanup);
    const keys = new ApiKeys(t.engram.store, { presenceTtlMs: 0 });
    const app = createHttpApp({ engram: t.engram, keys, auth: 'auto', log: () => undefined });
    const { key } = await keys.create({ tenant: 'acme' });
    for (const [path, body] of [
      ['/v1/surface', { scopes: ['globex/x'] }],
      ['/v1/decay', { scope: 'globex/x' }],
      ['/v1/expire', { scope: 'globex/x', dryRun: false }],
    ] as const) {
      const denied = await post(app, path, body, key);
      expect(denied.status, path).toBe(403);
    }
    expect((await post(app, '/v1/expire', { scope: SCOPE }, key)).status).toBe(200);
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/surface', '/v1/decay', '/v1/expire']));
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['SurfaceHit', 'SurfaceWhy', 'DecayReport', 'ExpireReport']),
    );
  });
});
