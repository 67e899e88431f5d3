/**
 * Over HTTP: revoking every key never makes an `auto` server keyless again (only `--auth open`, on
 * loopback, does), and relation types registered by one tenant are invisible and unusable for another,
 * with `proposedBy` taken from the caller's key rather than the body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DUMP_VERSION } from '../../src/core/dump/index.js';
import { ApiKeys, createHttpApp } from '../../src/interfaces/http/index.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { tempEngram } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup() {
  const t = await tempEngram();
  cleanups.push(t.cleanup);
  return t;
}

function call(
  app: ReturnType<typeof createHttpApp>,
  path: string,
  init: { method?: string; key?: string; body?: unknown } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
  return Promise.resolve(
    app.request(`http://127.0.0.1:7077${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    }),
  );
}

describe('auto auth after the last key is revoked', () => {
  it('stays keyed, for this server and for one started later; only open mode is keyless', async () => {
    const { engram } = await setup();
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const app = createHttpApp({ engram, keys, auth: 'auto', log: () => undefined });
    expect((await call(app, '/v1/stats?scopes=acme/a')).status).toBe(200);
    const { id, key } = await keys.create({ tenant: 'acme' });
    expect((await call(app, '/v1/stats?scopes=acme/a')).status).toBe(401);
    await keys.revoke(id);
    expect((await call(app, '/v1/stats?scopes=acme/a', { key })).status).toBe(401);
    expect((await call(app, '/v1/stats?scopes=acme/a')).status).toBe(401);
    expect((await call(app, '/v1/stats?scopes=globex/a')).status).toBe(401);
    const restarted = createHttpApp({ engram, auth: 'auto', log: () => undefined });
    expect((await call(restarted, '/v1/stats?scopes=acme/a')).status).toBe(401);
    const open = createHttpApp({ engram, auth: 'open', log: () => undefined });
    expect((await call(open, '/v1/stats?scopes=acme/a')).status).toBe(200);
  });

  it.skipIf(!binBuilt)('serve --auth open is refused on a non-loopback host with a clear error', async () => {
    const { path } = await setup();
    const result = runCli(['serve', '--auth', 'open', '--host', '0.0.0.0', '--port', '0', '--db', path]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/--auth open is only allowed on a loopback host/);
  });
});

describe('relation types over HTTP with tenant keys', () => {
  it('another tenant neither lists nor uses a registered type; proposedBy is the key, not the body', async () => {
    const { engram } = await setup();
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const app = createHttpApp({ engram, keys, log: () => undefined });
    const acme = await keys.create({ tenant: 'acme' });
    const globex = await keys.create({ tenant: 'globex' });

    const registered = await call(app, '/v1/relations/types', {
      method: 'POST',
      key: acme.key,
      body: { scope: 'acme/a', name: 'keeps warm', symmetric: true, proposedBy: 'tenant:globex' },
    });
    expect(registered.status).toBe(200);
    expect(await registered.json()).toMatchObject({ name: 'KEEPS_WARM', tenant: 'acme', proposedBy: `key:${acme.id}` });

    const names = async (key: string, query = '') =>
      ((await (await call(app, `/v1/relations/types${query}`, { key })).json()) as { types: { name: string }[] }).types.map((t) => t.name);
    expect(await names(acme.key)).toContain('KEEPS_WARM');
    expect(await names(globex.key)).not.toContain('KEEPS_WARM');
    expect(await names(globex.key)).toContain('IS_A');
    expect((await call(app, '/v1/relations/types?scopes=acme/a', { key: globex.key })).status).toBe(403);
    // a tenant may not register for another tenant's scope
    expect(
      (await call(app, '/v1/relations/types', { method: 'POST', key: globex.key, body: { scope: 'acme/a', name: 'squat' } })).status,
    ).toBe(403);

    const remember = async (key: string, scope: string, content: string) =>
      ((await (await call(app, '/v1/memories', { method: 'POST', key, body: { scope, content } })).json()) as { id: string }).id;
    const [g1, g2] = [await remember(globex.key, 'globex/a', 'kettle'), await remember(globex.key, 'globex/a', 'teapot')];
    const relate = await call(app, '/v1/relations', {
      method: 'POST',
      key: globex.key,
      body: { scope: 'globex/a', from: g1, type: 'KEEPS_WARM', to: g2 },
    });
    expect(relate.status).toBe(400);
    const error = ((await relate.json()) as { error: { message: string } }).error.message;
    expect(error).toMatch(/KEEPS_WARM is not registered/);
    expect(error).not.toMatch(/KEEPS_WARM,/);

    // globex registers the same name on its own, directed: no conflict with acme's symmetric one
    const own = await call(app, '/v1/relations/types', {
      method: 'POST',
      key: globex.key,
      body: { scope: 'globex/a', name: 'keeps warm' },
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ tenant: 'globex', symmetric: false });
  });
});

describe('GET /v1/export with a tenant key', () => {
  it('is an empty dump (header with no scopes, end line with zero counts) while the tenant has no scope, and it imports', async () => {
    const { engram } = await setup();
    const keys = new ApiKeys(engram.store, { presenceTtlMs: 0 });
    const app = createHttpApp({ engram, keys, auth: 'required', log: () => undefined });
    const acme = await keys.create({ tenant: 'acme' });
    const globex = await keys.create({ tenant: 'globex' });
    await engram.remember({ scope: 'globex/a', content: 'Globex has memories; acme has none yet.' });

    const response = await call(app, '/v1/export', { key: acme.key });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ format: 'engram-dump', version: DUMP_VERSION, scopes: [], embeddings: false });
    expect(lines[1]).toEqual({ kind: 'end', counts: { record: 0, edge: 0, conceptRef: 0, relationType: 0, state: 0, audit: 0 } });
    const withVectors = await call(app, '/v1/export?embeddings=true', { key: acme.key });
    expect(JSON.parse((await withVectors.text()).split('\n')[0] as string)).toMatchObject({ scopes: [], embeddings: true });

    // the empty dump is a valid one: importing it creates nothing
    const imported = await app.request('http://127.0.0.1:7077/v1/import', {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/x-ndjson' },
      body: lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    });
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ complete: true, lines: 2 });
    // another tenant's dump is untouched by this
    const theirs = await (await call(app, '/v1/export', { key: globex.key })).text();
    expect(JSON.parse(theirs.split('\n')[0] as string)).toMatchObject({ scopes: ['globex/a'] });
  });
});
