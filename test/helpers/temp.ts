/** Temp directories and engines for tests: real SQLite files, cleaned up after. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engram, type OpenOptions } from '../../src/index.js';

/** A fresh temp directory; remove with `cleanup()`. */
export function tempDir(prefix = 'engram-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An Engram on a temp SQLite file with the hash embedder unless told otherwise. */
export async function tempEngram(
  options: Partial<OpenOptions> = {},
): Promise<{ engram: Engram; path: string; dir: string; cleanup: () => Promise<void> }> {
  const { dir, cleanup } = tempDir();
  const path = join(dir, 'engram.db');
  const engram = await Engram.open({ path, embedder: 'hash', ...options });
  return {
    engram,
    path,
    dir,
    cleanup: async () => {
      await engram.close();
      cleanup();
    },
  };
}
