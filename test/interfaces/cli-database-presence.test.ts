/**
 * Which CLI commands may create a database: the writing ones create a missing SQLite file and say so on
 * stderr; every other command answers NOT_FOUND (exit 3) and creates nothing, so a typo in --db is not
 * answered from a fresh empty store; the prompt hook stays silent. Spawns the built bin.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt, runCli } from '../helpers/cli.js';
import { hookStdin, placeTranscript } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'acme/presence';
let dir: string;
let cleanup: () => void;
const env = { ENGRAM_DB: '', ENGRAM_URL: '', ENGRAM_EMBEDDER: 'hash' };

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

describe.skipIf(!binBuilt)('a missing --db', { timeout: 120_000 }, () => {
  it.each([
    ['recall', ['recall', 'anything', '--scope', SCOPE]],
    ['stats', ['stats', '--scope', SCOPE]],
    ['context', ['context', 'hello', '--scope', SCOPE]],
    ['consolidate', ['consolidate', '--scope', SCOPE]],
    ['get', ['get', '01JABCDEFGHJKMNPQRSTVWXYZ0', '--scope', SCOPE]],
    ['jobs', ['jobs']],
  ])('%s exits 3 with NOT_FOUND and creates no file', (_name, args) => {
    const db = join(dir, `typo-${_name}.db`);
    const result = runCli([...args, '--db', db], { env });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(`No database at ${db}: check --db or $ENGRAM_DB; engram remember creates one.`);
    expect(result.stdout).toBe('');
    expect(existsSync(db)).toBe(false);
  });

  it('migrate --from a missing file exits 3 before touching PostgreSQL', () => {
    const db = join(dir, 'typo-migrate.db');
    const result = runCli(['migrate', '--from', db, '--to', 'postgres://nobody@127.0.0.1:1/none', '--json'], { env });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('"code":"NOT_FOUND"');
    expect(result.stderr).toContain(`No database at ${db}`);
  });

  it('remember creates it and says so on stderr only; later commands read it and say nothing', () => {
    const db = join(dir, 'new.db');
    const first = runCli(['remember', 'The printer is on floor three.', '--scope', SCOPE, '--db', db, '--json'], { env });
    expect(first.status).toBe(0);
    expect(first.stderr).toContain(`created a new database at ${db}`);
    expect(JSON.parse(first.stdout)).toMatchObject({ action: 'created' });
    expect(existsSync(db)).toBe(true);

    const second = runCli(['recall', 'printer', '--scope', SCOPE, '--db', db, '--json'], { env });
    expect(second.status).toBe(0);
    expect(second.stderr).not.toContain('created a new database');
  });

  it('keys create may create one', () => {
    const keysDb = join(dir, 'keys.db');
    const keys = runCli(['keys', 'create', '--tenant', 'acme', '--db', keysDb, '--json'], { env });
    expect(keys.status).toBe(0);
    expect(keys.stderr).toContain('created a new database');
    expect(existsSync(keysDb)).toBe(true);
  });

  it('hooks user-prompt-submit prints nothing, exits 0 and creates nothing', () => {
    const db = join(dir, 'hook-missing.db');
    const transcript = placeTranscript(dir);
    const result = runCli(['hooks', 'user-prompt-submit', '--scope', SCOPE, '--db', db], {
      input: hookStdin('user-prompt-submit', transcript),
      env,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('');
    expect(existsSync(db)).toBe(false);
  });

  it('hooks stop creates it to store the turns', () => {
    const db = join(dir, 'hook-stop.db');
    const transcript = placeTranscript(dir);
    const result = runCli(['hooks', 'stop', '--scope', SCOPE, '--db', db], { input: hookStdin('stop', transcript), env });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(existsSync(db)).toBe(true);
  });
});

describe.skipIf(!binBuilt)('remember without --scope', { timeout: 60_000 }, () => {
  it('names the missing flag and fails before opening the engine (no database is created)', () => {
    const db = join(dir, 'no-scope.db');
    const result = runCli(['remember', 'hello', '--db', db], { env: { ...env, ENGRAM_EMBEDDER: 'use' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('remember needs --scope');
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a malformed --scope without creating the database', () => {
    const db = join(dir, 'bad-scope.db');
    const result = runCli(['remember', 'hello', '--scope', 'acme/../x', '--db', db], { env });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Invalid scope "acme/../x"');
    expect(existsSync(db)).toBe(false);
  });
});
