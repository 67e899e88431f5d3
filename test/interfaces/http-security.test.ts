/**
 * Security of the HTTP API: tenant keys (401 / 403), body limits (413), malformed JSON (400), no
 * internals in 500s — and after every refused request, the store shows that nothing was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, createHttpApp, requireKey, resolveAuthMode, type HttpApp } from '../../src/interfaces/http/index.js';
import { Engram, type Embedder } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

interface ErrorBody {
  error: { code: string; message: string };
}

let engram: Engram;
let cleanup: () => Promise<void>;
let app: HttpApp;
let keys: ApiKeys;
let acmeKey: string;
let globexKey: string;
const LIMIT = 4096;

function request(
  path: string,
  init: { method?: string; key?: string; body?: string | ReadableStream<Uint8Array>; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  const options: RequestInit & { duplex?: 'half' } = { method: init.method ?? 'POST', headers };
  if (init.body !== undefined) options.body = init.body;
  if (init.body instanceof ReadableStream) options.duplex = 'half';
  return Promise.resolve(app.request(path, options));
}

async function errorOf(response: Response): Promise<ErrorBody['error']> {
  const body = (await response.json()) as ErrorBody;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(20);
  return body.error;
}

/** Total memories in every scope the tests touch, read straight from the engine (not over HTTP). */
async function totalWritten(): Promise<number> {
  const stats = await engram.stats({ scopes: ['acme/a', 'acme/b', 'globex/a'] });
  return stats.total;
}

const memory = (scope: string, content = 'The staging database runs PostgreSQL 15.') => JSON.stringify({ scope, content });

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
  keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
  app = createHttpApp({ engram, keys, limits: { maxBodyBytes: LIMIT }, log: () => undefined });
});
afterAll(async () => cleanup());

describe('HTTP API security', () => {
  it('is open on a fresh store in auto mode, and requires keys once one exists', async () => {
    const before = await request('/v1/stats?scopes=acme/a', { method: 'GET' });
    expect(before.status).toBe(200);
    acmeKey = (await keys.create({ tenant: 'acme' })).key;
    globexKey = (await keys.create({ tenant: 'globex', label: 'globex bot' })).key;
    expect(acmeKey).toMatch(/^egk_[A-Za-z0-9_-]{43}$/);
    const after = await request('/v1/stats?scopes=acme/a', { method: 'GET' });
    expect(after.status).toBe(401);
  });

  it('stores only hashes of keys', async () => {
    const listed = JSON.stringify(await keys.list());
    expect(listed).not.toContain(acmeKey);
    expect(JSON.stringify(await engram.store.listApiKeys())).not.toContain(acmeKey);
  });

  it('missing key → 401 with a clear body and WWW-Authenticate, nothing written', async () => {
    const response = await request('/v1/memories', { body: memory('acme/a') });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const error = await errorOf(response);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(/Authorization: Bearer/);
    expect(await totalWritten()).toBe(0);
  });

  it('unknown key, malformed header and revoked key → 401, nothing written', async () => {
    for (const authorization of [`Bearer egk_${'x'.repeat(43)}`, `Basic ${acmeKey}`, 'Bearer', `Bearer ${acmeKey} extra`]) {
      const response = await request('/v1/memories', { body: memory('acme/a'), headers: { authorization } });
      expect(response.status, authorization).toBe(401);
      expect((await errorOf(response)).code).toBe('UNAUTHORIZED');
    }
    const doomed = await keys.create({ tenant: 'acme' });
    expect((await request('/v1/stats?scopes=acme/a', { method: 'GET', key: doomed.key })).status).toBe(200);
    await keys.revoke(doomed.id);
    const revoked = await request('/v1/memories', { body: memory('acme/a'), key: doomed.key });
    expect(revoked.status).toBe(401);
    expect((await errorOf(revoked)).message).toMatch(/revoked/);
    expect(await totalWritten()).toBe(0);
  });

  it('wrong tenant → 403 for writes, batches, reads and writes by id, nothing written', async () => {
    const write = await request('/v1/memories', { body: memory('globex/a'), key: acmeKey });
    expect(write.status).toBe(403);
    const error = await errorOf(write);
    expect(error.code).toBe('SCOPE_DENIED');
    expect(error.message).toContain('"acme"');

    // One foreign item poisons the whole batch: nothing of it is written.
    const batch = await request('/v1/memories', { body: `[${memory('acme/a')},${memory('globex/a')}]`, key: acmeKey });
    expect(batch.status).toBe(403);

    const recall = await request('/v1/recall', {
      body: JSON.stringify({ scopes: ['acme/a', 'globex/a'], query: 'database' }),
      key: acmeKey,
    });
    expect(recall.status).toBe(403);
    const get = await request('/v1/memories/01ANY?scopes=globex/a', { method: 'GET', key: acmeKey });
    expect(get.status).toBe(403);
    const forget = await request('/v1/memories/01ANY?scope=globex/a', { method: 'DELETE', key: acmeKey });
    expect(forget.status).toBe(403);
    const patch = await request('/v1/memories/01ANY', {
      method: 'PATCH',
      body: JSON.stringify({ scope: 'globex/a', pinned: true }),
      key: acmeKey,
    });
    expect(patch.status).toBe(403);
    const stats = await request('/v1/stats', { body: JSON.stringify({ scopes: ['globex/a'] }), key: acmeKey });
    expect(stats.status).toBe(403);
    // A tenant whose name merely starts with "acme" is another tenant.
    const lookalike = await request('/v1/memories', { body: memory('acme2/a'), key: acmeKey });
    expect(lookalike.status).toBe(403);
    const context = await request('/v1/context', { body: JSON.stringify({ scopes: ['globex/a'], message: 'hi' }), key: acmeKey });
    expect(context.status).toBe(403);
    expect(await totalWritten()).toBe(0);
    expect((await engram.stats({ scopes: ['acme2/a'] })).total).toBe(0);
  });

  it('the right key works, and the store still enforces scopes underneath', async () => {
    const created = await request('/v1/memories', { body: memory('acme/b', 'Acme invoices are due on the 5th.'), key: acmeKey });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    // Same tenant, but the record lives in acme/b: a read naming only acme/a does not see it.
    const hidden = await request(`/v1/memories/${id}?scopes=acme/a`, { method: 'GET', key: acmeKey });
    expect(hidden.status).toBe(404);
    const visible = await request(`/v1/memories/${id}?scopes=acme/b`, { method: 'GET', key: acmeKey });
    expect(visible.status).toBe(200);
    // The other tenant's key cannot reach it with its own scopes either.
    const foreign = await request(`/v1/memories/${id}?scopes=globex/a`, { method: 'GET', key: globexKey });
    expect(foreign.status).toBe(404);
    const forget = await request(`/v1/memories/${id}?scope=globex/a`, { method: 'DELETE', key: globexKey });
    expect(forget.status).toBe(404);
    expect((await engram.get(id, { scopes: ['acme/b'] })).status).toBe('active');
  });

  it('relation types registered by another tenant are not listed; proposedBy is the key', async () => {
    const registered = await request('/v1/relations/types', {
      body: JSON.stringify({ scope: 'globex/a', name: 'SUPPLIES', symmetric: false }),
      key: globexKey,
    });
    expect(registered.status).toBe(200);
    expect(((await registered.json()) as { proposedBy: string }).proposedBy).toMatch(/^key:key_[0-9a-f]{16}$/);
    const seenByAcme = (await (await request('/v1/relations/types', { method: 'GET', key: acmeKey })).json()) as {
      types: { name: string; proposedBy: string | null }[];
    };
    expect(seenByAcme.types.find((t) => t.name === 'SUPPLIES')).toBeUndefined();
    const seenByGlobex = (await (await request('/v1/relations/types', { method: 'GET', key: globexKey })).json()) as {
      types: { name: string; proposedBy: string | null }[];
    };
    expect(seenByGlobex.types.find((t) => t.name === 'SUPPLIES')).toMatchObject({ proposedBy: expect.stringMatching(/^key:/) });
  });

  it('oversized body → 413 with and without Content-Length, nothing written', async () => {
    const before = await totalWritten();
    const big = memory('acme/a', 'x'.repeat(LIMIT));
    const declared = await request('/v1/memories', {
      body: big,
      key: acmeKey,
      headers: { 'content-length': String(Buffer.byteLength(big)) },
    });
    expect(declared.status).toBe(413);
    const error = await errorOf(declared);
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toContain(String(LIMIT));

    // Chunked upload: no Content-Length, the limit is enforced while reading.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
        controller.close();
      },
    });
    const streamed = await request('/v1/memories', { body: stream, key: acmeKey });
    expect(streamed.status).toBe(413);
    expect((await errorOf(streamed)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await totalWritten()).toBe(before);
  });

  it('malformed JSON → 400 INVALID_INPUT saying it is not JSON, nothing written', async () => {
    const before = await totalWritten();
    for (const body of ['{"scope": "acme/a", "content": "half', 'not json at all', '']) {
      const response = await request('/v1/memories', { body, key: acmeKey });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toMatch(/JSON/);
    }
    const wrongShape = await request('/v1/memories', { body: '42', key: acmeKey });
    expect(wrongShape.status).toBe(400);
    const invalidItem = await request('/v1/memories', { body: `[${memory('acme/a')},{"scope":"acme/a","content":""}]`, key: acmeKey });
    expect(invalidItem.status).toBe(400);
    expect((await errorOf(invalidItem)).message).toMatch(/content/);
    expect(await totalWritten()).toBe(before);
  });

  it('internal failures are 500 with a reference, never the cause', async () => {
    const failing: Embedder = {
      name: 'failing-test-embedder',
      dimension: engram.embedder.dimension,
      embed: () => Promise.reject(new Error('secret connection string postgres://admin:hunter2@db')),
    };
    const broken = new Engram({ store: engram.store, embedder: failing });
    const logged: string[] = [];
    const brokenApp = createHttpApp({ engram: broken, auth: 'open', log: (_e, reference) => logged.push(reference) });
    const response = await brokenApp.request('/v1/memories', { method: 'POST', body: memory('acme/a') });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/hunter2|postgres:|secret|stack|at /);
    const { error } = JSON.parse(text) as ErrorBody;
    expect(error.code).toBe('INTERNAL');
    expect(logged).toHaveLength(1);
    expect(error.message).toContain(logged[0]);
  });

  it('requireKey guards routes added next to the API (as /mcp is) with the same keys', async () => {
    const guarded = createHttpApp({ engram, keys, log: () => undefined });
    guarded.get('/whoami', requireKey({ keys, auth: 'auto' }), (c) => c.json(c.get('principal')));
    const anonymous = await guarded.request('/whoami');
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe('UNAUTHORIZED');
    const known = await guarded.request('/whoami', { headers: { authorization: `Bearer ${globexKey}` } });
    expect(await known.json()).toMatchObject({ tenant: 'globex' });
  });

  it('health and the OpenAPI document need no key', async () => {
    expect((await request('/health', { method: 'GET' })).status).toBe(200);
    expect((await request('/openapi.json', { method: 'GET' })).status).toBe(200);
  });

  it('without a key, only loopback clients are answered (no cross-site writes, no DNS rebinding)', async () => {
    const fresh = await tempEngram();
    try {
      const open = createHttpApp({ engram: fresh.engram, auth: 'open' });
      const body = memory('acme/a');
      const crossSite = await open.request('/v1/memories', {
        method: 'POST',
        body,
        headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      });
      expect(crossSite.status).toBe(403);
      expect((await errorOf(crossSite)).message).toMatch(/this machine/);
      const rebound = await open.request('http://evil.example:7077/v1/memories', { method: 'POST', body });
      expect(rebound.status).toBe(403);
      expect((await fresh.engram.stats({ scopes: ['acme/a'] })).total).toBe(0);
      const local = await open.request('http://127.0.0.1:7077/v1/memories', {
        method: 'POST',
        body,
        headers: { origin: 'http://localhost:3000' },
      });
      expect(local.status).toBe(200);
    } finally {
      await fresh.cleanup();
    }
  });

  it('required mode refuses keyless requests even before any key exists; open is loopback-only', async () => {
    const fresh = await tempEngram();
    try {
      const strict = createHttpApp({ engram: fresh.engram, auth: 'required' });
      const response = await strict.request('/v1/stats?scopes=acme/a');
      expect(response.status).toBe(401);
    } finally {
      await fresh.cleanup();
    }
    expect(resolveAuthMode({ host: '127.0.0.1' })).toBe('auto');
    expect(resolveAuthMode({ host: '0.0.0.0' })).toBe('required');
    expect(resolveAuthMode({ requested: 'open', host: '::1' })).toBe('open');
    expect(() => resolveAuthMode({ requested: 'open', host: '0.0.0.0' })).toThrow(/loopback/);
  });
});
