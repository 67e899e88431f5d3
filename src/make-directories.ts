/**
 * `mkdir -p` that cannot spin. Node's own recursive `mkdir` retries for ever where the system answers
 * ENOENT for a folder whose parent exists (procfs: `mkdir /proc/anything`), pinning a core; here the
 * missing folders are made one at a time below the nearest one that exists, and the first failure is
 * thrown as it is (ENOENT, EACCES, ENOTDIR, EEXIST for a file in the way…). Used by every part that
 * makes folders, so it lives outside each of them.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Makes `path` and its missing parents (each with `mode` when given). Does nothing when it is already a folder.
 *
 * @example
 * ```ts
 * makeDirectories('/home/ann/.local/share/engram', 0o700);
 * ```
 */
export function makeDirectories(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    const stats = statSync(current, { throwIfNoEntry: false });
    if (stats !== undefined) {
      // a file in the way: mkdir says so (EEXIST); one below a file stat has refused already (ENOTDIR)
      if (!stats.isDirectory()) mkdirSync(current);
      break;
    }
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, mode === undefined ? undefined : { mode });
    } catch (error) {
      // made meanwhile by another process: fine while it is a folder
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || statSync(folder, { throwIfNoEntry: false })?.isDirectory() !== true)
        throw error;
    }
  }
}
