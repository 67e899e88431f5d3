/**
 * Vitest setup file: every test process (and every CLI, hook or server it spawns) gets its own
 * XDG_DATA_HOME, so a command run without --db opens a database under a temporary folder, never the
 * default one in the real home (`~/.local/share/engram/engram.db`); hooks do not start background servers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_DATA_HOME = mkdtempSync(join(tmpdir(), 'engram-data-home-'));

// Hooks spawned by tests open their store directly unless a test starts the background server on
// purpose (it would otherwise outlive the test by its idle period).
process.env.ENGRAM_HOOKS_START_SERVER ??= '0';
