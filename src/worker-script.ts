/**
 * Where a worker thread's compiled script is: shared by the embedders' worker pools and the store's
 * index threads, which run from `dist/` or, in tests, from TypeScript sources beside it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Finds a compiled worker script: `fileName` beside the module at `moduleUrl` (the `dist/` layout), or,
 * when running from TypeScript sources (tests), the same file under the package's `dist/`. Throws when
 * neither exists.
 *
 * @example
 * ```ts
 * const url = resolveWorkerScript(import.meta.url, ['embeddings', 'use'], 'use-worker.js');
 * ```
 */
export function resolveWorkerScript(moduleUrl: string, folder: readonly string[], fileName: string): URL {
  const beside = new URL(`./${fileName}`, moduleUrl);
  if (existsSync(fileURLToPath(beside))) return beside;
  const here = dirname(fileURLToPath(moduleUrl));
  const sourceFolder = join('src', ...folder);
  if (here.endsWith(sourceFolder)) {
    const twin = join(here.slice(0, here.length - sourceFolder.length), 'dist', ...folder, fileName);
    if (existsSync(twin)) return pathToFileURL(twin);
  }
  throw new Error(`${fileName} was found neither in ${here} nor in the package's dist/ folder`);
}
