/**
 * A PostgreSQL role that may only read a schema another role populated (USAGE on the schema, SELECT on
 * its tables): opening, recall, get, list and close all work, and the access counts it cannot write are
 * let go with one warning. The test role may not create roles, so it takes its own write privileges away
 * (an owner may revoke them from itself), which leaves it exactly USAGE and SELECT.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';

const url = pgTestUrl();
const SCOPE = 'dev/projects/shop';
const embedder = new HashEmbedder();

const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (drops.length > 0) await drops.pop()?.();
});

async function asTestRole<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Why the test role cannot stand for a role that may only read, or ''. */
const superuser =
  url === undefined
    ? false
    : await asTestRole(
        async (c) => (await c.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0]?.rolsuper === true,
      );

/** A populated schema the test role may then only read; returns its URL and one memory id. */
async function readOnlySchema(): Promise<{ url: string; id: string }> {
  const { url: schemaUrl, schema, drop } = freshPgSchema('ro_role');
  drops.push(drop);
  const writer = await Engram.open({ path: schemaUrl, embedder: 'hash' });
  const { id } = await writer.remember({ scope: SCOPE, content: 'We deploy the shop to production on Fridays.' });
  await writer.remember({ scope: SCOPE, content: 'The shop database runs on PostgreSQL 15.' });
  await writer.close();
  await asTestRole((client) =>
    client.query(
      `REVOKE ALL ON ALL TABLES IN SCHEMA "${schema}" FROM CURRENT_USER;
       REVOKE ALL ON ALL SEQUENCES IN SCHEMA "${schema}" FROM CURRENT_USER;
       REVOKE CREATE ON SCHEMA "${schema}" FROM CURRENT_USER;
       GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO CURRENT_USER;`,
    ),
  );
  return { url: schemaUrl, id };
}

if (url !== undefined && !superuser) {
  describe('PostgreSQL: a role that may only read', () => {
    it('opens, reads (recall, get, list) and closes, letting the access counts go with one warning', async () => {
      const { url: schemaUrl, id } = await readOnlySchema();
      const warnings: string[] = [];
      const store = await openPostgresStore({
        url: schemaUrl,
        embedding: { name: embedder.name, dimension: embedder.dimension },
        logger: { warn: (message) => warnings.push(message) },
      });
      const engram = new Engram({ store, embedder });
      const hits = (await engram.recall('deploy the shop', { scopes: [SCOPE] })).hits;
      expect(hits.map((hit) => hit.content)).toContain('We deploy the shop to production on Fridays.');
      expect((await engram.get(id, { scopes: [SCOPE] })).id).toBe(id);
      expect((await engram.list({ scopes: [SCOPE] })).items).toHaveLength(2);
      await engram.recall('shop database', { scopes: [SCOPE] });
      const failure = await engram.remember({ scope: SCOPE, content: 'A new note.' }).catch((error: unknown) => error);
      expect(isEngramError(failure) && failure.code).toBe('STORAGE_UNAVAILABLE');
      expect((failure as Error).message).toMatch(/role may not .*privilege/);
      await expect(engram.close()).resolves.toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/access counts are not saved: .*may only read/);
    });

    it.skipIf(!binBuilt)(
      `engram recall and get answer and exit 0 with one warning${binBuilt ? '' : ' (skipped: run npm run build first)'}`,
      async () => {
        const { url: schemaUrl, id } = await readOnlySchema();
        for (const [args, expected] of [
          [['recall', '--db', schemaUrl, '--scope', SCOPE, 'deploy the shop'], 'production'],
          [['get', '--db', schemaUrl, '--scope', SCOPE, id], 'production'],
          [['list', '--db', schemaUrl, '--scope', SCOPE], 'PostgreSQL 15'],
        ] as const) {
          const run = runCli([...args]);
          expect(run.status, `${args[0]}: ${run.stderr}`).toBe(0);
          expect(run.stdout).toContain(expected);
          expect(
            run.stderr
              .trim()
              .split('\n')
              .filter((line) => line !== '').length,
            run.stderr,
          ).toBeLessThanOrEqual(1);
        }
      },
      60_000,
    );
  });
} else {
  describe.skip(`PostgreSQL: a role that may only read (${url === undefined ? PG_SKIP_REASON : 'the test role is a superuser, which no privilege binds'})`, () => {
    it('opens, reads and closes', () => undefined);
  });
}
