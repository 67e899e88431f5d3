/**
 * How hooks find a running `engram serve`: `engram serve` writes `<db>.serve.json` ({url, pid, db, hookToken})
 * next to its database while it runs and removes it on exit; a hook reads it and checks the pid.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Minutes without a request before a server the hooks started exits. */
export const DEFAULT_IDLE_MINUTES = 30;

export interface ServerInfo {
  url: string;
  pid: number;
  db: string;
  startedAt: string;
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

/** Records that a server for `info.db` listens at `info.url`. */
export function writeDiscovery(info: ServerInfo): string {
  const path = discoveryPath(info.db);
  writeFileSync(path, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  return path;
}

/** Removes the discovery file if it still names the server of `pid` (and `url`, when given). */
export function removeDiscovery(dbPath: string, pid: number, url?: string): void {
  const found = readDiscovery(dbPath, { checkAlive: false });
  if (found !== null && found.pid === pid && (url === undefined || found.url === url)) rmSync(discoveryPath(dbPath), { force: true });
}

/**
 * The running server of `dbPath`, or null (no file, unreadable, or its process is gone). A live pid
 * may belong to another process after the server died without removing the file: a hook whose
 * connection is then refused removes the file (`removeDiscovery` with the url) and starts a server.
 */
export function readDiscovery(dbPath: string, options: { checkAlive?: boolean } = {}): ServerInfo | null {
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(discoveryPath(dbPath), 'utf8')) as ServerInfo;
  } catch {
    return null;
  }
  if (typeof info.url !== 'string' || typeof info.pid !== 'number') return null;
  if (options.checkAlive !== false && !isAlive(info.pid)) return null;
  return info;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
