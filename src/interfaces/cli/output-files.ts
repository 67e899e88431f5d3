/**
 * Folders and files a command writes where its user said (`export markdown DIR`, `export mcp-memory
 * FILE`): a failure becomes INVALID_INPUT naming the path and the system's reason, never an internal
 * error.
 */
import { writeFileSync } from 'node:fs';
import { EngramError } from '../../core/errors.js';
import { makeDirectories } from '../../make-directories.js';

/** Makes the folder `dir` (and its parents), or says why it cannot be. */
export function makeOutputDirectory(dir: string): void {
  try {
    makeDirectories(dir);
  } catch (error) {
    throw cannotWrite(dir, error, 'a folder you can create');
  }
}

/** Writes `text` to `file`, or says why it cannot be written. */
export function writeOutputFile(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw cannotWrite(file, error, 'a file in a folder that exists and that you can write');
  }
}

function cannotWrite(path: string, error: unknown, want: string): EngramError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new EngramError('INVALID_INPUT', `Cannot write ${path}: ${code}. Pass ${want}.`, { cause: error });
}
