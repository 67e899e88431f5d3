/**
 * The one database every command, `npm start` (`engram serve`), the hooks and `engram setup` open when
 * none is named: `--db`, else `$ENGRAM_DB`, else `${XDG_DATA_HOME:-~/.local/share}/engram/engram.db`.
 * So the store a user opens from any folder is the one the hooks fill. Loads no driver.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { EngramError } from '../../core/errors.js';
import { makeDirectories } from '../../make-directories.js';

/** The default database file: `$XDG_DATA_HOME/engram/engram.db` (an absolute XDG_DATA_HOME only, per the XDG spec), else `~/.local/share/engram/engram.db`. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME?.trim();
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'share');
  return join(base, 'engram', 'engram.db');
}

/**
 * The database path: `flag` (--db), else `$ENGRAM_DB`, else {@link defaultDbPath}; empty values count as
 * unset. A leading `~/` is the home folder, as a shell would read it (ENGRAM_DB in a JSON `env` is not
 * expanded by one), so a writing command never makes a folder named `~`.
 */
export function resolveDbPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return expandHome(flag);
  const fromEnv = env.ENGRAM_DB?.trim();
  if (fromEnv !== undefined && fromEnv !== '') return expandHome(fromEnv);
  return defaultDbPath(env);
}

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  // "~user/…" is another user's home, which a shell would look up: say so rather than make a folder "~user"
  if (/^~[^/]+/.test(path) && !path.includes('://'))
    throw new EngramError(
      'INVALID_INPUT',
      `--db ${path}: "~user" paths are not expanded; write the full path (e.g. /home/user/…) or ~/… for your own home`,
    );
  return path;
}

/** Creates the folder of the default database (the first command that writes makes `~/.local/share/engram`). */
export function ensureDefaultDbFolder(path: string, env: NodeJS.ProcessEnv = process.env): void {
  if (path === defaultDbPath(env)) makeDirectories(dirname(path), 0o700);
}

/**
 * Creates the missing folders of a new SQLite file, wherever it is (`--db ~/.engram/me.db` as the
 * default location): private (0700), since they hold someone's memory. Only commands that write call it.
 */
export function ensureDbFolder(path: string): void {
  try {
    makeDirectories(dirname(path), 0o700);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR' && code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw error;
    throw new EngramError(
      'STORAGE_UNAVAILABLE',
      `--db ${path}: its folder ${dirname(path)} cannot be created (${code}${code === 'EEXIST' || code === 'ENOTDIR' ? ': a part of the path is a file' : ''}); pick another path`,
    );
  }
}

/** The help text of `--db`. */
export const DB_FLAG_HELP =
  'database file or postgres:// URL (default: $ENGRAM_DB, else ${XDG_DATA_HOME:-~/.local/share}/engram/engram.db)';
