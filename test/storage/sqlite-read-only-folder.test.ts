/**
 * A database in a folder this process cannot write (a read-only mount, someone else's folder): SQLite
 * cannot create `-wal`/`-shm` there, yet reads must work when nobody is writing, with one warning, and a
 * `-wal` holding changes that cannot be read, or a schema an earlier release left that cannot be
 * migrated there, must be refused with what to do. Root ignores permission
 * bits, so the folder is a tmpfs remounted read-only, which denies root too.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { LATEST_VERSION } from '../../src/storage/sqlite/sqlite-migrations.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { tmpfsUnavailable } from '../helpers/tmpfs.js';

const SCOPE = 'dev/projects/shop';
const embedder = new HashEmbedder();
const embedding = { name: embedder.name, dimension: embedder.dimension };

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A tmpfs folder; `seal()` remounts it read-only. */
function mountedFolder(): { dir: string; seal: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'engram-ro-folder-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', dir]);
  cleanups.push(() => {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, seal: () => execFileSync('mount', ['-o', 'remount,ro', dir]) };
}

/** A closed store with two memories in a folder then made read-only; returns its path and one id. */
async function storeInReadOnlyFolder(): Promise<{ path: string; id: string }> {
  const { dir, seal } = mountedFolder();
  const path = join(dir, 'engram.db');
  const engram = await Engram.open({ path, embedder: 'hash' });
  const { id } = await engram.remember({ scope: SCOPE, content: 'We deploy the shop to production on Fridays.' });
  await engram.remember({ scope: SCOPE, content: 'The shop database runs on PostgreSQL 15.' });
  await engram.close();
  seal();
  return { path, id };
}

function warningsLogger(): { warnings: string[]; logger: { info: () => void; warn: (message: string) => void } } {
  const warnings: string[] = [];
  return { warnings, logger: { info: () => undefined, warn: (message) => warnings.push(message) } };
}

describe.skipIf(tmpfsUnavailable !== '')(
  `SQLite in a folder that cannot be written${tmpfsUnavailable === '' ? '' : ` (skipped: ${tmpfsUnavailable})`}`,
  () => {
    it('opens read-only with one warning: recall, get and list answer, a write says the store is read-only', async () => {
      const { path, id } = await storeInReadOnlyFolder();
      const { warnings, logger } = warningsLogger();
      const store = await openSqliteStore({ path, embedding, logger });
      const engram = new Engram({ store, embedder });
      try {
        const hits = (await engram.recall('deploy the shop', { scopes: [SCOPE] })).hits;
        expect(hits.map((hit) => hit.content)).toContain('We deploy the shop to production on Fridays.');
        expect((await engram.get(id, { scopes: [SCOPE] }))?.id).toBe(id);
        expect((await engram.list({ scopes: [SCOPE] })).items).toHaveLength(2);
        const failure = await engram.remember({ scope: SCOPE, content: 'A new note.' }).catch((error: unknown) => error);
        expect(isEngramError(failure) && failure.code).toBe('STORAGE_UNAVAILABLE');
        expect((failure as Error).message).toMatch(/read-only/);
      } finally {
        await engram.close();
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/folder .* cannot be written.*read-only.*copy of the file/);
    });

    it('a store asked for read-only reads the same way, warning only that it reads a copy', async () => {
      const { path } = await storeInReadOnlyFolder();
      const { warnings, logger } = warningsLogger();
      const store = await openSqliteStore({ path, embedding, logger, readonly: true });
      try {
        expect((await store.stats([SCOPE])).total).toBe(2);
      } finally {
        await store.close();
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/copy of the file/);
      expect(warnings[0]).not.toMatch(/writes fail/);
    });

    it('refuses a -wal holding changes it cannot read, saying so and how to fix it', async () => {
      const { dir, seal } = mountedFolder();
      const source = mkdtempSync(join(tmpdir(), 'engram-ro-source-'));
      cleanups.push(() => rmSync(source, { recursive: true, force: true }));
      const engram = await Engram.open({ path: join(source, 'engram.db'), embedder: 'hash' });
      await engram.remember({ scope: SCOPE, content: 'We deploy the shop to production on Fridays.' });
      // the file and its log as they are while the writer is open: the log holds the latest commits
      copyFileSync(join(source, 'engram.db'), join(dir, 'engram.db'));
      copyFileSync(join(source, 'engram.db-wal'), join(dir, 'engram.db-wal'));
      await engram.close();
      expect(statSync(join(dir, 'engram.db-wal')).size).toBeGreaterThan(0);
      seal();
      const failure = await Engram.open({ path: join(dir, 'engram.db'), embedder: 'hash' }).catch((error: unknown) => error);
      expect(isEngramError(failure) && failure.code).toBe('STORAGE_UNAVAILABLE');
      expect((failure as Error).message).toMatch(/write-ahead log .* not yet checkpointed.*make the folder writable/);
    });

    it("an earlier release's file it cannot write is refused with what to do, by every open and by engram migrate", async () => {
      const { dir, seal } = mountedFolder();
      const path = join(dir, 'engram.db');
      await (await Engram.open({ path, embedder: 'hash' })).close();
      // the schema an earlier release left: the newest migration not applied yet
      const raw = new Database(path);
      raw.prepare('DELETE FROM schema_migrations WHERE version = ?').run(LATEST_VERSION);
      raw.close();
      seal();
      for (const readonly of [false, true]) {
        const failure = await openSqliteStore({ path, embedding, readonly }).catch((error: unknown) => error);
        expect(isEngramError(failure) && failure.code).toBe('STORAGE_UNAVAILABLE');
        expect((failure as Error).message).toMatch(
          /written by an earlier Engram .* open it once with this Engram where the file and its folder can be written/,
        );
        expect((failure as Error).message).not.toMatch(/Check the path/);
      }
      const { migrateSqliteToPostgres } = await import('../../src/storage/migrate/sqlite-to-postgres.js');
      const failure = await migrateSqliteToPostgres({ from: path, to: 'postgres://nobody@127.0.0.1:1/none' }).catch(
        (error: unknown) => error,
      );
      expect(isEngramError(failure) && failure.code).toBe('STORAGE_UNAVAILABLE');
      expect((failure as Error).message).toMatch(
        /written by an earlier Engram .* engram migrate migrates it first.*cannot write .* make both writable/,
      );
    });

    it.skipIf(!binBuilt)(
      `recall, get, list and export print their answer with one warning${binBuilt ? '' : ' (skipped: run npm run build first)'}`,
      async () => {
        const { path, id } = await storeInReadOnlyFolder();
        const out = join(mkdtempSync(join(tmpdir(), 'engram-ro-export-')), 'dump.jsonl');
        cleanups.push(() => rmSync(join(out, '..'), { recursive: true, force: true }));
        for (const [args, expected] of [
          [['recall', '--db', path, '--scope', SCOPE, 'deploy the shop'], 'production'],
          [['get', '--db', path, '--scope', SCOPE, id], 'production'],
          [['list', '--db', path, '--scope', SCOPE], 'PostgreSQL'],
          [['export', 'jsonl', '--db', path, '--scope', SCOPE, out], ''],
        ] as const) {
          const run = runCli([...args]);
          expect(run.status, `${args[0]}: ${run.stderr}`).toBe(0);
          expect(run.stdout).toContain(expected);
          expect(run.stderr.match(/cannot be written/g), run.stderr).toHaveLength(1);
        }
        expect(statSync(out).size).toBeGreaterThan(0);
      },
      60_000,
    );
  },
);
