/**
 * Vitest setup file: every test process (and every CLI, hook or server it spawns) gets its own
 * XDG_DATA_HOME, so a command run without --db opens a database under a temporary folder, never the
 * default one in the real home (`~/.local/share/engram/engram.db`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_DATA_HOME = mkdtempSync(join(tmpdir(), 'engram-data-home-'));
