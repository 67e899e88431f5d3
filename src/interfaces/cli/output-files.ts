/**
 * Folders and files a command writes where its user said (`export markdown DIR`, `export mcp-memory
 * FILE`, `setup … --write`): a failure becomes INVALID_INPUT naming the path and the system's reason,
 * never an internal error.
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { EngramError } from '../../core/errors.js';
import { makeDirectories } from '../../make-directories.js';

/** Permission bits of a file that holds a secret: read and write for its owner, nothing for anyone else. */
const OWNER_ONLY = 0o600;

/** Makes the folder `dir` (and its parents), or says why it cannot be. */
export function makeOutputDirectory(dir: string): void {
  try {
    makeDirectories(dir);
  } catch (error) {
    throw cannotWrite(dir, error, 'a folder that can be created');
  }
}

/**
 * Writes `text` to `file`, or says why it cannot be written. A new file gets `mode` when given; with
 * `ownerOnly` (the text holds a secret) the file is readable and writable by its owner only (0600)
 * whether it is created or already exists, and an existing file is restricted before the text lands.
 */
export function writeOutputFile(file: string, text: string, options: { mode?: number; ownerOnly?: boolean } = {}): void {
  try {
    if (options.ownerOnly === true && existsSync(file)) chmodSync(file, OWNER_ONLY);
    const mode = options.ownerOnly === true ? OWNER_ONLY : options.mode;
    writeFileSync(file, text, mode === undefined ? undefined : { mode });
  } catch (error) {
    throw cannotWrite(file, error, 'a file in a folder that exists and can be written');
  }
}

/** Takes every permission of an existing file away from its group and others, or says why it cannot. */
export function makeOwnerOnly(file: string): void {
  try {
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
  } catch (error) {
    throw cannotWrite(file, error, 'a file you own');
  }
}

function cannotWrite(path: string, error: unknown, want: string): EngramError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new EngramError('INVALID_INPUT', `Cannot write ${path}: ${code}. It must be ${want}.`, { cause: error });
}
