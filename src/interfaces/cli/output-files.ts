/**
 * Folders and files a command writes where its user said (`export markdown DIR`, `export mcp-memory
 * FILE`, `setup … --write`): a failure becomes INVALID_INPUT naming the path and the system's reason,
 * never an internal error.
 */
import { writeFileSync } from 'node:fs';
import { EngramError } from '../../core/errors.js';
import { makeDirectories } from '../../make-directories.js';

/** Makes the folder `dir` (and its parents), or says why it cannot be. */
export function makeOutputDirectory(dir: string): void {
  try {
    makeDirectories(dir);
  } catch (error) {
    throw cannotWrite(dir, error, 'a folder that can be created');
  }
}

/** Writes `text` to `file` (created with `mode` when given), or says why it cannot be written. */
export function writeOutputFile(file: string, text: string, mode?: number): void {
  try {
    writeFileSync(file, text, mode === undefined ? undefined : { mode });
  } catch (error) {
    throw cannotWrite(file, error, 'a file in a folder that exists and can be written');
  }
}

function cannotWrite(path: string, error: unknown, want: string): EngramError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new EngramError('INVALID_INPUT', `Cannot write ${path}: ${code}. It must be ${want}.`, { cause: error });
}
