/**
 * Lease owners that name their process (`<kind>:<host>:<pid>:<random>`), so a lease left behind by a
 * process killed on this machine can be taken over at once instead of waiting for it to expire.
 * Process state is read here, outside core.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A new owner id for a lease of `kind` held by this process. */
export function newLeaseOwner(kind: string): string {
  return `${kind}:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Whether `owner` (from `newLeaseOwner`) is a process of this machine that no longer runs; false when unsure. */
export function leaseHolderIsGone(owner: string): boolean {
  const parts = owner.split(':');
  if (parts.length < 4) return false;
  const pid = Number(parts[parts.length - 2]);
  const host = parts.slice(1, -2).join(':');
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
