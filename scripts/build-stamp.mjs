#!/usr/bin/env node
/**
 * Build once: `npm run build` ends with `build-stamp.mjs write`, which records a hash of everything the
 * build reads (src/, ui/, the tsconfigs, package.json, the CLI bundler) in dist/.build-stamp. `npm test` starts with
 * `build-stamp.mjs ensure`, which builds only when that hash differs (a fresh `npm ci` has just built in
 * `prepare`, so the tests do not build a second time; an edited source file still triggers a build).
 * A content hash, not mtimes, because a git checkout gives every file a new mtime.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'ui', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/bundle-cli.mjs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

/** Every input file below `path`, sorted, so the hash does not depend on directory order. */
function filesUnder(path) {
  const entries = readdirSync(path, { withFileTypes: true });
  const files = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...filesUnder(full));
    } else if (entry.isFile()) {
      files.push(full);
    }
  }
  return files;
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    const full = join(root, input);
    if (!existsSync(full)) continue;
    const files = statSync(full).isDirectory() ? filesUnder(full) : [full];
    for (const file of files) {
      hash.update(relative(root, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === 'write') {
  writeFileSync(stampFile, `${sourceHash()}\n`);
} else if (mode === 'ensure') {
  const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  if (built === sourceHash() && existsSync(join(root, 'dist', 'index.js'))) {
    process.stdout.write('build: dist/ is current (sources unchanged since the last build); not rebuilding.\n');
  } else {
    process.stdout.write('build: sources changed since the last build (or no build yet); building.\n');
    const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
} else {
  process.stderr.write('usage: build-stamp.mjs write|ensure\n');
  process.exit(2);
}
