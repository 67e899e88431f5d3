/**
 * Small tmpfs mounts for tests that need a full disk. Mounting needs root on Linux and a machine that
 * allows it (a container may not): `tmpfsUnavailable` says why not, or is '' when a probe mount worked.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function probe(): string {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'mounting a small tmpfs needs root on Linux';
  const dir = mkdtempSync(join(tmpdir(), 'engram-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return `this machine does not let a tmpfs be mounted (${(error as Error).message.split('\n')[0]})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Why a tmpfs cannot be mounted here, or '' when it can. */
export const tmpfsUnavailable = probe();

/** Writes `path` until its file system is full (ENOSPC), in ever smaller pieces, so no byte is left. */
export function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [65_536, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}
