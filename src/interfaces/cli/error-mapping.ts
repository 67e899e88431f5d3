/**
 * Maps errors to CLI exit codes and output, the one table for this interface.
 */
import { isEngramError, type EngramErrorCode } from '../../core/errors.js';

/**
 * Exit code per error code: 2 = the caller's input, 3 = not found, 4 = denied, 5 = store unavailable or
 * busy (retry), 6 = conflict, 7 = a lease is held (another consolidation cycle), 1 = ours.
 */
export const EXIT_CODES: Record<EngramErrorCode, number> = {
  INVALID_INPUT: 2,
  NOT_FOUND: 3,
  SCOPE_DENIED: 4,
  UNAUTHORIZED: 4,
  CONFLICT: 6,
  EMBEDDING_MODEL_MISMATCH: 2,
  EMBEDDING_DIMENSION_MISMATCH: 2,
  EMBEDDING_FAILED: 1,
  STORAGE_UNAVAILABLE: 5,
  STORAGE_CORRUPT: 5,
  BUSY: 5,
  LOCKED: 7,
  INTERNAL: 1,
};

export interface CliFailure {
  exitCode: number;
  code: string;
  message: string;
  /** Print the stack too (only for our own bugs, never for user errors). */
  internal: boolean;
}

/** Classifies any thrown value. */
export function toCliFailure(error: unknown): CliFailure {
  if (isEngramError(error)) {
    return { exitCode: EXIT_CODES[error.code], code: error.code, message: error.message, internal: error.code === 'INTERNAL' };
  }
  const commanderCode = (error as { code?: unknown } | null)?.code;
  if (typeof commanderCode === 'string' && commanderCode.startsWith('commander.')) {
    return { exitCode: 2, code: 'INVALID_INPUT', message: String((error as Error).message).replace(/^error: /, ''), internal: false };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: 1, code: 'INTERNAL', message: `Internal error: ${message}`, internal: true };
}
