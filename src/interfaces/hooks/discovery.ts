/**
 * How hooks find a running `engram serve`: `engram serve` writes `<db>.serve.json` ({url, pid, db, hookToken})
 * next to its database while it runs and removes it on exit; a hook reads it and checks that the pid
 * is still the server's: alive, and (where /proc tells) started when the file says (`processStart`),
 * so a pid another process took after the server died is not taken for it. A second server of the
 * same database leaves a live first one's file alone and serves unadvertised.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Minutes without a request before a server the hooks started exits. */
export const DEFAULT_IDLE_MINUTES = 30;

export interface ServerInfo {
  url: string;
  pid: number;
  db: string;
  startedAt: string;
  /**
   * When the server's process started, as /proc/<pid>/stat gives it (clock ticks since boot; absent where
   * there is no /proc): a live pid whose process started at another time is not the server's.
   */
  processStart?: string;
  /**
   * A secret of this server run that lets the hooks of the same user call `/hooks/*` without an API
   * key: whoever can read this file (mode 0600) can open the database itself anyway.
   */
  hookToken?: string;
}

/** The discovery file of a database path. */
export function discoveryPath(dbPath: string): string {
  return `${resolve(dbPath)}.serve.json`;
}

/** What `writeDiscovery` did: advertised `info`, or left the file to the running server it names. */
export type DiscoveryClaim = { path: string; advertised: true } | { path: string; advertised: false; holder: ServerInfo };

/**
 * Records that a server for `info.db` listens at `info.url`, unless the file names another server
 * whose process is alive and is still that server (`isServerProcess`): that one stays advertised (the caller keeps serving, unadvertised), so
 * that its file is neither overwritten nor, when the caller exits, removed under it. A file naming
 * a process that is gone, a pid another process has taken since (or a damaged file) is replaced. The file appears whole (a hard link, else a
 * rename of a complete temp file), never half-written; two servers replacing a stale file at the
 * same instant can both believe they won, and the last one's name stays. Throws the file system's
 * error when the file cannot be written (a full disk, no permission), leaving no temp file behind.
 */
export function writeDiscovery(info: ServerInfo): DiscoveryClaim {
  const path = discoveryPath(info.db);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // inside the try: a write that fails (a full disk) has already created the file
    writeFileSync(temp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
    try {
      linkSync(temp, path); // fails when the file exists: created only if absent
      return { path, advertised: true };
    } catch {
      // there is a file (or no hard links here): whose is it?
    }
    const holder = readDiscovery(info.db, { checkAlive: false });
    if (holder !== null && holder.pid !== info.pid && isServerProcess(holder)) return { path, advertised: false, holder };
    renameSync(temp, path);
    return { path, advertised: true };
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Removes the discovery file if it still names the server of `pid` (and `url`, when given). */
export function removeDiscovery(dbPath: string, pid: number, url?: string): void {
  const found = readDiscovery(dbPath, { checkAlive: false });
  if (found !== null && found.pid === pid && (url === undefined || found.url === url)) rmSync(discoveryPath(dbPath), { force: true });
}

/**
 * The running server of `dbPath`, or null (no file, unreadable, its process is gone, or its pid is now
 * another process's: `isServerProcess`). Without /proc a live pid may still belong to another process
 * after the server died: a hook whose connection is then refused removes the file (`removeDiscovery`
 * with the url) and starts a server.
 */
export function readDiscovery(dbPath: string, options: { checkAlive?: boolean } = {}): ServerInfo | null {
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(discoveryPath(dbPath), 'utf8')) as ServerInfo;
  } catch {
    return null;
  }
  if (typeof info.url !== 'string' || typeof info.pid !== 'number') return null;
  if (options.checkAlive !== false && !isServerProcess(info)) return null;
  return info;
}

/**
 * When the process `pid` started (field 22 of /proc/<pid>/stat, clock ticks since boot), or undefined
 * where there is no /proc or no such process.
 */
export function processStartOf(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

/**
 * Whether the process a discovery file names is still the server that wrote it: alive, and, when the
 * file records its start (`processStart`) and /proc can tell, started then. A file without the start
 * (an older Engram) or a system without /proc falls back to the pid being alive.
 */
function isServerProcess(info: ServerInfo): boolean {
  if (!isAlive(info.pid)) return false;
  if (typeof info.processStart !== 'string') return true;
  const start = processStartOf(info.pid);
  return start === undefined || start === info.processStart;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
