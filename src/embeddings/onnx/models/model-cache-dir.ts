import { isAbsolute, join } from 'node:path';

/** The variables {@link resolveModelCacheDir} reads; pass `process.env`. */
export interface ModelCacheEnv {
  readonly ENGRAM_CACHE_DIR?: string | undefined;
  readonly XDG_CACHE_HOME?: string | undefined;
}

/**
 * Engram's cache folder: `$ENGRAM_CACHE_DIR`, else `$XDG_CACHE_HOME/engram`, else `~/.cache/engram`.
 * Empty values count as unset, and a relative `XDG_CACHE_HOME` is ignored as the XDG spec says.
 * Models live under `<cache>/models/<name>/`.
 *
 * @example
 * ```ts
 * resolveModelCacheDir({ XDG_CACHE_HOME: '/var/cache' }, '/home/ann'); // '/var/cache/engram'
 * ```
 */
export function resolveModelCacheDir(env: ModelCacheEnv, home: string): string {
  const explicit = env.ENGRAM_CACHE_DIR;
  if (explicit !== undefined && explicit !== '') return explicit;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'engram');
  return join(home, '.cache', 'engram');
}

/**
 * The folder of one model inside a cache folder.
 *
 * @example
 * ```ts
 * modelDirectory('/home/ann/.cache/engram', 'bge-small-en-v1.5'); // '/home/ann/.cache/engram/models/bge-small-en-v1.5'
 * ```
 */
export function modelDirectory(cacheDir: string, name: string): string {
  return join(cacheDir, 'models', name);
}
