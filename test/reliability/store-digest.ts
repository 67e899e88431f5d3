/**
 * A fingerprint of everything a store holds, read beside the engine (not through it), so a fuzzer can
 * check that a rejected input left the store exactly as it was. Read bookkeeping (access counts) is
 * left out: reads may record it, and it is not what a write would corrupt. So are sqlite-vec's vector
 * chunks (a megabyte each, slow to hash): its rowid table still shows which memories have a vector.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';

const IGNORED_COLUMNS = new Set(['access_count', 'last_accessed_at']);
const IGNORED_TABLES = /_vector_chunks\d+$/;

function hashRows(rows: string[]): string {
  rows.sort();
  return createHash('sha256').update(rows.join('\n')).digest('hex');
}

/** Table name → row count, plus one hash of every row: equal digests mean an unchanged store. */
export interface StoreDigest {
  counts: Record<string, number>;
  hash: string;
}

/** A SQLite file's digest reader: one read-only connection of its own (WAL lets it read beside the writer). */
export function openSqliteDigest(path: string): { digest: () => StoreDigest; close: () => void } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const tables = () =>
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
      )
      .all() as { name: string }[];
  return {
    digest() {
      // A table scan visits rows in key order, so equal contents hash equally without sorting.
      const hash = createHash('sha256');
      const counts: Record<string, number> = {};
      for (const { name } of tables()) {
        if (IGNORED_TABLES.test(name)) continue;
        let n = 0;
        for (const row of db.prepare(`SELECT * FROM "${name}"`).iterate() as IterableIterator<Record<string, unknown>>) {
          n += 1;
          hash.update(name);
          for (const [key, value] of Object.entries(row)) {
            if (IGNORED_COLUMNS.has(key)) continue;
            if (Buffer.isBuffer(value)) hash.update(value);
            else hash.update(`${key}=${typeof value === 'bigint' ? value.toString() : JSON.stringify(value)};`);
          }
        }
        counts[name] = n;
      }
      return { counts, hash: hash.digest('hex') };
    },
    close: () => db.close(),
  };
}

/** Digest of a SQLite file, through a connection opened for this one read. */
export function sqliteDigest(path: string): StoreDigest {
  const reader = openSqliteDigest(path);
  try {
    return reader.digest();
  } finally {
    reader.close();
  }
}

/** Digest of one PostgreSQL schema (`url` without the schema parameter). */
export async function pgDigest(url: string, schema: string): Promise<StoreDigest> {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name",
      [schema],
    );
    const counts: Record<string, number> = {};
    const all: string[] = [];
    for (const { table_name: name } of tables.rows) {
      const rows = await client.query<{ j: string }>(
        `SELECT (to_jsonb(t) - 'access_count' - 'last_accessed_at')::text AS j FROM "${schema}"."${name}" t`,
      );
      counts[name] = rows.rows.length;
      for (const row of rows.rows) all.push(`${name}:${row.j}`);
    }
    return { counts, hash: hashRows(all) };
  } finally {
    await client.end();
  }
}
