/**
 * Whether dist/'s SQLite store is there and current, for tests whose child processes or worker threads
 * run the compiled store: `null` when it is, else why not (the tests skip with that reason).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const REPO_ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/**
 * `null` when every one of `required` (paths under dist/storage/sqlite) exists and no source of
 * src/storage/sqlite (its subfolders included) is newer than the oldest compiled file there.
 */
export function storeDistProblem(required: readonly string[]): string | null {
  const built = join(REPO_ROOT, 'dist', 'storage', 'sqlite');
  const missing = required.filter((file) => !existsSync(join(built, file)));
  if (missing.length > 0)
    return `dist/ lacks ${missing.join(', ')}: run \`npx tsc -p tsconfig.build.json\` (npm test does) to build the store the tests run compiled`;
  const sources = join(REPO_ROOT, 'src', 'storage', 'sqlite');
  const newestSource = Math.max(
    ...readdirSync(sources, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => statSync(join(sources, f)).mtimeMs),
  );
  const oldestBuilt = Math.min(
    ...readdirSync(built, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .map((f) => statSync(join(built, f)).mtimeMs),
  );
  return oldestBuilt < newestSource ? 'dist/ is older than src/storage/sqlite: rebuild with `npx tsc -p tsconfig.build.json`' : null;
}
