/**
 * Starts the background `engram serve` of a database for the hooks when none is running: detached,
 * on 127.0.0.1 with a free port, found by the others through its discovery file, and gone by itself
 * after an idle period. Two hooks that race to start it agree through an exclusive lock file
 * (`<db>.serve.lock`, created with O_EXCL): one starts the server, both wait for its discovery file.
 * The server is shared by every project's hooks on the database, so it does not take the session
 * settings of the hook that happened to start it (see `serverEnvironment`).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_IDLE_MINUTES, readDiscovery, type ServerInfo } from './discovery.js';
/** A start lock older than this belongs to a start that died: it is taken over. */
const STALE_LOCK_MS = 30_000;
const POLL_MS = 25;

export interface StartServerOptions {
  /** The SQLite database file the server opens. */
  db: string;
  /** The command that runs `engram` (node and the bin), e.g. `[process.execPath, '/…/main.js']`. */
  command: readonly string[];
  /** Extra `engram serve` flags (e.g. `--embedder hash`). */
  args?: readonly string[];
  idleMinutes?: number;
  /** How long to wait for the server's discovery file. */
  waitMs: number;
}

export interface StartedServer {
  info: ServerInfo | null;
  /** Whether this call started the process (else another hook had, or a server was already there). */
  started: boolean;
}

/** The path of a database's start lock. */
export function startLockPath(db: string): string {
  return `${resolve(db)}.serve.lock`;
}

/**
 * The running server of `db`, starting one if there is none; `info` is null when none answered
 * within `waitMs` (the caller then opens the store itself).
 */
export async function ensureServer(options: StartServerOptions): Promise<StartedServer> {
  const found = readDiscovery(options.db);
  if (found !== null) return { info: found, started: false };
  const lock = takeLock(options.db);
  let exited = false;
  if (lock) {
    try {
      const child = spawnServer(options);
      child.once('exit', () => (exited = true));
      child.once('error', () => (exited = true));
    } catch {
      releaseLock(options.db);
      return { info: null, started: false };
    }
  }
  const deadline = Date.now() + options.waitMs;
  try {
    for (;;) {
      const info = readDiscovery(options.db);
      if (info !== null) return { info, started: lock };
      if (exited || Date.now() >= deadline) return { info: null, started: lock };
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  } finally {
    if (lock) releaseLock(options.db);
  }
}

/** Creates the lock file exclusively; takes over a stale one once. */
function takeLock(db: string): boolean {
  const path = startLockPath(db);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      let age = 0;
      try {
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue; // released meanwhile: try again
      }
      if (age < STALE_LOCK_MS) return false;
      rmSync(path, { force: true });
    }
  }
  return false;
}

function releaseLock(db: string): void {
  rmSync(startLockPath(db), { force: true });
}

/**
 * Variables of a hook's environment that are settings of its own project or session, not of the
 * server every project's hooks share: the scopes it may use (the server would refuse every other
 * project's hooks) and turning redaction off (it would store every other project's secrets).
 * `ENGRAM_REDACT_PATTERNS` is kept: more patterns only redact more.
 */
const SESSION_SETTINGS = ['ENGRAM_SCOPES', 'ENGRAM_REDACT'] as const;

/** The environment of the shared server a hook starts: the hook's, without its session settings. */
function serverEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const shared = { ...env };
  for (const name of SESSION_SETTINGS) delete shared[name];
  return shared;
}

function spawnServer(options: StartServerOptions) {
  const [node, ...prefix] = options.command;
  const log = openSync(`${resolve(options.db)}.serve.log`, 'a', 0o600);
  try {
    const child = spawn(
      node as string,
      [
        ...prefix,
        'serve',
        '--db',
        resolve(options.db),
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--idle-exit',
        String(options.idleMinutes ?? DEFAULT_IDLE_MINUTES),
        ...(options.args ?? []),
      ],
      { detached: true, stdio: ['ignore', log, log], env: serverEnvironment(process.env) },
    );
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}
