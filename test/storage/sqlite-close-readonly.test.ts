/**
 * Closing a store SQLite may only read (a file owned by another user, or read-only for its owner): the
 * access counts a read queued cannot be saved, and that must not fail the read that already answered —
 * not in the library, not in `engram recall` / `context`, not in the prompt hook Claude Code runs.
 */
import { openSync, closeSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { openSqliteStore } from '../../src/storage/sqlite/index.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { hookStdin } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/**
 * A store SQLite opens read-only whoever runs the test (root ignores file modes): its header asks for a
 * newer writer (write version 3), so every write fails with SQLITE_READONLY as on a read-only file.
 */
async function readOnlyStore(): Promise<string> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, 'engram.db');
  const engram = await Engram.open({ path, embedder: 'hash' });
  await engram.remember({ scope: SCOPE, content: 'We deploy the shop to production on Fridays.' });
  await engram.close();
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.from([3]), 0, 1, 18);
  } finally {
    closeSync(fd);
  }
  return path;
}

describe('SQLite close on a store it may only read', () => {
  it('answers the read, then lets the access counts go with one warning instead of failing the close', async () => {
    const path = await readOnlyStore();
    const warnings: string[] = [];
    const embedder = new HashEmbedder();
    const store = await openSqliteStore({
      path,
      embedding: { name: embedder.name, dimension: embedder.dimension },
      logger: { info: () => undefined, warn: (message) => warnings.push(message) },
    });
    const engram = new Engram({ store, embedder });
    const hits = (await engram.recall('deploy the shop', { scopes: [SCOPE] })).hits;
    expect(hits.length).toBeGreaterThan(0);
    await expect(engram.close()).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/access counts .* not saved .*SQLITE_READONLY/);
  });

  it.skipIf(!binBuilt)(
    `recall, context and the prompt hook print their answer and exit 0${binBuilt ? '' : ' (skipped: run npm run build first)'}`,
    async () => {
      const db = await readOnlyStore();
      const recall = runCli(['recall', '--db', db, '--scope', SCOPE, 'deploy the shop', '-k', '1']);
      expect(recall.status, recall.stderr).toBe(0);
      expect(recall.stdout).toContain('production');
      expect(recall.stderr.trim().split('\n')).toHaveLength(1);
      expect(recall.stderr).toMatch(/access counts .* not saved/);

      const context = runCli(['context', '--db', db, '--scope', SCOPE, 'deploy the shop']);
      expect(context.status, context.stderr).toBe(0);
      expect(context.stdout).toContain('production');

      const hook = runCli(['hooks', 'user-prompt-submit', '--scope', SCOPE, '--db', db, '--no-start-server'], {
        input: hookStdin('user-prompt-submit', '/nonexistent.jsonl'),
        env: { ENGRAM_URL: '' },
      });
      expect(hook.status, hook.stderr).toBe(0);
      expect(hook.stdout).toContain('<engram-memory>');
      expect(hook.stdout).toContain('production');
    },
    60_000,
  );
});
