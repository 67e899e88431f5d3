/**
 * The default database: `--db`, else `$ENGRAM_DB`, else `${XDG_DATA_HOME:-~/.local/share}/engram/engram.db`
 * (an empty value counts as unset; a relative XDG_DATA_HOME is ignored, as the XDG spec says), and the
 * first write creates its folder.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDbPath, ensureDefaultDbFolder, resolveDbPath } from '../../src/interfaces/cli/default-db.js';
import { tempDir } from '../helpers/temp.js';

const { dir, cleanup } = tempDir();
afterAll(() => cleanup());

describe('resolveDbPath', () => {
  it('takes --db, else $ENGRAM_DB, else the XDG data folder', () => {
    const env = { XDG_DATA_HOME: '/data/me' };
    expect(resolveDbPath('x.db', { ...env, ENGRAM_DB: 'y.db' })).toBe('x.db');
    expect(resolveDbPath(undefined, { ...env, ENGRAM_DB: 'postgres://u@h/db' })).toBe('postgres://u@h/db');
    expect(resolveDbPath(undefined, { ...env, ENGRAM_DB: '' })).toBe('/data/me/engram/engram.db');
    expect(resolveDbPath('', env)).toBe('/data/me/engram/engram.db');
  });

  it('falls back to ~/.local/share without an absolute XDG_DATA_HOME', () => {
    const home = join(homedir(), '.local', 'share', 'engram', 'engram.db');
    expect(defaultDbPath({})).toBe(home);
    expect(defaultDbPath({ XDG_DATA_HOME: 'relative/data' })).toBe(home);
  });

  it('creates the folder of the default database only', () => {
    const env = { XDG_DATA_HOME: join(dir, 'data') };
    ensureDefaultDbFolder(join(dir, 'elsewhere', 'x.db'), env);
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
    ensureDefaultDbFolder(defaultDbPath(env), env);
    expect(existsSync(join(dir, 'data', 'engram'))).toBe(true);
  });
});
