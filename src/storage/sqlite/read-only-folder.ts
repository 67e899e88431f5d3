/**
 * A WAL database in a folder this process cannot write: SQLite must create `-wal` and `-shm` beside the
 * file even to read it, and this driver is built without URI file names, so `immutable=1` is out of
 * reach. A database whose log is absent or empty holds all its data in the file itself, so a copy of
 * the file in memory reads exactly what is on disk.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EngramError, messages } from '../../core/errors.js';
import { sqliteCode } from './sqlite-errors.js';
import type { SqliteDatabase } from './sqlite-store-config.js';

/** Byte offsets of the file format's write and read versions: 2 means WAL, 1 the rollback journal. */
const HEADER_WRITE_VERSION = 18;
const HEADER_READ_VERSION = 19;

/** Can this process create files in the folder that holds `path`? */
export function folderWritable(path: string): boolean {
  try {
    accessSync(dirname(resolve(path)), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Can this process write the database file `path` and create files beside it (its `-wal` and `-shm`)? */
export function databaseWritable(path: string): boolean {
  try {
    accessSync(resolve(path), constants.W_OK);
  } catch {
    return false;
  }
  return folderWritable(path);
}

/** Did `db` fail its first read only because SQLite could not create `-wal`/`-shm` in a folder it may not write? */
export function blockedByReadOnlyFolder(db: SqliteDatabase, path: string): boolean {
  try {
    db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
    return false;
  } catch (error) {
    // any other failure is reported by the first real read, as without this check
    return sqliteCode(error) === 'SQLITE_CANTOPEN' && !folderWritable(path);
  }
}

/**
 * The bytes of `path` as a rollback-journal database, for the driver to open in memory. Throws
 * `STORAGE_UNAVAILABLE` when a `-wal` beside it holds changes not yet in the file: without its
 * `-shm` they cannot be read, and reading the file alone would silently miss them.
 */
export function readOnlyCopy(path: string): Buffer {
  const wal = `${path}-wal`;
  if (fileSize(wal) > 0) {
    throw new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.storageUnavailable(
        `"${path}" has a write-ahead log ("${wal}") with changes not yet checkpointed into the database, and its folder cannot be written, so SQLite cannot read them; ` +
          'make the folder writable, or open the store once where it can be written (any engram command that writes checkpoints it on close), then read it here again',
      ),
      { details: { path } },
    );
  }
  const bytes = readFileSync(path);
  // the in-memory copy cannot have a WAL: read it as a rollback-journal database
  if (bytes.length > HEADER_READ_VERSION && bytes[HEADER_WRITE_VERSION] === 2) bytes[HEADER_WRITE_VERSION] = 1;
  if (bytes.length > HEADER_READ_VERSION && bytes[HEADER_READ_VERSION] === 2) bytes[HEADER_READ_VERSION] = 1;
  return bytes;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * The one warning of a store whose folder cannot be written, or '' when there is nothing to say: it
 * was opened read-only although asked to write, or it reads a copy of the file held in memory.
 */
export function readOnlyFolderWarning(path: string, opened: { fellBack: boolean; inMemoryCopy: boolean }): string {
  if (!opened.fellBack && !opened.inMemoryCopy) return '';
  const folder = `the folder of "${path}" cannot be written`;
  const copy = `it reads a copy of the file taken now (${Math.ceil(fileSize(path) / 2 ** 20)} MB held in memory), so changes another process makes later are not seen`;
  if (!opened.fellBack) return `${folder}, so ${copy}`;
  return `${folder}, so the store is open read-only: reads work, writes fail${opened.inMemoryCopy ? `; ${copy}` : ''}`;
}
