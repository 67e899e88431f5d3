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
      // The one exception to "core reads no process.*": loading a dependency later, not I/O or configuration.
      /* eslint-disable no-restricted-globals -- module loading only (Node >= 20.16), see the comment above */
      const builtin = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:module') : undefined;
      if (builtin === undefined)
        throw new Error(`Loading ${specifier} needs Node.js >= 20.16 (process.getBuiltinModule); this is ${process.version}.`);
      /* eslint-enable no-restricted-globals */
      loaded = builtin.createRequire(import.meta.url)(specifier) as T;
    }
    return loaded;
  };
}
