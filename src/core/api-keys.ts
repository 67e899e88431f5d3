/**
 * API keys bound to a tenant ("an HTTP key bound to tenant acme cannot name another
 * tenant"). Keys are random, shown once, and stored only as SHA-256 hashes, one store row per key, so
 * concurrent creators never lose one.
 */
import { EngramError } from './errors.js';
import type { Clock } from './ports/clock.js';
import type { Store, StoredApiKey } from './ports/store.js';
import { scopeProblem, tenantOf, type Scope } from './scope.js';
import { cutText } from './text/cut-text.js';

/** What a verified key grants: the tenant whose scopes it may name. */
export interface Principal {
  keyId: string;
  tenant: string;
}

/** A stored key as listed (never the key itself). */
export interface ApiKeyInfo {
  id: string;
  tenant: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A freshly created key: `key` is shown once and cannot be recovered later. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

type KeyStore = Pick<Store, 'insertApiKey' | 'listApiKeys' | 'findApiKey' | 'revokeApiKey' | 'countApiKeys'>;

/** Options of `ApiKeys`. */
export interface ApiKeysOptions {
  /** The wall clock (key times, cache ages); `engram/http`'s `ApiKeys` passes the system clock. */
  clock: Clock;
  /**
   * How long "has any key been created" (while none has) and each verified key are cached (ms,
   * default 1000): keys created or revoked by another process (or server) take effect within this.
   */
  presenceTtlMs?: number;
}

const KEY_PREFIX = 'egk_';

/**
 * Creates, lists, revokes and verifies tenant API keys, one store row each (revoked keys stay as rows).
 *
 * @example
 * ```ts
 * const keys = new ApiKeys(engram.store, { clock: systemClock });
 * const { key } = await keys.create({ tenant: 'acme' });
 * const principal = await keys.verify(key); // { keyId, tenant: 'acme' }
 * ```
 */
export class ApiKeys {
  readonly #store: KeyStore;
  readonly #clock: Clock;
  readonly #presenceTtlMs: number;
  #everCreated: { value: boolean; at: number } | null = null;
  readonly #verified = new Map<string, { principal: Principal | null; at: number }>();

  constructor(store: KeyStore, options: ApiKeysOptions) {
    this.#store = store;
    this.#clock = options.clock;
    this.#presenceTtlMs = options.presenceTtlMs ?? 1_000;
  }

  /** Creates a key for `tenant`; the returned `key` is the only copy. */
  async create(options: { tenant: string; label?: string }): Promise<CreatedApiKey> {
    const tenant = assertTenant(options?.tenant);
    const label = options.label === undefined ? null : cutText(String(options.label), 200);
    const key = KEY_PREFIX + base64Url(randomBytes(32));
    const hash = await sha256Hex(key);
    const stored: StoredApiKey = { id: `key_${hex(randomBytes(8))}`, hash, tenant, label, createdAt: this.#clock.now(), revokedAt: null };
    await this.#store.insertApiKey(stored);
    this.#everCreated = { value: true, at: this.#clock.now() };
    return { key, ...toInfo(stored) };
  }

  /** Every key ever created (revoked ones too), oldest first. */
  async list(): Promise<ApiKeyInfo[]> {
    return (await this.#store.listApiKeys()).map(toInfo);
  }

  /** Revokes a key by id; a revoked key is refused from then on. Idempotent. */
  async revoke(id: string): Promise<ApiKeyInfo> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) throw unknownKey(id);
    const revoked = await this.#store.revokeApiKey(id, this.#clock.now());
    if (revoked === null) throw unknownKey(id);
    this.#verified.clear();
    return toInfo(revoked);
  }

  /** The principal of a valid, unrevoked key, else null. */
  async verify(key: string): Promise<Principal | null> {
    if (typeof key !== 'string' || !key.startsWith(KEY_PREFIX) || key.length > 200) return null;
    const hash = await sha256Hex(key);
    const now = this.#clock.now();
    const cached = this.#verified.get(hash);
    if (cached !== undefined && now - cached.at < this.#presenceTtlMs) return cached.principal;
    const stored = await this.#store.findApiKey(hash);
    const principal = stored === null || stored.revokedAt !== null ? null : { keyId: stored.id, tenant: stored.tenant };
    // bounded; unknown keys are cached too, so a client retrying a bad key costs one lookup per TTL
    if (this.#verified.size >= 1000) this.#verified.clear();
    this.#verified.set(hash, { principal, at: now });
    return principal;
  }

  /**
   * Whether a key was ever created in this store, revoked or not. Once true it stays true (rows are
   * never deleted), so revoking the last key never makes an `auto` server keyless again.
   */
  async hasEverHadKey(): Promise<boolean> {
    const now = this.#clock.now();
    const cached = this.#everCreated;
    if (cached !== null && (cached.value || now - cached.at < this.#presenceTtlMs)) return cached.value;
    const value = (await this.#store.countApiKeys()).total > 0;
    this.#everCreated = { value, at: now };
    return value;
  }

  /** Whether at least one unrevoked key exists (not cached). */
  async hasActive(): Promise<boolean> {
    return (await this.#store.countApiKeys()).active > 0;
  }
}

function unknownKey(id: unknown): EngramError {
  return new EngramError('NOT_FOUND', `No API key with id "${cutText(String(id), 40)}": list them with "engram keys list".`, {
    details: { id: cutText(String(id), 100) },
  });
}

/**
 * Throws `SCOPE_DENIED` unless every scope belongs to the principal's tenant (its first segment).
 *
 * @example
 * ```ts
 * assertTenantScopes({ keyId: 'key_1', tenant: 'acme' }, ['acme/shared']); // ok
 * ```
 */
export function assertTenantScopes(principal: Principal, scopes: readonly Scope[]): void {
  for (const scope of scopes) {
    if (typeof scope === 'string' && tenantOf(scope) !== principal.tenant) {
      throw new EngramError(
        'SCOPE_DENIED',
        `This API key belongs to tenant "${principal.tenant}" and cannot name scope "${cutText(scope, 80)}": use scopes that start with "${principal.tenant}/", or a key of that tenant.`,
        { details: { scope, tenant: principal.tenant } },
      );
    }
  }
}

function assertTenant(tenant: unknown): string {
  const problem = typeof tenant === 'string' && tenant.includes('/') ? 'a tenant is one segment, without "/"' : scopeProblem(tenant);
  if (problem !== null) {
    throw new EngramError(
      'INVALID_INPUT',
      `Invalid tenant "${cutText(String(tenant), 80)}": ${problem}. A tenant is the first segment of its scopes, e.g. "acme" for "acme/users/alice".`,
      {
        details: { field: 'tenant' },
      },
    );
  }
  return tenant as string;
}

function toInfo(stored: StoredApiKey): ApiKeyInfo {
  return {
    id: stored.id,
    tenant: stored.tenant,
    label: stored.label,
    createdAt: new Date(stored.createdAt).toISOString(),
    revokedAt: stored.revokedAt === null ? null : new Date(stored.revokedAt).toISOString(),
  };
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

async function sha256Hex(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

function base64Url(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(value >> bits) & 63];
    }
  }
  if (bits > 0) out += alphabet[(value << (6 - bits)) & 63];
  return out;
}
