/**
 * `engram keys create | list | revoke` through the built bin, and a running `engram serve` picking up
 * keys created while it runs (auth mode auto) — over a temp SQLite file. Each spawn of the CLI takes
 * 1–2 s on an idle machine; the generous timeouts are for a loaded one.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { startServe, type RunningServer } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

interface KeyInfo {
  id: string;
  tenant: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

describe.skipIf(!binBuilt)('engram keys (skipped when dist/ is missing: run npm run build)', () => {
  const tmp = tempDir('engram-keys-');
  const db = join(tmp.dir, 'keys.db');
  const base = ['--db', db, '--embedder', 'hash'];
  let server: RunningServer | undefined;

  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('creates a key shown once, lists it without the key, revokes it', () => {
    const created = runCli(['keys', 'create', ...base, '--tenant', 'acme', '--label', 'ci bot', '--json']);
    expect(created.status, created.stderr).toBe(0);
    const key = json<{ key: string } & KeyInfo>(created);
    expect(key.key).toMatch(/^egk_/);
    expect(key).toMatchObject({ tenant: 'acme', label: 'ci bot', revokedAt: null });

    const listed = runCli(['keys', 'list', ...base, '--json']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect(json<KeyInfo[]>(listed)).toEqual([expect.objectContaining({ id: key.id, tenant: 'acme' })]);

    const human = runCli(['keys', 'create', ...base, '--tenant', 'globex']);
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/^egk_\S+\n/);
    expect(human.stdout).toContain('shown once');

    const revoked = runCli(['keys', 'revoke', key.id, ...base, '--json']);
    expect(revoked.status).toBe(0);
    expect(json<KeyInfo>(revoked).revokedAt).not.toBeNull();
  }, 180_000);

  it('refuses a bad tenant and an unknown id with clear errors', () => {
    const bad = runCli(['keys', 'create', ...base, '--tenant', 'acme/users', '--json']);
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toMatch(/one segment/);
    const missing = runCli(['keys', 'revoke', 'key_nope', ...base, '--json']);
    expect(missing.status).toBe(3);
    expect(JSON.parse(missing.stderr).error.message).toMatch(/keys list/);
  }, 120_000);

  it('a running engram serve (auth auto) requires keys created while it runs', async () => {
    const fresh = join(tmp.dir, 'serve.db');
    server = await startServe(['--db', fresh, '--embedder', 'hash']);
    const url = server.url;
    const stats = `${url}/v1/stats?scopes=acme/a`;
    expect((await fetch(stats)).status).toBe(200);

    const created = runCli(['keys', 'create', '--db', fresh, '--tenant', 'acme', '--json']);
    expect(created.status, created.stderr).toBe(0);
    const { key } = json<{ key: string }>(created);
    await new Promise((r) => setTimeout(r, 1_100)); // the server re-checks "any key?" at most once a second

    const anonymous = await fetch(stats);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    const authorised = await fetch(stats, { headers: { authorization: `Bearer ${key}` } });
    expect(authorised.status).toBe(200);
    const foreign = await fetch(`${url}/v1/stats?scopes=globex/a`, { headers: { authorization: `Bearer ${key}` } });
    expect(foreign.status).toBe(403);
  }, 180_000);
});
