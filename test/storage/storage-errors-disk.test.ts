/**
 * A full or failing disk is reported as what it is, with what to do — not as "check the path and
 * permissions": SQLite's SQLITE_FULL and SQLITE_IOERR*, PostgreSQL's disk_full (53100) and io_error
 * (58030). SQLite fills a real file system (a small tmpfs, which only root may mount); the PostgreSQL
 * server's disk cannot be filled from a test, so its codes go through the adapter's translation.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { Engram } from '../../src/index.js';
import { toEngramError as fromPg } from '../../src/storage/postgres/pg-errors.js';
import { toEngramError as fromSqlite } from '../../src/storage/sqlite/sqlite-errors.js';
import { fillDisk, tmpfsUnavailable } from '../helpers/tmpfs.js';

const PERMISSIONS_HINT = /permissions/;

describe.skipIf(tmpfsUnavailable !== '')(`SQLite on a full disk${tmpfsUnavailable === '' ? '' : ` (skipped: ${tmpfsUnavailable})`}`, () => {
  it('a write that finds the disk full says the disk is full and to free space', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir]);
    let engram: Engram | undefined;
    try {
      engram = await Engram.open({ path: join(dir, 'engram.db'), embedder: 'hash' });
      await engram.remember({ scope: 't/full', content: 'The first note fits.' });
      // leave the store no room
      fillDisk(join(dir, 'filler'));
      let failure: unknown;
      for (let i = 0; i < 200 && failure === undefined; i++) {
        await engram
          .remember({ scope: 't/full', content: `Note ${i}: ${'padding text '.repeat(200)}` })
          .catch((error: unknown) => (failure = error));
      }
      expect(isEngramError(failure)).toBe(true);
      const error = failure as { code: string; message: string };
      expect(error.code).toBe('STORAGE_UNAVAILABLE');
      expect(error.message).toMatch(/disk .*is full.*Free space/);
      expect(error.message).not.toMatch(PERMISSIONS_HINT);
    } finally {
      await engram?.close();
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('disk failures named by the adapters', () => {
  it('SQLite I/O errors (any extended code) point at the disk or file system', () => {
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC']) {
      const error = fromSqlite(Object.assign(new Error('driver text'), { code }), 'insert memories');
      expect(error.code).toBe('STORAGE_UNAVAILABLE');
      expect(error.message).toMatch(/I\/O error/);
      expect(error.message).toContain(code);
      expect(error.message).not.toMatch(PERMISSIONS_HINT);
    }
  });

  it("PostgreSQL's disk_full and io_error name the server's disk", () => {
    const full = fromPg(Object.assign(new Error('could not extend file'), { code: '53100' }), 'insert memories');
    expect(full.code).toBe('STORAGE_UNAVAILABLE');
    expect(full.message).toMatch(/disk is full.*Free space/);
    expect(full.message).not.toMatch(PERMISSIONS_HINT);
    const failed = fromPg(Object.assign(new Error('could not read block'), { code: '58030' }), 'recall');
    expect(failed.message).toMatch(/I\/O error/);
    expect(failed.message).not.toMatch(PERMISSIONS_HINT);
  });
});
