/**
 * Vitest setup file: every test file (and every CLI, hook or server it spawns) gets its own
 * XDG_DATA_HOME, so a command run without --db opens a database under a temporary folder, never the
 * default one in the real home (`~/.local/share/engram/engram.db`); hooks do not start background servers.
 * The folder is removed when the file's tests are done, so runs leave nothing behind in the temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dataHome = mkdtempSync(join(tmpdir(), 'engram-data-home-'));
process.env.XDG_DATA_HOME = dataHome;

afterAll(() => {
  rmSync(dataHome, { recursive: true, force: true, maxRetries: 3 });
});

// Hooks spawned by tests open their store directly unless a test starts the background server on
// purpose (it would otherwise outlive the test by its idle period).
process.env.ENGRAM_HOOKS_START_SERVER ??= '0';
