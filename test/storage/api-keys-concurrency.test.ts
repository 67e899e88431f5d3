/**
 * API keys created by several processes at once (built code in dist/: run `npm run build` first): on an
 * existing SQLite file, on a new SQLite file (schema creation races too) and on a new PostgreSQL schema.
 * Every created key must be listed, verify, and be revocable afterwards. The writers open the store
 * first and then start together, so their creations really interleave.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import type { Store } from '../../src/core/ports/store.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { MIGRATIONS } from '../../src/storage/sqlite/sqlite-migrations.js';
import { freshPgSchema, PG_SKIP_REASON, pgTestUrl } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const EMBEDDING = { name: 'contract-test:8', dimension: 8 };
const PROCESSES = 4;
const PER_PROCESS = 10;

interface Created {
  id: string;
  key: string;
}

interface Writer {
  ready: Promise<void>;
  done: Promise<{ code: number | null; created: Created[]; stderr: string }>;
}

/** A writer process; it opens the store, says "ready", and creates its keys once `goFile` exists. */
function startKeyWriter(target: string, count: number, goFile: string): Writer {
  const child = spawn(process.execPath, [join(here, 'key-writer.mjs'), target, String(count), goFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; created: Created[]; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      markReady(); // a writer that failed to open must not hold the others back
      const created = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Created);
      resolve({ code, created, stderr });
    });
  });
  return { ready, done };
}

/** Starts every writer, lets them all open the store, then releases them together so their writes interleave. */
async function createConcurrently(target: string, dir: string): Promise<Created[]> {
  const goFile = join(dir, `go-${process.pid}-${Math.round(performance.now())}`);
  const writers = Array.from({ length: PROCESSES }, () => startKeyWriter(target, PER_PROCESS, goFile));
  await Promise.all(writers.map((w) => w.ready));
  writeFileSync(goFile, '');
  const results = await Promise.all(writers.map((w) => w.done));
  for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
  const created = results.flatMap((r) => r.created);
  expect(created).toHaveLength(PROCESSES * PER_PROCESS);
  return created;
}

async function expectEveryKeyUsable(store: Store, created: readonly Created[]): Promise<void> {
  const keys = new ApiKeys(store, { presenceTtlMs: 0 });
  const listed = new Set((await keys.list()).map((k) => k.id));
  expect(created.filter((c) => !listed.has(c.id))).toEqual([]);
  for (const { id, key } of created) expect(await keys.verify(key)).toEqual({ keyId: id, tenant: 'acme' });
  for (const { id } of created) expect((await keys.revoke(id)).revokedAt).not.toBeNull();
  for (const { key } of created) expect(await keys.verify(key)).toBeNull();
}

describe('concurrent key creation on SQLite', () => {
  it(`keeps every key of ${PROCESSES} processes on an existing file`, async () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'keys.db');
    try {
      await (await openSqliteStore({ path, embedding: EMBEDDING })).close();
      const created = await createConcurrently(path, dir);
      const store = await openSqliteStore({ path, embedding: EMBEDDING });
      try {
        await expectEveryKeyUsable(store, created);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  }, 120_000);

  it(`keeps every key of ${PROCESSES} processes that all create a new file at once`, async () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'new.db');
    try {
      const created = await createConcurrently(path, dir);
      const raw = new Database(path, { readonly: true });
      try {
        // each migration recorded once: one process applied it, the others found it applied
        expect(raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual(
          MIGRATIONS.map((m) => ({ version: m.version })),
        );
      } finally {
        raw.close();
      }
      const store = await openSqliteStore({ path, embedding: EMBEDDING });
      try {
        await expectEveryKeyUsable(store, created);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  }, 120_000);
});

describe.skipIf(pgTestUrl() === undefined)('concurrent key creation on the PostgreSQL server', () => {
  it(`keeps every key of ${PROCESSES} processes that all create a new schema at once`, async () => {
    const { url, drop } = freshPgSchema('keys');
    const { dir, cleanup } = tempDir();
    try {
      const created = await createConcurrently(url, dir);
      const store = await openPostgresStore({ url, embedding: EMBEDDING });
      try {
        await expectEveryKeyUsable(store, created);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
      await drop();
    }
  }, 120_000);
});

if (pgTestUrl() === undefined) console.warn(PG_SKIP_REASON);
