/**
 * `engram serve` on a full disk: the discovery file (`<db>.serve.json`) cannot be written. The server
 * serves all the same and says that hooks cannot find it and why; it never reports an internal error
 * while carrying on, and leaves no temp file beside the database. A real full file system: a small
 * tmpfs, which only root may mount.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { writeDiscovery } from '../../src/interfaces/hooks/discovery.js';
import { binBuilt } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { fillDisk, tmpfsUnavailable } from '../helpers/tmpfs.js';

const skipReason = tmpfsUnavailable !== '' ? ` (skipped: ${tmpfsUnavailable})` : !binBuilt ? ' (skipped: run npm run build first)' : '';

describe.skipIf(skipReason !== '')(`engram serve on a full disk${skipReason}`, () => {
  it('serves unadvertised, says the disk is full, and leaves no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
    let engram: Engram | undefined;
    let stop: (() => Promise<void>) | undefined;
    try {
      const db = join(dir, 'engram.db');
      // open while the disk fills, so the database's WAL and shared-memory files already exist
      engram = await Engram.open({ path: db, embedder: 'hash' });
      await engram.remember({ scope: 'local/default', content: 'The shop deploys on Fridays.' });
      fillDisk(join(dir, 'filler'));
      const strays = () => readdirSync(dir).filter((name) => name.endsWith('.tmp') || name.endsWith('.serve.json'));

      expect(() => writeDiscovery({ url: 'http://127.0.0.1:1', pid: process.pid, db, startedAt: new Date().toISOString() })).toThrow(
        /ENOSPC/,
      );
      expect(strays()).toEqual([]);

      const server = await startServe(['--db', db, '--embedder', 'hash'], { timeoutMs: 30_000, warm: false });
      stop = server.stop;
      expect(server.output()).toMatch(/hooks: not advertised: cannot write \S+\.serve\.json \(ENOSPC: the disk is full\)/);
      expect(server.output()).not.toMatch(/Internal error/);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(strays()).toEqual([]);
      await server.stop();
      expect(server.child.exitCode).toBe(0);
      stop = undefined;
    } finally {
      await stop?.();
      await engram?.close();
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
