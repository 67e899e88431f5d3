/**
 * Which commands may create a database: only those that write. A read of a path that is not there is
 * NOT_FOUND, so a typo in --db is not answered from a fresh, empty store. Loads no driver and no commander.
 */
import { existsSync } from 'node:fs';
import { EngramError, isEngramError } from '../../core/errors.js';

/** Is `path` a SQLite file (not a PostgreSQL URL or an in-memory database) that does not exist yet? */
export function isMissingSqliteFile(path: string): boolean {
  return !/^postgres(ql)?:\/\//i.test(path) && path !== ':memory:' && !path.startsWith('file:') && !existsSync(path);
}

/** The NOT_FOUND error of a command that reads a database that is not there. */
export function missingDatabaseError(path: string): EngramError {
  return new EngramError('NOT_FOUND', `No database at ${path}: check --db or $ENGRAM_DB; engram remember creates one.`, {
    details: { missingDatabase: path },
  });
}

/** Does `error` say the database file is missing (so a read-only hook can stay silent)? */
export function isMissingDatabase(error: unknown): boolean {
  return isEngramError(error) && typeof error.details.missingDatabase === 'string';
}
