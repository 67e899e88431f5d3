/**
 * API keys over a real store: hashed storage, tenants, revocation seen by another instance (another
 * server) within the cache TTL, and the tenant check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, assertTenantScopes } from '../../src/interfaces/http/index.js';
import { ManualClock, type Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

let engram: Engram;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ engram, cleanup } = await tempEngram());
});
afterAll(async () => cleanup());

describe('ApiKeys', () => {
  it('creates random keys bound to a tenant and stores only their hashes', async () => {
    const keys = new ApiKeys(engram.store);
    const a = await keys.create({ tenant: 'acme' });
    const b = await keys.create({ tenant: 'acme' });
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
    expect(await keys.verify(a.key)).toEqual({ keyId: a.id, tenant: 'acme' });
    expect(await keys.verify(`${a.key}x`)).toBeNull();
    expect(await keys.verify('not-a-key')).toBeNull();
    expect(JSON.stringify(await engram.store.listApiKeys())).not.toContain(a.key);
    // Listed by creation time, then id: two keys made in the same millisecond come in id order.
    const listed = await keys.list();
    expect(listed.map((k) => k.id).sort()).toEqual([a.id, b.id].sort());
    const order = (x: (typeof listed)[number], y: (typeof listed)[number]): number =>
      x.createdAt.localeCompare(y.createdAt) || x.id.localeCompare(y.id);
    expect(listed).toEqual([...listed].sort(order));
  });

  it('a revocation by another instance is seen within the cache TTL, not before', async () => {
    const clock = new ManualClock(Date.parse('2025-01-01'));
    const serverA = new ApiKeys(engram.store, { clock, presenceTtlMs: 1_000 });
    const serverB = new ApiKeys(engram.store, { clock });
    const { key, id } = await serverB.create({ tenant: 'globex' });
    expect(await serverA.verify(key)).toMatchObject({ tenant: 'globex' });
    await serverB.revoke(id);
    expect(await serverB.verify(key)).toBeNull();
    clock.advance(500);
    expect(await serverA.verify(key)).toMatchObject({ tenant: 'globex' }); // still cached
    clock.advance(600);
    expect(await serverA.verify(key)).toBeNull();
    expect((await serverA.list()).find((k) => k.id === id)?.revokedAt).toBe('2025-01-01T00:00:00.000Z');
  });

  it('once a key was created the store has had keys, even after every key is revoked', async () => {
    const fresh = await tempEngram();
    try {
      const keys = new ApiKeys(fresh.engram.store, { presenceTtlMs: 0 });
      expect(await keys.hasEverHadKey()).toBe(false);
      const { id } = await keys.create({ tenant: 'acme' });
      expect(await keys.hasActive()).toBe(true);
      await keys.revoke(id);
      expect(await keys.hasActive()).toBe(false);
      // another instance (another server or process) sees it too: the revoked row persists
      expect(await new ApiKeys(fresh.engram.store, { presenceTtlMs: 0 }).hasEverHadKey()).toBe(true);
      expect(await keys.hasEverHadKey()).toBe(true);
    } finally {
      await fresh.cleanup();
    }
  });

  it('rejects tenants that are not one scope segment, and scopes of other tenants', async () => {
    const keys = new ApiKeys(engram.store);
    await expect(keys.create({ tenant: 'acme/users' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(keys.create({ tenant: '..' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(keys.revoke('key_missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const principal = { keyId: 'key_1', tenant: 'acme' };
    expect(() => assertTenantScopes(principal, ['acme', 'acme/users/alice'])).not.toThrow();
    expect(() => assertTenantScopes(principal, ['acme/a', 'acmecorp/a'])).toThrow(expect.objectContaining({ code: 'SCOPE_DENIED' }));
  });

  it('shortens a long label, and echoes a long wrong tenant, where a character ends', async () => {
    const keys = new ApiKeys(engram.store);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const label = `${'a'.repeat(199)}😀 and more`;
    const { id } = await keys.create({ tenant: 'acme', label });
    const stored = (await keys.list()).find((k) => k.id === id)?.label ?? '';
    expect(stored).not.toMatch(lone);
    expect(stored).not.toContain('\uFFFD');
    expect(label.startsWith(stored)).toBe(true);
    expect(stored.length).toBeGreaterThan(190);
    const error = (await keys.create({ tenant: `${'t'.repeat(79)}🇵🇹` }).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(error.message).not.toMatch(lone);
    expect(error.message).not.toContain('🇵"');
  });
});
