/**
 * Translates driver errors into `EngramError`s at the adapter boundary. Messages name the action and
 * the SQLite result code only: never SQL text, parameters or memory content (they end up in logs).
 */
import { EngramError, isEngramError, messages } from '../../core/errors.js';

/** How a BUSY message names the setting that lets a writer wait longer, as `Engram.open` and `openSqliteStore` spell it. */
export const BUSY_WAIT_SETTING =
  'busyTimeoutMs (Engram.open({ path, busyTimeoutMs }) or openSqliteStore({ busyTimeoutMs }), default 10000)';

/** The SQLite result code of a driver error (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`, …), if any. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** Is this the "another connection holds the lock" failure that a retry may cure? */
export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * Wraps any failure of `action` (e.g. "insert memories") in an `EngramError`; `EngramError`s pass through.
 *
 * @example
 * ```ts
 * try { statement.run(); } catch (e) { throw toEngramError(e, 'insert memories'); }
 * ```
 */
export function toEngramError(error: unknown, action: string): EngramError {
  if (isEngramError(error)) return error;
  const code = sqliteCode(error);
  const details = { action, ...(code === undefined ? {} : { sqliteCode: code }) };
  const options = { details, cause: error };
  if (code === undefined) {
    return new EngramError('INTERNAL', messages.storageUnavailable(`unexpected failure during "${action}"`), options);
  }
  if (isBusy(error)) {
    return new EngramError(
      'BUSY',
      messages.busy(`another connection held the lock during "${action}" (${code})`, BUSY_WAIT_SETTING),
      options,
    );
  }
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new EngramError(
      'CONFLICT',
      messages.invalidInput(`"${action}" would duplicate an existing id or source key in its scope`),
      options,
    );
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`"${action}" refers to a memory that does not exist in the same scope`),
      options,
    );
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) {
    return new EngramError('INVALID_INPUT', messages.invalidInput(`"${action}" has a missing or out-of-range field (${code})`), options);
  }
  if (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'SQLITE_NOTADB') {
    return new EngramError(
      'STORAGE_CORRUPT',
      messages.storageUnavailable(`the file is damaged or not an Engram database (${code})`),
      options,
    );
  }
  if (code === 'SQLITE_FULL') {
    return new EngramError('STORAGE_UNAVAILABLE', messages.diskFull(`"${action}" failed (${code})`), options);
  }
  if (code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) {
    return new EngramError('STORAGE_UNAVAILABLE', messages.diskFailed(`"${action}" failed (${code})`), options);
  }
  if (code === 'SQLITE_ERROR' || code === 'SQLITE_RANGE' || code === 'SQLITE_MISMATCH' || code === 'SQLITE_MISUSE') {
    return new EngramError(
      'INTERNAL',
      messages.storageUnavailable(`the storage layer issued an invalid statement during "${action}" (${code})`),
      options,
    );
  }
  return new EngramError('STORAGE_UNAVAILABLE', messages.storageUnavailable(`"${action}" failed (${code})`), options);
}
