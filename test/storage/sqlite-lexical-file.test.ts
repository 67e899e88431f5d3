/**
 * The persisted lexical index (`<database>.lexical`): another store (or process) opening the same
 * database loads it and, caught up from the change feed, answers exactly as FTS5 and as a fresh build
 * after another connection's writes; a corrupt file, one of another format or of another database is
 * rebuilt, never used; pruning the change feeds never loses a change (a reader behind the pruned mark
 * reloads).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LexicalQuery } from '../../src/core/ports/store.js';
import { feedFloor, pruneChangeFeeds } from '../../src/storage/sqlite/change-feeds.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { readLexicalHeader } from '../../src/storage/sqlite/lexical/lexical-file.js';
import { openConnection } from '../../src/storage/sqlite/sqlite-connection.js';
import { DAY, T0, makeRecord, seededVector, withVectors } from '../contract/store-fixtures.js';
import { CONTRACT_DIMENSION } from '../contract/store.contract.js';

const EMBEDDING = { name: 'contract-test:8', dimension: CONTRACT_DIMENSION };
const WORDS = ['coffee', 'garden', 'deploy', 'deployed', 'alice', 'bob', 'paris', 'meeting', 'report', 'budget', 'kitchen', 'cluster'];
const SCOPES = ['acme/a', 'acme/a', 'acme/b'];
const NOW = T0 + 31 * DAY;

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(11);
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
const sentence = (): string => Array.from({ length: 2 + Math.floor(next() * 7) }, () => pick(WORDS)).join(' ');

/** Queries of every shape the lexical channel sends. */
function queries(): LexicalQuery[] {
  const out: LexicalQuery[] = [];
  for (const words of [['coffee'], ['garden', 'deploy'], ['alice', 'report', 'budget'], ['zebrafish'], ['kitchen', 'paris']]) {
    const terms = words.map((term) => ({ term }));
    out.push(
      { scopes: ['acme/a'], now: NOW, limit: 10, terms },
      { scopes: ['acme/a', 'acme/b'], now: NOW, limit: 30, terms },
      { scopes: ['acme/b'], now: NOW, limit: 10, terms, includeSuperseded: true },
      { scopes: ['acme/a'], now: NOW, limit: 10, terms, layers: ['semantic'] },
    );
  }
  return out;
}

async function results(store: SqliteStore): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of queries()) out.push(await store.lexicalSearch(query));
  return out;
}

describe('SQLite persisted lexical index', () => {
  let dir: string;
  let path: string;
  let writer: SqliteStore;
  let fts: SqliteStore;
  const opened: SqliteStore[] = [];
  const warnings: string[] = [];
  const logger = { info: () => undefined, warn: (message: string) => warnings.push(message) };
  const open = async (overrides: Record<string, unknown> = {}): Promise<SqliteStore> => {
    const store = await openSqliteStore({ path, embedding: EMBEDDING, lexicalIndexThreshold: 0, logger, ...overrides });
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-lexfile-'));
    path = join(dir, 'engram.db');
    warnings.length = 0;
    writer = await open({ lexicalIndexThreshold: Infinity });
    fts = await open({ lexicalIndexThreshold: Infinity });
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function insert(n: number): Promise<{ id: string; scope: string }[]> {
    const records = Array.from({ length: n }, () =>
      makeRecord({
        scope: pick(SCOPES),
        layer: pick(['episodic', 'semantic']),
        content: sentence(),
        tags: next() < 0.3 ? [pick(WORDS)] : [],
        validFrom: T0 + Math.floor(next() * 30) * DAY,
        recordedAt: T0 + Math.floor(next() * 30) * DAY,
      }),
    );
    await writer.transaction((tx) => tx.insertMemories(withVectors(CONTRACT_DIMENSION, records)));
    return records.map((r) => ({ id: r.id, scope: r.scope }));
  }

  /** Inserts, content updates, supersession and deletes by the writer connection. */
  async function change(rows: readonly { id: string; scope: string }[]): Promise<void> {
    await insert(40);
    const [first, second, third, ...rest] = rows;
    await writer.transaction(async (tx) => {
      await tx.updateMemory(first!.id, first!.scope, { updatedAt: NOW, content: 'the zebrafish garden report' });
      // supersession: the old version is closed and marked, the new one inserted
      await tx.updateMemory(second!.id, second!.scope, {
        updatedAt: NOW,
        status: 'superseded',
        validTo: T0 + 29 * DAY,
        invalidatedAt: T0 + 29 * DAY,
      });
      await tx.insertMemories(withVectors(CONTRACT_DIMENSION, [makeRecord({ scope: second!.scope, content: 'coffee zebrafish budget' })]));
      await tx.updateMemory(third!.id, third!.scope, { updatedAt: NOW, tags: ['kitchen', 'paris'] });
      for (const row of rest.slice(0, 15)) await tx.updateMemory(row.id, row.scope, { updatedAt: NOW, content: sentence() });
    });
    await writer.transaction((tx) =>
      tx.deleteMemories(
        rest
          .slice(20, 30)
          .filter((r) => r.scope === 'acme/a')
          .map((r) => r.id),
        'acme/a',
      ),
    );
  }

  it('is loaded by another store and, caught up, answers exactly as FTS5 and a fresh build', async () => {
    const rows = await insert(600);
    const builder = await open();
    expect(await builder.prepareLexicalIndex()).toBe(true);
    expect(builder.lexicalIndexUsage).toMatchObject({ builds: 1, loads: 0 });
    expect(existsSync(`${path}.lexical`)).toBe(true);
    await change(rows);

    const loaded = await open();
    const fromFile = await results(loaded);
    expect(loaded.lexicalIndexUsage).toMatchObject({ loads: 1, builds: 0 });
    expect(loaded.lexicalIndexUsage?.indexed).toBe(queries().length);
    expect(fromFile).toEqual(await results(fts));
    expect((fromFile[12] as unknown[]).length).toBeGreaterThan(0); // 'zebrafish' found through the catch-up

    rmSync(`${path}.lexical`);
    const fresh = await open();
    await fresh.prepareLexicalIndex();
    expect(fresh.lexicalIndexUsage).toMatchObject({ builds: 1, loads: 0 });
    expect(await results(fresh)).toEqual(fromFile);
    // the vector search's post-filter reads the loaded index too
    const vectorQuery = { scopes: ['acme/a'], now: NOW, limit: 10, vector: seededVector(CONTRACT_DIMENSION, 3) };
    expect(await loaded.vectorSearch(vectorQuery)).toEqual(await fts.vectorSearch(vectorQuery));
    expect(warnings).toEqual([]);
  });

  it.each([
    ['a corrupt file', (bytes: Buffer) => bytes.fill(7, bytes.length - 64, bytes.length - 32), /corrupt/],
    ['a truncated file', (bytes: Buffer) => bytes.subarray(0, bytes.length - 100), /truncated/],
    [
      'a file of another format',
      (bytes: Buffer) => Buffer.from(bytes.toString('latin1').replace(/"format":\d+/, '"format":9'), 'latin1'),
      /./,
    ],
  ])('rebuilds instead of using %s', async (_name, damage, warning) => {
    await insert(300);
    const builder = await open();
    await builder.prepareLexicalIndex();
    const file = `${path}.lexical`;
    writeFileSync(file, damage(readFileSync(file)));
    const reader = await open();
    await reader.prepareLexicalIndex();
    expect(reader.lexicalIndexUsage).toMatchObject({ loads: 0, builds: 1 });
    expect(warnings.join('\n')).toMatch(warning);
    expect(await results(reader)).toEqual(await results(fts));
    // the rebuilt file is good again
    const again = await open();
    await again.prepareLexicalIndex();
    expect(again.lexicalIndexUsage).toMatchObject({ loads: 1, builds: 0 });
  });

  it('seals the file it writes and then loads it without reading it twice; a seal of other contents is not trusted', async () => {
    await insert(300);
    const builder = await open();
    await builder.prepareLexicalIndex();
    const file = `${path}.lexical`;
    const checksum = (): number => {
      const header = readLexicalHeader(readFileSync(file), { verify: false });
      if (typeof header === 'string') throw new Error(header);
      return header.checksum;
    };
    const identity = (): Record<string, number> => {
      const { ino, mtimeMs, size } = statSync(file);
      return { ino, mtimeMs, size };
    };
    const seal = (): Record<string, number> => JSON.parse(readFileSync(`${file}.seal`, 'utf8')) as Record<string, number>;
    expect(seal()).toEqual({ ...identity(), checksum: checksum() });

    // contents changed (one bit of a stored frequency), and a seal that vouches for them as they are
    // now: loaded without the checksum read
    const bytes = readFileSync(file);
    const header = readLexicalHeader(bytes, { verify: false });
    if (typeof header === 'string') throw new Error(header);
    const freqs = header.sections.find((section) => section.name === 'postingFreqs');
    if (freqs === undefined) throw new Error('no postingFreqs section');
    const bodyStart = (16 + bytes.readUInt32LE(8) + 7) & ~7;
    bytes[bodyStart + freqs.offset] = (bytes[bodyStart + freqs.offset] as number) ^ 1;
    writeFileSync(file, bytes);
    writeFileSync(`${file}.seal`, JSON.stringify({ ...identity(), checksum: checksum() }));
    const trusting = await open({ readonly: true });
    await trusting.prepareLexicalIndex();
    expect(trusting.lexicalIndexUsage).toMatchObject({ loads: 1, builds: 0 });

    // a seal of another checksum (or of another file) is ignored: the damage is found and the index rebuilt
    writeFileSync(`${file}.seal`, JSON.stringify({ ...identity(), checksum: checksum() + 1 }));
    const checking = await open();
    await checking.prepareLexicalIndex();
    expect(checking.lexicalIndexUsage).toMatchObject({ loads: 0, builds: 1 });
    expect(warnings.join('\n')).toMatch(/corrupt/);
    expect(await results(checking)).toEqual(await results(fts));
    // the rebuilt file has its own seal
    expect(seal()).toEqual({ ...identity(), checksum: checksum() });
  });

  it('seals a checked file a writable store loads, never from a read-only one', async () => {
    await insert(300);
    const builder = await open();
    await builder.prepareLexicalIndex();
    const file = `${path}.lexical`;
    rmSync(`${file}.seal`);
    const readonly = await open({ readonly: true });
    await readonly.prepareLexicalIndex();
    expect(readonly.lexicalIndexUsage).toMatchObject({ loads: 1, builds: 0 });
    expect(existsSync(`${file}.seal`)).toBe(false);
    const writable = await open();
    await writable.prepareLexicalIndex();
    expect(writable.lexicalIndexUsage).toMatchObject({ loads: 1, builds: 0 });
    const { ino, mtimeMs, size } = statSync(file);
    expect(JSON.parse(readFileSync(`${file}.seal`, 'utf8'))).toMatchObject({ ino, mtimeMs, size });
  });

  it('never uses the file of another database at the same path', async () => {
    await insert(200);
    const builder = await open();
    await builder.prepareLexicalIndex();
    const file = readFileSync(`${path}.lexical`);
    await Promise.all(opened.splice(0).map((store) => store.close()));
    for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
    // a new database at the same path, with the old database's file beside it
    writer = await open({ lexicalIndexThreshold: Infinity });
    fts = await open({ lexicalIndexThreshold: Infinity });
    await insert(250);
    writeFileSync(`${path}.lexical`, file);
    const reader = await open();
    await reader.prepareLexicalIndex();
    expect(reader.lexicalIndexUsage).toMatchObject({ loads: 0, builds: 1 });
    expect(warnings.join('\n')).toMatch(/another database/);
    expect(await results(reader)).toEqual(await results(fts));
  });

  it('never loses a change to pruning: a reader behind the pruned mark reloads', async () => {
    const rows = await insert(500);
    const reader = await open({ memoryIndexThreshold: 0, memoryIndexWarmup: 0, vectorIndex: 'exact' });
    await reader.prepareLexicalIndex();
    const vectorQuery = { scopes: ['acme/a'], now: NOW, limit: 20, vector: seededVector(CONTRACT_DIMENSION, 5) };
    await results(reader);
    await reader.vectorSearch(vectorQuery);
    await change(rows);

    // prune as a process whose newer index files reflect everything would
    const connection = await openConnection({ path, readonly: false, busyTimeoutMs: 1000 });
    try {
      const raw = (sql: string): number => (connection.get<{ n: number | null }>(sql)?.n ?? 0) as number;
      const memoryTop = raw('SELECT max(seq) AS n FROM memory_changes');
      const pruned = await pruneChangeFeeds(connection, { retention: 2, lexicalMark: memoryTop, annMark: () => undefined, batch: 3 });
      expect(pruned.memoryChanges).toBeGreaterThan(10);
      expect(pruned.vectorChanges).toBeGreaterThan(5);
      expect(raw('SELECT count(*) AS n FROM memory_changes')).toBe(2);
      expect(feedFloor(connection, 'memory_changes', '')).toBe(memoryTop - 1);
      // each scope keeps its newest vector change
      expect(raw('SELECT count(DISTINCT scope) AS n FROM vector_changes')).toBe(2);
    } finally {
      connection.close();
    }

    // the next search finds the feed pruned past the index's mark, and the file too old: the index is
    // rebuilt (inline at this size) and answers every query
    const indexed = reader.lexicalIndexUsage?.indexed ?? 0;
    const fromReader = await results(reader);
    expect(reader.lexicalIndexUsage?.indexed).toBe(indexed + queries().length);
    expect(fromReader).toEqual(await results(fts));
    expect(warnings.join('\n')).toMatch(/pruned past the index file/);
    expect((fromReader[12] as unknown[]).length).toBeGreaterThan(0);
    // the exact vector index reloads the scope too: the same as a store that loads it now
    const fresh = await open({ memoryIndexThreshold: 0, memoryIndexWarmup: 0, vectorIndex: 'exact', lexicalIndexThreshold: Infinity });
    expect(await reader.vectorSearch(vectorQuery)).toEqual(await fresh.vectorSearch(vectorQuery));

    // the file written before the prune is behind the floor: not used, rebuilt
    const late = await open();
    await late.prepareLexicalIndex();
    expect(late.lexicalIndexUsage).toMatchObject({ loads: 0, builds: 1 });
    expect(await results(late)).toEqual(await results(fts));
  });

  it('keeps the entries a persisted file still needs', async () => {
    const rows = await insert(300);
    const builder = await open();
    await builder.prepareLexicalIndex();
    const header = readLexicalHeader(readFileSync(`${path}.lexical`));
    if (typeof header === 'string') throw new Error(header);
    const fileMark = header.mark;
    expect(fileMark).toBeGreaterThanOrEqual(0);
    await change(rows);
    const connection = await openConnection({ path, readonly: false, busyTimeoutMs: 1000 });
    try {
      await pruneChangeFeeds(connection, { retention: 1, lexicalMark: fileMark, annMark: () => undefined });
    } finally {
      connection.close();
    }
    const reader = await open();
    expect(await results(reader)).toEqual(await results(fts));
    expect(reader.lexicalIndexUsage).toMatchObject({ loads: 1, builds: 0 });
  });

  it.skipIf(distProblem !== null)(
    `is loaded by another process, with the same hits${distProblem === null ? '' : ` (skipped: ${distProblem})`}`,
    async () => {
      const rows = await insert(400);
      const builder = await open();
      await builder.prepareLexicalIndex();
      await change(rows);
      const child = await runReader(path, queries());
      expect(child.usage).toMatchObject({ loads: 1, builds: 0 });
      expect(child.results).toEqual(await results(fts));
    },
  );
});

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const distProblem = ((): string | null => {
  const built = join(root, 'dist', 'storage', 'sqlite');
  if (!existsSync(join(built, 'lexical', 'lexical-file.js')))
    return 'dist/ predates the lexical index file: run `npx tsc -p tsconfig.build.json`';
  const sources = join(root, 'src', 'storage', 'sqlite');
  // each source's own compiled file, so a leftover .js of a deleted source cannot make dist/ look stale
  const stale = readdirSync(sources, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .some((f) => {
      const compiled = join(built, f.replace(/\.ts$/, '.js'));
      return !existsSync(compiled) || statSync(compiled).mtimeMs < statSync(join(sources, f)).mtimeMs;
    });
  return stale ? 'dist/ is older than src/storage/sqlite: rebuild with `npx tsc -p tsconfig.build.json`' : null;
})();

/** Runs the queries in a new process (test/storage/lexical-reader.mjs against dist/). */
function runReader(path: string, list: readonly LexicalQuery[]): Promise<{ usage: unknown; results: unknown[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'lexical-reader.mjs'), path, JSON.stringify(list)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as { usage: unknown; results: unknown[] })
        : reject(new Error(`reader exited ${code}: ${stderr}`)),
    );
  });
}
