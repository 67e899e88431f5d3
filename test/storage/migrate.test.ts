/**
 * `engram migrate`: a SQLite database with every kind of row (superseded claims, edges, a registered
 * relation type, concept refs, a consolidation report, queued jobs, API-key metadata) is copied into
 * PostgreSQL — PGlite with pgvector served over the wire, and the real server when configured — and
 * verified by per-table content hashes; recall then answers the same on both.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import { sourceKeyOf } from '../../src/core/write/new-record.js';
import { Engram } from '../../src/index.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { createPglite, openPgliteStore, type PgliteLike } from '../../src/storage/postgres/index.js';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import { hashPostgres, hashSqlite, MIGRATED_TABLES, type MigrationReport } from '../../src/storage/migrate/sqlite-to-postgres.js';
import { openConnection } from '../../src/storage/sqlite/sqlite-connection.js';
import { LATEST_VERSION } from '../../src/storage/sqlite/sqlite-migrations.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { BIN, binBuilt, json, runCliAsync } from '../helpers/cli.js';
import { dropPgSchema, pgTestUrl, PG_SKIP_REASON, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

/** The same questions must get the same top 5, in the same order, on the copy. */
const QUERIES = ['deploy target', 'coffee mug grasp', 'Alice peanuts', 'vault code', 'box push failed'];

/** Sourced turns (hooks, `remember --file`): their source keys must survive the copy. */
const SOURCED: readonly [{ conversationId: string; messageId: string }, string][] = [
  [{ conversationId: 'session-1', messageId: 'uuid-1' }, 'user: which port does the API use?'],
  [{ conversationId: 'session-1', messageId: 'uuid-2' }, 'assistant: the API listens on port 8080.'],
  [{ conversationId: '会話 🚀', messageId: 'مرحبا' }, 'a turn with a unicode source'],
];

/** On the copy, re-ingesting every source stays idempotent: the same ids come back, unchanged. */
async function expectSourcesIdempotent(source: string, copy: Engram): Promise<void> {
  const original = await Engram.open({ path: source, embedder: 'hash' });
  try {
    for (const [ref, content] of SOURCED) {
      const key = sourceKeyOf(ref)!;
      const stored = (await original.store.findBySourceKey('acme/hooks', [key])).get(key);
      expect(stored).toBeDefined();
      expect(await copy.remember({ scope: 'acme/hooks', content: `${content} (again)`, source: ref })).toEqual({
        id: stored,
        action: 'unchanged',
      });
    }
  } finally {
    await original.close();
  }
}

/** A SQLite database holding rows in every migrated table. */
async function populatedDatabase(path: string): Promise<void> {
  const clock = new ManualClock(Date.UTC(2026, 2, 1));
  const engram = await Engram.open({ path, embedder: 'hash', clock });
  try {
    await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'The deploy target is staging.' });
    clock.advance(86_400_000);
    await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'The deploy target moved from staging to production.' });
    await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'Alice is allergic to peanuts.', tags: ['health'] });
    await engram.remember({ scope: 'acme/b', layer: 'semantic', content: 'The vault code is 4711.' });
    const episode = (tool: string, objects: string[], success: boolean, i: number) => ({
      scope: 'acme/robot',
      layer: 'episodic' as const,
      content: `${tool} ${objects.join(' ')} attempt ${i}: ${success ? 'worked' : 'failed'}`,
      importance: 0.3,
      perception: { objects, salience: 0.5, novelty: 0.2 },
      action: { tool },
      outcome: { success },
    });
    await engram.remember([true, true, false, true, true, true, true, true].map((s, i) => episode('grasp', ['coffee_mug'], s, i)));
    await engram.remember([true, false, true, false, true, false].map((s, i) => episode('push', ['box'], s, i)));
    await engram.consolidate({ scope: 'acme/robot' });
    // left queued on purpose: the queue must travel too
    await engram.remember(episode('wave', ['flag'], true, 99));
    await engram.registerRelation({ scope: 'acme/robot', name: 'keeps warm', proposedBy: 'test' });
    await engram.store.setMeta('cursor:session-1', 'message-42');
    await new ApiKeys(engram.store).create({ tenant: 'acme', label: 'migrated' });
    for (const [source, content] of SOURCED) await engram.remember({ scope: 'acme/hooks', content, source });
    await engram.remember({
      scope: 'acme/hooks',
      layer: 'semantic',
      content: 'The build server runs Debian.',
      source: { uri: 'file:///notes/ops.md', messageId: 'L12' },
    });
  } finally {
    await engram.close();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Recall at one fixed instant on both sides (recency moves with the clock, and near-ties with it). */
const READ_AT = Date.UTC(2026, 3, 1);

async function recallIds(path: string | Engram): Promise<string[][]> {
  const engram = typeof path === 'string' ? await Engram.open({ path, embedder: 'hash', clock: new ManualClock(READ_AT) }) : path;
  try {
    const scopes = ['acme/a', 'acme/b', 'acme/robot'];
    const answers: string[][] = [];
    for (const q of QUERIES) answers.push((await engram.recall(q, { scopes, k: 5 })).hits.map((h) => h.id));
    return answers;
  } finally {
    await engram.close();
  }
}

describe('engram migrate: SQLite → PGlite + pgvector over the wire', () => {
  let dir: ReturnType<typeof tempDir>;
  let source: string;
  let pglite: PGlite;
  let server: PGLiteSocketServer;
  let url: string;

  beforeAll(async () => {
    dir = tempDir('engram-migrate-');
    source = join(dir.dir, 'engram.db');
    await populatedDatabase(source);
    pglite = (await createPglite()) as unknown as PGlite;
    const port = await freePort();
    server = new PGLiteSocketServer({ db: pglite, port, host: '127.0.0.1', maxConnections: 4 });
    await server.start();
    url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await pglite?.close();
    dir?.cleanup();
  });

  it.skipIf(!binBuilt)(
    `copies every table, verifies the hashes, and recall answers the same${binBuilt ? '' : ' (skipped: run npm run build first)'}`,
    async () => {
      const target = withSchema(url, 'migrated');
      const result = await runCliAsync(['migrate', '--from', source, '--to', target, '--json']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const report = json<MigrationReport>(result);
      expect(report.ok).toBe(true);
      expect(report.schema).toBe('migrated');
      expect(report.tables.map((t) => t.table)).toEqual([...MIGRATED_TABLES]);
      const rows = Object.fromEntries(report.tables.map((t) => [t.table, t.targetRows]));
      for (const table of MIGRATED_TABLES) expect(rows[table], table).toBeGreaterThan(0);
      for (const t of report.tables) expect(t.targetHash).toBe(t.sourceHash);

      // the copy is a working store: the same questions get the same answers (PGlite directly: its
      // socket server is one session, which a pool's parallel reads would interleave)
      const embedder = new HashEmbedder();
      const store = await openPgliteStore({
        pglite: pglite as unknown as PgliteLike,
        schema: 'migrated',
        embedding: { name: embedder.name, dimension: embedder.dimension },
      });
      expect(await recallIds(new Engram({ store, embedder, clock: new ManualClock(READ_AT) }))).toEqual(await recallIds(source));
      const reopened = await openPgliteStore({
        pglite: pglite as unknown as PgliteLike,
        schema: 'migrated',
        embedding: { name: embedder.name, dimension: embedder.dimension },
      });
      const copy = new Engram({ store: reopened, embedder });
      try {
        await expectSourcesIdempotent(source, copy);
      } finally {
        await copy.close();
      }

      // a second run refuses to merge into a schema that holds data
      const again = await runCliAsync(['migrate', '--from', source, '--to', target, '--json']);
      expect(again.status).not.toBe(0);
      expect(JSON.parse(again.stderr).error.code).toBe('CONFLICT');
    },
    120_000,
  );

  it('copies a NUL-joined source key (from an older process still writing) as the current key', async () => {
    const legacy = join(dir.dir, 'legacy.db');
    const original = new Database(source, { readonly: true });
    original.prepare('VACUUM INTO ?').run(legacy); // a file copy would miss what is still in the WAL
    original.close();
    const [ref] = SOURCED[0]!;
    const raw = new Database(legacy);
    raw
      .prepare('UPDATE memories SET source_key = ? WHERE source_key = ?')
      .run(`${ref.conversationId}\u0000${ref.messageId}`, sourceKeyOf(ref));
    raw.close();
    const { migrateSqliteToPostgres } = await import('../../src/storage/migrate/sqlite-to-postgres.js');
    const report = await migrateSqliteToPostgres({ from: legacy, to: withSchema(url, 'legacy') });
    expect(report.ok).toBe(true);
    const keys = await pglite.query<{ source_key: string }>(
      `SELECT source_key FROM "legacy".memories WHERE source_key IS NOT NULL ORDER BY source_key`,
    );
    expect(keys.rows.map((r) => r.source_key)).toContain(sourceKeyOf(ref));
    for (const row of keys.rows) expect(row.source_key).not.toContain('\u0000');
  }, 120_000);

  it('brings a source file of an earlier release current first, and says so in one line', async () => {
    const older = join(dir.dir, 'older.db');
    const original = new Database(source, { readonly: true });
    original.prepare('VACUUM INTO ?').run(older);
    original.close();
    // the schema an earlier release left: migration 30 (its triggers) not applied yet
    const raw = new Database(older);
    raw.exec(
      'DROP TRIGGER memories_mentions_pending; DROP TRIGGER memories_beliefs_delete; DELETE FROM schema_migrations WHERE version = 30',
    );
    const version = (raw.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number }).v;
    raw.close();
    const { migrateSqliteToPostgres } = await import('../../src/storage/migrate/sqlite-to-postgres.js');
    const lines: string[] = [];
    const report = await migrateSqliteToPostgres({ from: older, to: withSchema(url, 'older'), onProgress: (line) => lines.push(line) });
    expect(report.ok).toBe(true);
    expect(lines.filter((line) => line.includes(`schema migrated from version ${version} to ${LATEST_VERSION}`))).toHaveLength(1);
    const migrated = new Database(older, { readonly: true });
    expect(migrated.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: LATEST_VERSION });
    migrated.close();
  }, 120_000);

  it('the hash check is not a formality: one changed value in the target is a mismatch', async () => {
    const schema = 'tampered';
    const { migrateSqliteToPostgres } = await import('../../src/storage/migrate/sqlite-to-postgres.js');
    const report = await migrateSqliteToPostgres({ from: source, to: withSchema(url, schema) });
    expect(report.ok).toBe(true);
    await pglite.query(
      `UPDATE "${schema}".memories SET access_count = access_count + 1 WHERE id = (SELECT min(id) FROM "${schema}".memories)`,
    );
    await pglite.query(`UPDATE "${schema}".jobs SET attempts = attempts + 1`);
    const embedding = { name: report.embedder.name, dimension: report.embedder.dimension };
    const store = await openPostgresStore({ url: withSchema(url, schema), embedding, poolSize: 1 });
    const after = await store.withDriver((db, tables) => hashPostgres(db, tables));
    await store.close();
    const connection = await openConnection({ path: source, readonly: true, busyTimeoutMs: 1000 });
    const before = hashSqlite(connection);
    connection.close();
    const differing = MIGRATED_TABLES.filter((t) => after.get(t)!.hash !== before.get(t)!.hash);
    expect(differing).toEqual(['memories', 'jobs']);
    expect(after.get('memories')!.rows).toBe(before.get('memories')!.rows);
  }, 120_000);
});

const serverUrl = pgTestUrl();
describe.skipIf(serverUrl === undefined || !binBuilt)(
  `engram migrate: SQLite → PostgreSQL server${serverUrl === undefined ? ` (${PG_SKIP_REASON})` : binBuilt ? '' : ' (skipped: run npm run build first)'}`,
  () => {
    it('copies and verifies into the exact real[] fallback (no pgvector on the server)', async () => {
      const dir = tempDir('engram-migrate-');
      const schema = uniqueSchema('m');
      try {
        const source = join(dir.dir, 'engram.db');
        await populatedDatabase(source);
        const target = withSchema(serverUrl!, schema);
        const result = await runCliAsync(['migrate', '--from', source, '--to', target]);
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/every table matches/);
        for (const table of MIGRATED_TABLES) expect(result.stdout).toMatch(new RegExp(`^${table} .* yes$`, 'm'));
        expect(await recallIds(target)).toEqual(await recallIds(source));
        const copy = await Engram.open({ path: target, embedder: 'hash' });
        try {
          await expectSourcesIdempotent(source, copy);
        } finally {
          await copy.close();
        }
      } finally {
        dir.cleanup();
        await dropPgSchema(serverUrl!, schema);
      }
    }, 120_000);

    it('a migrate killed mid-copy leaves the schema empty, and running it again copies everything', async () => {
      const dir = tempDir('engram-migrate-');
      const schema = uniqueSchema('mk');
      try {
        const source = join(dir.dir, 'engram.db');
        const engram = await Engram.open({ path: source, embedder: 'hash' });
        const MEMORIES = 1200;
        try {
          for (let start = 0; start < MEMORIES; start += 200) {
            await engram.remember(
              Array.from({ length: 200 }, (_, i) => ({
                scope: 'acme/bulk',
                content: `Observation ${start + i} about widget ${start + i}`,
              })),
            );
          }
        } finally {
          await engram.close();
        }
        const target = withSchema(serverUrl!, schema);
        // killed once progress says a few batches of memories are in
        const killed = await migrateKilledAfter(['migrate', '--from', source, '--to', target], /memories: (\d+),/, 256);
        expect(killed.copied).toBeGreaterThanOrEqual(256);
        expect(killed.copied).toBeLessThan(MEMORIES);
        expect(await countRows(serverUrl!, schema)).toBe(0);

        const again = await runCliAsync(['migrate', '--from', source, '--to', target, '--json']);
        expect(again.status).toBe(0);
        const report = json<MigrationReport>(again);
        expect(report.ok).toBe(true);
        expect(report.tables.find((t) => t.table === 'memories')!.targetRows).toBe(MEMORIES);
      } finally {
        dir.cleanup();
        await dropPgSchema(serverUrl!, schema);
      }
    }, 180_000);
  },
);

/** Runs the bin and SIGKILLs it on the first stderr line whose `pattern` group reaches `atLeast`. */
function migrateKilledAfter(args: readonly string[], pattern: RegExp, atLeast: number): Promise<{ copied: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let copied = 0;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      for (const match of stderr.matchAll(new RegExp(pattern, 'g'))) copied = Math.max(copied, Number(match[1]));
      if (copied >= atLeast && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve({ copied }) : reject(new Error(`migrate ended (${String(code)}) before the kill: ${stderr}`)),
    );
  });
}

/** Memory rows in `schema` of the server, or 0 when it holds no table yet. */
async function countRows(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`"${schema}".memories`]);
    if (exists.rows[0]?.t == null) return 0;
    return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".memories`)).rows[0]!.n);
  } finally {
    await client.end();
  }
}
