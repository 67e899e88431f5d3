/**
 * Purge on SQLite, at the byte level: after a purge the purged text is in neither the
 * database file, nor its WAL, nor the approximate vector index files, and the index is rebuilt from
 * the stored vectors without the purged rows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { Engram } from '../../src/index.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { locateUsearch } from '../../src/storage/sqlite/ann/ann-library.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'qvxzamberlithe';
// the FTS index keeps stems (porter drops a final "e"), so look for a prefix of both
const NEEDLE = Buffer.from('qvxzamberlith');

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function filesContaining(paths: readonly string[]): string[] {
  return paths.filter((path) => existsSync(path) && readFileSync(path).includes(NEEDLE));
}

function annFiles(path: string): string[] {
  const directory = `${path}.ann`;
  return existsSync(directory) ? readdirSync(directory).map((name) => join(directory, name)) : [];
}

it.skipIf(locateUsearch() === undefined)('after a purge the text is in neither the database file, the WAL nor the ANN files', async () => {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, 'engram.db');
  const embedder = new HashEmbedder();
  const store: SqliteStore = await openSqliteStore({
    path,
    embedding: { name: embedder.name, dimension: embedder.dimension },
    memoryIndexThreshold: 20,
    memoryIndexWarmup: 0,
    vectorIndex: 'hnsw',
  });
  const engram = new Engram({ store, embedder });
  cleanups.push(() => engram.close());
  await engram.remember(
    Array.from({ length: 60 }, (_, i) => ({ scope: 'acme/p', content: `Routine log line ${i} about the backup job.` })),
  );
  const secret = await engram.remember({
    scope: 'acme/p',
    layer: 'semantic',
    content: `The vault passphrase hint is ${TOKEN}.`,
    tags: [`${TOKEN}-tag`],
    entities: [`${TOKEN.toUpperCase()} Corp`],
    summary: `hint ${TOKEN}`,
  });
  await engram.update(secret.id, { content: `The vault passphrase hint is ${TOKEN}, rotated.` }, { scope: 'acme/p' });
  expect(await store.prepareVectorIndex(['acme/p'])).toEqual(['acme/p']);
  expect(annFiles(path).some((file) => file.endsWith('.usearch'))).toBe(true);
  // the text is on disk before the purge (database file or WAL)
  expect(filesContaining([path, `${path}-wal`]).length).toBeGreaterThan(0);

  const report = await engram.purge({ scope: 'acme/p', ids: [secret.id], confirm: true });
  expect(report).toMatchObject({ purged: 1, removed: { records: 1, history: 1, indexEntries: 2 } });
  expect(filesContaining([path, `${path}-wal`, `${path}-shm`, ...annFiles(path)])).toEqual([]);
  expect(existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`).length : 0).toBe(0);
  // the scope's index files went with the purge, and the rebuild holds only what remains
  expect(annFiles(path).filter((file) => file.endsWith('.usearch') || file.endsWith('.json'))).toEqual([]);
  expect(await store.prepareVectorIndex(['acme/p'])).toEqual(['acme/p']);
  const manifest = annFiles(path).find((file) => file.endsWith('.json')) as string;
  expect(JSON.parse(readFileSync(manifest, 'utf8'))).toMatchObject({ count: 60 });
  expect((await engram.recall('vault passphrase hint', { scopes: ['acme/p'] })).hits.map((h) => h.id)).not.toContain(secret.id);
  await engram.close();
  expect(filesContaining([path, `${path}-wal`, ...annFiles(path)])).toEqual([]);
});
