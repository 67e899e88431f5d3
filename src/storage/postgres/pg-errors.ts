/**
 * Translates driver errors into `EngramError`s at the adapter boundary. Messages name the action and
 * the SQLSTATE only: never SQL text, parameters or memory content (they end up in logs).
 */
import { EngramError, isEngramError, messages } from '../../core/errors.js';

/** The SQLSTATE (`23505`, …) or Node network code (`ECONNREFUSED`) of a driver error, if any. */
export function pgCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Wraps any failure of `action` (e.g. "insert memories") in an `EngramError`; `EngramError`s pass through.
 *
 * @example
 * ```ts
 * try { await db.query(sql); } catch (e) { throw toEngramError(e, 'insert memories'); }
 * ```
 */
export function toEngramError(error: unknown, action: string): EngramError {
  if (isEngramError(error)) return error;
  const code = pgCode(error);
  const details = { action, ...(code === undefined ? {} : { pgCode: code }) };
  const options = { details, cause: error };
  if (code === undefined) {
    const text = error instanceof Error ? error.message : String(error);
    if (/closed|terminat|connection/i.test(text)) {
      return new EngramError(
        'STORAGE_UNAVAILABLE',
        messages.postgresUnavailable(`the PostgreSQL connection failed during "${action}"`),
        options,
      );
    }
    return new EngramError('INTERNAL', messages.storageUnavailable(`unexpected failure during "${action}"`), options);
  }
  if (code === '23505') {
    return new EngramError(
      'CONFLICT',
      messages.invalidInput(`"${action}" would duplicate an existing id or source key in its scope`),
      options,
    );
  }
  if (code === '23503') {
    return new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`"${action}" refers to a memory that does not exist in the same scope`),
      options,
    );
  }
  if (code === '22021' || code === '22P05') {
    // PostgreSQL text cannot hold U+0000 (22021) and jsonb refuses "\u0000" (22P05); inputs are checked for it first
    return new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `"${action}" was given text with a NUL character (U+0000), which PostgreSQL cannot store; remove it (SQLSTATE ${code})`,
      ),
      options,
    );
  }
  if (code.startsWith('23') || code.startsWith('22')) {
    return new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`"${action}" has a missing or out-of-range field (SQLSTATE ${code})`),
      options,
    );
  }
  if (code === '40P01' || code === '40001' || code === '55P03') {
    // deadlock, serialization failure, lock_timeout: the transaction was rolled back and a retry may succeed
    return new EngramError('BUSY', messages.busy(`another writer held a conflicting lock during "${action}" (SQLSTATE ${code})`), options);
  }
  if (code === '28P01' || code === '28000') {
    return new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.postgresUnavailable(`PostgreSQL refused the credentials in the URL (SQLSTATE ${code})`),
      options,
    );
  }
  if (code === '3D000') {
    return new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.postgresUnavailable('the database named in the PostgreSQL URL does not exist; create it first (createdb NAME)'),
      options,
    );
  }
  if (code === '53100') {
    return new EngramError('STORAGE_UNAVAILABLE', messages.postgresDiskFull(`"${action}" failed (SQLSTATE ${code})`), options);
  }
  if (code === '58030') {
    return new EngramError('STORAGE_UNAVAILABLE', messages.postgresDiskFailed(`"${action}" failed (SQLSTATE ${code})`), options);
  }
  if (code.startsWith('E') || code.startsWith('08') || code.startsWith('57')) {
    return new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.postgresUnavailable(`PostgreSQL could not be reached or went away during "${action}" (${code})`),
      options,
    );
  }
  if (code === '42501') {
    // insufficient_privilege: the statement is sound, the role may not run it (e.g. a role that may only read)
    return new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.storageUnavailable(
        `the PostgreSQL role may not "${action}" (SQLSTATE ${code}, insufficient privilege); grant it the privilege or use a role that may write`,
      ),
      options,
    );
  }
  if (code.startsWith('42')) {
    return new EngramError(
      'INTERNAL',
      messages.storageUnavailable(`the storage layer issued an invalid statement during "${action}" (SQLSTATE ${code})`),
      options,
    );
  }
  return new EngramError('STORAGE_UNAVAILABLE', messages.storageUnavailable(`"${action}" failed (SQLSTATE ${code})`), options);
}
