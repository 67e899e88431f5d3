/**
 * Loads a package on first use instead of at import time. compromise (~1.7 s) and chrono-node (~0.5 s)
 * are only needed when the write path extracts a claim; importing them at the top of core made every
 * engine start (so every CLI command and hook) pay for them. Synchronous, so callers stay synchronous;
 * the packages' CommonJS builds are the same code as their ESM builds.
 */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const { createRequire } = process.getBuiltinModule('node:module');
      loaded = createRequire(import.meta.url)(specifier) as T;
    }
    return loaded;
  };
}
