/**
 * The one error type of Engram. Every failure that crosses a module boundary is an `EngramError`
 * with a stable `code`; interfaces translate codes to exit codes, HTTP statuses or MCP tool errors.
 */
import { cutText } from './text/cut-text.js';

/** Stable machine-readable error codes. */
export type EngramErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'SCOPE_DENIED'
  | 'CONFLICT'
  | 'EMBEDDING_DIMENSION_MISMATCH'
  | 'EMBEDDING_MODEL_MISMATCH'
  | 'EMBEDDING_FAILED'
  | 'STORAGE_UNAVAILABLE'
  | 'STORAGE_CORRUPT'
  | 'LOCKED'
  | 'BUSY'
  | 'UNAUTHORIZED'
  | 'INTERNAL';

const BRAND = Symbol.for('engram.error');

/**
 * An error with a stable code, structured details and an optional cause.
 *
 * @example
 * ```ts
 * throw new EngramError('NOT_FOUND', 'No memory 01J… in scope acme/shared.', { details: { id: '01J…' } });
 * ```
 */
export class EngramError extends Error {
  readonly code: EngramErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly [BRAND] = true;

  constructor(code: EngramErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.details = Object.freeze({ ...(options.details ?? {}) });
  }

  /** A plain JSON form for wire protocols: never includes the stack or the cause. */
  toJSON(): { code: EngramErrorCode; message: string; details?: Record<string, unknown> } {
    return Object.keys(this.details).length > 0
      ? { code: this.code, message: this.message, details: { ...this.details } }
      : { code: this.code, message: this.message };
  }
}

/**
 * Brand check that works across duplicated installs (unlike `instanceof`).
 *
 * @example
 * ```ts
 * try { await engram.get('x', { scopes: ['t/a'] }); } catch (e) { if (isEngramError(e)) console.log(e.code); }
 * ```
 */
export function isEngramError(value: unknown): value is EngramError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** Is this code the caller's fault (bad input, missing thing, denied), as opposed to ours? */
export function isClientFault(code: EngramErrorCode): boolean {
  return (
    code === 'INVALID_INPUT' ||
    code === 'NOT_FOUND' ||
    code === 'SCOPE_DENIED' ||
    code === 'CONFLICT' ||
    code === 'UNAUTHORIZED' ||
    code === 'EMBEDDING_MODEL_MISMATCH' ||
    code === 'EMBEDDING_DIMENSION_MISMATCH'
  );
}

/** The message catalogue: every user-facing message says what was wrong and how to fix it. */
export const messages = {
  noScopes: () =>
    'A read must name the scopes it may see: pass at least one scope (CLI: --scope tenant/..., API: scopes: ["tenant/..."]). There is no "everything" default.',
  badScope: (scope: string, why: string) =>
    `Invalid scope "${truncate(scope, 80)}": ${why}. A scope is a path of segments like "acme/users/alice", each segment matching [A-Za-z0-9_-][A-Za-z0-9_.-]* (never "." or "..").`,
  notFound: (id: string) =>
    `No memory with id ${truncate(id, 40)} in the scopes this read may see. Check the id and pass the scope it was written in.`,
  modelMismatch: (stored: string, given: string) =>
    `This database was created with the embedding model "${stored}" but was opened with "${given}". Open it with the same embedder (--embedder ${embedderChoiceOf(stored)}), or move it to the other model with "engram reembed --embedder ${embedderChoiceOf(given)}".`,
  embedderSwitched: (stored: string, opened: string) =>
    `This store was moved to the embedding model "${stored}" (engram reembed) after this process opened it with "${opened}": close it and open it again to use the new model.`,
  dimensionMismatch: (stored: number, given: number) =>
    `This database stores ${stored}-dimensional embeddings but the embedder produces ${given}. Open it with the embedder it was created with.`,
  invalidInput: (summary: string) => `Invalid input: ${summary}`,
  /** `where`: the bad byte as `describeInvalidByte` gives it; `fix`: how this caller sends UTF-8. */
  notUtf8: (what: string, where: string, fix: string) =>
    `Invalid input: ${what} is not valid UTF-8: ${where} is not part of a UTF-8 character. ${fix} ${TO_UTF8}`,
  modelMissing: (model: string, directory: string) =>
    `The embedding model ${model} is not installed (no model.onnx and tokenizer.json in ${directory}). Fetch it with "engram models pull ${model}", or point ENGRAM_CACHE_DIR at the cache that has it.`,
  modelHashMismatch: (model: string, directory: string) =>
    `The files of the embedding model ${model} in ${directory} do not have the expected sha256. Fetch them again with "engram models pull ${model}".`,
  /** `wait`: the setting that lets a writer wait longer for the lock, where the store has one (SQLite's busyTimeoutMs). */
  busy: (what: string, wait?: string) =>
    `The database is busy: ${what}. This is not a problem with the request: retry in a moment (the write was not applied)${wait !== undefined ? `, or raise ${wait} if it keeps happening` : ''}.`,
  storageUnavailable: (what: string) =>
    `The store could not be opened or used: ${what}. Check the path and permissions, and that no other program holds an exclusive lock.`,
  /** A store an earlier Engram wrote, at schema `version`, that this one (at `needed`) cannot migrate where it is opened; `fix` says what to do. */
  olderSchema: (version: number, needed: number, fix: string) =>
    `The store was written by an earlier Engram (schema version ${version}; this one needs ${needed}) and is not migrated yet: ${fix}.`,
  diskFull: (what: string) =>
    `The disk that holds the store is full: ${what}. Free space on it (or move the store to a disk with room), then retry.`,
  diskFailed: (what: string) =>
    `The disk or file system under the store reported an I/O error: ${what}. Check that the disk is still attached and healthy (the system log, e.g. dmesg, names the error) and that it has free space, then retry.`,
  postgresDiskFull: (what: string) =>
    `The PostgreSQL server's disk is full: ${what}. Free space on the server's data disk (or ask its administrator to), then retry.`,
  postgresDiskFailed: (what: string) =>
    `The PostgreSQL server reported an I/O error on its disk: ${what}. Check the server's disk and its log, then retry.`,
  postgresUnavailable: (what: string) =>
    `The PostgreSQL store could not be opened or used: ${what}. Check that the server is running and that the URL's host, port, user, password and database are right.`,
} as const;

/** How text in the usual other encodings becomes UTF-8. */
export const TO_UTF8 = 'Text in Latin-1 or Windows-1252 converts with iconv -f windows-1252 -t utf-8.';

/** The --embedder value that reopens a database whose recorded model is `name` (e.g. use-lite:512 → use). */
function embedderChoiceOf(name: string): string {
  if (name.startsWith('use-lite')) return 'use';
  if (name.startsWith('static-')) return 'static';
  if (name.startsWith('hash')) return name === 'hash:256' || name === 'hash' ? 'hash' : name;
  // onnx:<model>:<dim>:<sha8> reopens with the model's own name, openai:<model>:<dim> with openai:<model>
  if (name.startsWith('onnx:')) return name.split(':')[1] ?? name;
  if (name.startsWith('openai:')) return name.split(':').slice(0, -1).join(':');
  return name.split(':')[0] ?? name;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${cutText(text, max)}…`;
}
