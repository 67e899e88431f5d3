/**
 * Registered relation types belong to the tenant that registered them, on every backend (SQLite file,
 * PGlite, the PostgreSQL server): other tenants neither see nor use them, may register the same name
 * independently, and built-ins belong to all.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/store.js';
import { symmetryOf, type RelationType } from '../../src/core/relations.js';
import { openPgliteStore, openPostgresStore } from '../../src/storage/postgres/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { closeSharedPglite, freshPgSchema, pgTestUrl, sharedPglite, uniqueSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { expectCode } from './store.contract.js';

const EMBEDDING = { name: 'contract-test:8', dimension: 8 };
const NOW = Date.parse('2025-01-01T00:00:00Z');

const proposed = (tenant: string | null, symmetric: boolean, proposedBy = `agent:${tenant}`): RelationType => ({
  name: 'CO_OCCURS_WITH',
  symmetric,
  builtIn: false,
  proposedBy,
  description: null,
  registeredAt: NOW,
  tenant,
});

function registryProbes(open: () => Promise<{ store: Store; close: () => Promise<void> }>): void {
  it('a tenant sees the built-ins and only its own registrations', async () => {
    const { store, close } = await open();
    try {
      await store.transaction((tx) => tx.registerRelationType(proposed('acme', true)));
      const acme = await store.getRelationTypes(['acme/a']);
      const globex = await store.getRelationTypes(['globex/a']);
      expect(acme.find((t) => t.name === 'CO_OCCURS_WITH')).toEqual(proposed('acme', true));
      expect(globex.find((t) => t.name === 'CO_OCCURS_WITH')).toBeUndefined();
      expect(globex.every((t) => t.builtIn && t.tenant === null)).toBe(true);
      expect(globex.map((t) => t.name)).toContain('IS_A');
      await expectCode(store.getRelationTypes([]), 'INVALID_INPUT');
    } finally {
      await close();
    }
  });

  it('two tenants register the same name independently (no squatting), each with its own direction', async () => {
    const { store, close } = await open();
    try {
      await store.transaction((tx) => tx.registerRelationType(proposed('acme', true)));
      // globex's registration is neither refused nor answered with acme's type
      expect(await store.transaction((tx) => tx.registerRelationType(proposed('globex', false)))).toEqual(proposed('globex', false));
      // idempotent per tenant: the first registration's proposer stays
      expect(await store.transaction((tx) => tx.registerRelationType(proposed('acme', true, 'someone-else')))).toEqual(
        proposed('acme', true),
      );
      await expectCode(
        store.transaction((tx) => tx.registerRelationType(proposed('acme', false))),
        'CONFLICT',
      );
      const both = await store.getRelationTypes(['acme/a', 'globex/b']);
      expect(both.filter((t) => t.name === 'CO_OCCURS_WITH').map((t) => [t.tenant, t.symmetric])).toEqual([
        ['acme', true],
        ['globex', false],
      ]);
      const isSymmetric = symmetryOf(both);
      expect([
        isSymmetric('acme/a', 'CO_OCCURS_WITH'),
        isSymmetric('globex/b', 'CO_OCCURS_WITH'),
        isSymmetric('initech/c', 'CO_OCCURS_WITH'),
      ]).toEqual([true, false, false]);
    } finally {
      await close();
    }
  });

  it("updateRelationType rewrites the description and proposer of a tenant's own type only (redact cleans the registry with it)", async () => {
    const { store, close } = await open();
    try {
      await store.transaction(async (tx) => {
        await tx.registerRelationType({ ...proposed('acme', true), description: 'token ghp_secret' });
        await tx.registerRelationType({ ...proposed('globex', false), description: 'token ghp_secret' });
      });
      expect(await store.transaction((tx) => tx.updateRelationType('acme', 'CO_OCCURS_WITH', { description: 'token [redacted]' }))).toBe(
        true,
      );
      expect(await store.transaction((tx) => tx.updateRelationType('acme', 'CO_OCCURS_WITH', { proposedBy: null }))).toBe(true);
      // another tenant's type, an unknown name, a built-in: nothing to change
      expect(await store.transaction((tx) => tx.updateRelationType('initech', 'CO_OCCURS_WITH', { description: null }))).toBe(false);
      expect(await store.transaction((tx) => tx.updateRelationType('acme', 'IS_A', { description: null }))).toBe(false);
      await expectCode(
        store.transaction((tx) => tx.updateRelationType('', 'IS_A', { description: null })),
        'INVALID_INPUT',
      );
      const types = await store.getRelationTypes(['acme/a', 'globex/b']);
      expect(types.filter((t) => t.name === 'CO_OCCURS_WITH')).toEqual([
        { ...proposed('acme', true), description: 'token [redacted]', proposedBy: null },
        { ...proposed('globex', false), description: 'token ghp_secret' },
      ]);
      expect(types.find((t) => t.name === 'IS_A')?.description).toBe('a kind of: coffee_mug IS_A container');
    } finally {
      await close();
    }
  });

  it('built-in names cannot be redefined by a tenant, and a registration needs a tenant', async () => {
    const { store, close } = await open();
    try {
      await expectCode(
        store.transaction((tx) => tx.registerRelationType({ ...proposed('acme', true), name: 'IS_A' })),
        'CONFLICT',
      );
      expect(await store.transaction((tx) => tx.registerRelationType({ ...proposed('acme', false), name: 'IS_A' }))).toMatchObject({
        name: 'IS_A',
        builtIn: true,
        tenant: null,
      });
      await expectCode(
        store.transaction((tx) => tx.registerRelationType(proposed(null, true))),
        'INVALID_INPUT',
      );
      await expectCode(
        store.transaction((tx) => tx.registerRelationType(proposed('acme/users', true))),
        'INVALID_INPUT',
      );
      expect((await store.getRelationTypes(['acme/a'])).filter((t) => !t.builtIn)).toEqual([]);
    } finally {
      await close();
    }
  });
}

describe('relation types per tenant: SQLite', () => {
  registryProbes(async () => {
    const { dir, cleanup } = tempDir();
    const store = await openSqliteStore({ path: `${dir}/r.db`, embedding: EMBEDDING });
    return {
      store,
      close: async () => {
        await store.close();
        cleanup();
      },
    };
  });
});

// starting PGlite (WASM) takes a while on a busy machine
describe('relation types per tenant: PGlite', { timeout: 180_000 }, () => {
  afterAll(closeSharedPglite);
  registryProbes(async () => {
    const pglite = await sharedPglite();
    const schema = uniqueSchema('rel');
    const store = await openPgliteStore({ pglite, schema, embedding: EMBEDDING });
    return {
      store,
      close: async () => {
        await store.close();
        await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  });
});

describe.skipIf(pgTestUrl() === undefined)('relation types per tenant: PostgreSQL server', { timeout: 60_000 }, () => {
  registryProbes(async () => {
    const { url, drop } = freshPgSchema('rel');
    const store = await openPostgresStore({ url, embedding: EMBEDDING, poolSize: 2 });
    return {
      store,
      close: async () => {
        await store.close();
        await drop();
      },
    };
  });
});
