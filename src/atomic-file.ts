/**
 * Files written whole or not at all: the derived index files beside a database, a model folder's
 * note of verified files. Used by the adapters alike, so it lives outside each of them.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** A temporary name beside `path`, unique to this process and call (`<path>.tmp-<pid>-<random>`). */
export function temporaryPath(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Writes `data` to `temporary`, flushes it to disk and renames it over `path`, so a reader sees the old
 * file or the whole new one; the temporary file is removed whatever happens.
 */
export function writeFileAtomically(path: string, temporary: string, data: string | Uint8Array): void {
  try {
    const fd = openSync(temporary, 'w');
    try {
      if (typeof data === 'string') writeSync(fd, data);
      else writeFully(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Writes all of `bytes` to `fd` (a `writeSync` may write less than asked), in pieces of at most 64 MiB,
 * at `position` or, without it, at the file's current offset.
 */
export function writeFully(fd: number, bytes: Uint8Array, position?: number): void {
  for (let at = 0; at < bytes.length;) {
    at += writeSync(fd, bytes, at, Math.min(bytes.length - at, 64 << 20), position === undefined ? null : position + at);
  }
}
