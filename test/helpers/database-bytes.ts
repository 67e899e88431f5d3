/**
 * What a SQLite store holds on disk, as text: the database file and its write-ahead log (latin1, so any
 * byte is one character). Tests that promise a secret never reaches storage search it.
 */
import { existsSync, readFileSync } from 'node:fs';

export function databaseText(path: string): string {
  return [path, `${path}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}
