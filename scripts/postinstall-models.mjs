#!/usr/bin/env node
/**
 * Install-time model fetch: runs `engram models pull --if-missing` for the default embedding model.
 * Never fails the install: it prints one line saying what it got, or that USE-lite stays the embedder.
 * Skipped with ENGRAM_SKIP_MODEL_DOWNLOAD=1. On a fresh clone this runs before `prepare` has built
 * dist/, so it then does nothing and `prepare` calls it again after the build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'interfaces', 'cli', 'main.js');
const say = (line) => process.stdout.write(`engram: ${line}\n`);

try {
  if (process.env.ENGRAM_SKIP_MODEL_DOWNLOAD === '1') {
    say('model download skipped (ENGRAM_SKIP_MODEL_DOWNLOAD=1); USE-lite stays the embedder until "engram models pull".');
  } else if (!existsSync(cli)) {
    if (process.argv.includes('--after-build')) say('dist/ is missing after the build; run "engram models pull" later.');
  } else {
    // Two sources at 120 s each at most, plus the JVM start of mvn.
    const run = spawnSync(process.execPath, [cli, 'models', 'pull', '--if-missing', '--json'], {
      encoding: 'utf8',
      timeout: 300_000,
      env: process.env,
    });
    const answer = parse(run.stdout);
    if (run.status === 0 && answer !== undefined) {
      // One line, also for the default blend's two models.
      const parts = answer.models.map((m) =>
        m.source === 'cache' ? `${m.name} already installed` : `${m.name} installed from ${m.source}`,
      );
      say(`embedding model${parts.length > 1 ? 's' : ''} ${parts.join(', ')}.`);
    } else {
      const error = parse(run.stderr)?.error?.message ?? (run.error ? run.error.message : 'no answer');
      say(`no embedding model fetched (${String(error).slice(0, 300)}); USE-lite stays the embedder. Retry with "engram models pull".`);
    }
  }
} catch (error) {
  say(`no embedding model fetched (${error instanceof Error ? error.message : String(error)}); USE-lite stays the embedder.`);
}

function parse(text) {
  try {
    return JSON.parse(
      String(text ?? '')
        .trim()
        .split('\n')
        .pop() ?? '',
    );
  } catch {
    return undefined;
  }
}
