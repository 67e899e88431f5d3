/**
 * The CLI side of redaction and of the default database, spawning the built bin: `remember` says how
 * many secrets it replaced, `--no-redact` and `ENGRAM_REDACT_PATTERNS` configure it, `engram redact`
 * cleans what was stored before (dry run first), the Stop hook stores turns redacted, and with no
 * --db every command, the hooks and setup use `$XDG_DATA_HOME/engram/engram.db` (else $ENGRAM_DB).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { hookStdin, placeTranscript } from '../helpers/claude-code.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';
const TOKEN = 'ghp_Kd8Wq3Zx7Mv2Lp9Rt4Yb6Nc1Hf5Gj0Ts3Ae8';
let dir: string;
let cleanup: () => void;
/** A data home of this test: the default database lives under it. */
let dataHome: string;
let env: Record<string, string>;

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  dataHome = join(dir, 'data-home');
  env = { XDG_DATA_HOME: dataHome, ENGRAM_DB: '', ENGRAM_URL: '', ENGRAM_EMBEDDER: 'hash', ENGRAM_REDACT: '', ENGRAM_REDACT_PATTERNS: '' };
});
afterAll(() => cleanup());

const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

describe.skipIf(!binBuilt)('the default database', { timeout: 120_000 }, () => {
  it('is $XDG_DATA_HOME/engram/engram.db for commands, the hooks and setup; $ENGRAM_DB and --db win', () => {
    const defaultDb = join(dataHome, 'engram', 'engram.db');
    const first = runCli(['remember', 'The shop deploys with bun.', '--scope', SCOPE, '--json'], { env });
    expect(first.status).toBe(0);
    expect(first.stderr).toContain(`created a new database at ${defaultDb}`);
    expect(existsSync(defaultDb)).toBe(true);

    // the Stop hook fills the same store, whatever folder it runs in
    const transcript = placeTranscript(dir);
    const hook = runCli(['hooks', 'stop', '--scope', SCOPE], { input: hookStdin('stop', transcript), env });
    expect(hook.status).toBe(0);
    const stats = json<{ total: number }>(runCli(['stats', '--scope', SCOPE, '--json'], { env }));
    expect(stats.total).toBeGreaterThan(1);

    // setup names no database in the hooks: they open this same default one
    const setup = json<{ files: { part: { hooks?: { Stop: { hooks: { command: string }[] }[] } } }[] }>(
      runCli(['setup', 'claude-code', '--scope', SCOPE, '--json'], { env }),
    );
    expect(setup.files[1]?.part.hooks?.Stop[0]?.hooks[0]?.command).toMatch(
      new RegExp(`^engram hooks stop --scope ${SCOPE} --user-scope \\S+$`),
    );

    const other = join(dir, 'other.db');
    expect(runCli(['remember', 'Elsewhere.', '--scope', SCOPE], { env: { ...env, ENGRAM_DB: other } }).status).toBe(0);
    expect(existsSync(other)).toBe(true);
    const flagged = join(dir, 'flagged.db');
    expect(runCli(['remember', 'Flagged.', '--scope', SCOPE, '--db', flagged], { env: { ...env, ENGRAM_DB: other } }).status).toBe(0);
    expect(existsSync(flagged)).toBe(true);
  });
});

describe.skipIf(!binBuilt)('redaction on the command line', { timeout: 120_000 }, () => {
  it('remember replaces a token and says so; --no-redact stores it; engram redact cleans it (dry run first)', () => {
    const db = join(dir, 'redact.db');
    const said = runCli(['remember', `CI pushes tags with GITHUB_TOKEN=${TOKEN}`, '--scope', SCOPE, '--db', db, '--json'], { env });
    expect(json(said)).toMatchObject({ action: 'created', redacted: 1 });
    const human = runCli(['remember', `The deploy bot uses ${TOKEN.replace('Kd8', 'Kd9')}`, '--scope', SCOPE, '--db', db], { env });
    expect(plain(human.stdout)).toMatch(/^created \S+, 1 secret redacted$/m);

    const raw = json<{ id: string }>(
      runCli(['remember', `Old note: GITHUB_TOKEN=${TOKEN}`, '--scope', SCOPE, '--db', db, '--no-redact', '--json'], { env }),
    );
    const stored = () => json<{ content: string }>(runCli(['get', raw.id, '--scope', SCOPE, '--db', db, '--json'], { env })).content;
    expect(stored()).toContain(TOKEN);

    const dry = json<{ dryRun: boolean; records: number; redacted: number; kinds: Record<string, number> }>(
      runCli(['redact', '--scope', SCOPE, '--db', db, '--dry-run', '--json'], { env }),
    );
    expect(dry).toMatchObject({ dryRun: true, records: 1, kinds: { 'github-token': expect.any(Number) } });
    expect(stored()).toContain(TOKEN);
    const done = runCli(['redact', '--scope', SCOPE, '--db', db], { env });
    expect(done.status).toBe(0);
    expect(plain(done.stdout).trim()).toMatch(
      /^scanned 3 records in dev\/projects\/shop: redacted \d+ secrets in 1 records \(\d+ github-token\); 1 re-embedded$/,
    );
    expect(stored()).toBe('Old note: GITHUB_TOKEN=[redacted:github-token]');
    expect(readFileSync(db).toString('latin1').toLowerCase()).not.toContain(TOKEN.slice(4).toLowerCase());

    const missing = runCli(['redact', '--db', db, '--json'], { env });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('redact needs --scope');
  });

  it('engram redact says which relation types it cleaned and names, redacted, the type names that hold a secret', () => {
    const db = join(dir, 'relation-types.db');
    expect(runCli(['remember', 'The shop deploys with bun.', '--scope', SCOPE, '--db', db], { env }).status).toBe(0);
    const register = (args: string[]) => runCli(['relations', 'register', ...args, '--scope', SCOPE, '--db', db, '--no-redact'], { env });
    expect(register([`pushes_with_${TOKEN}`]).status).toBe(0);
    // only a name holds a secret: nothing to replace, but the name is reported
    const nameOnly = runCli(['redact', '--scope', SCOPE, '--db', db], { env });
    expect(nameOnly.status, nameOnly.stderr).toBe(0);
    const said = plain(nameOnly.stdout);
    expect(said).not.toMatch(/no secrets found/);
    expect(said).toMatch(/^scanned 1 records in dev\/projects\/shop: no secrets to replace$/m);
    expect(said).toMatch(/^1 relation type name holds a secret, not renamed .*: PUSHES_WITH_\[redacted:github-token\]$/m);
    expect(said.toLowerCase()).not.toContain(TOKEN.slice(4).toLowerCase());

    expect(register(['DEPLOYS_WITH', '--description', `deploys with ${TOKEN}`]).status).toBe(0);
    const dry = plain(runCli(['redact', '--scope', SCOPE, '--db', db, '--dry-run'], { env }).stdout);
    expect(dry).toMatch(
      /^scanned 1 records in dev\/projects\/shop: would redact 1 secrets in 1 relation type \(1 github-token\) \(dry run: nothing changed\)$/m,
    );
    expect(dry).toMatch(/^1 relation type name holds a secret/m);
    const done = plain(runCli(['redact', '--scope', SCOPE, '--db', db], { env }).stdout);
    expect(done).toMatch(/: redacted 1 secrets in 1 relation type \(1 github-token\); 0 re-embedded$/m);
    expect(done.toLowerCase()).not.toContain(TOKEN.slice(4).toLowerCase());
  });

  it('takes extra patterns from ENGRAM_REDACT_PATTERNS and --redact-pattern, and refuses a bad one clearly', () => {
    const db = join(dir, 'patterns.db');
    const fromEnv = runCli(
      ['remember', 'The vault unseal key is acme_Q2w8E4r6T1y3U5i7O9p0A2s4 today.', '--scope', SCOPE, '--db', db, '--json'],
      {
        env: { ...env, ENGRAM_REDACT_PATTERNS: JSON.stringify([{ kind: 'acme-key', pattern: 'acme_[A-Za-z0-9]{24}' }]) },
      },
    );
    expect(json(fromEnv)).toMatchObject({ redacted: 1 });
    const fromFlag = runCli(
      [
        'remember',
        'Badge PIN 4417-9921 opens the lab.',
        '--scope',
        SCOPE,
        '--db',
        db,
        '--redact-pattern',
        'badge-pin=\\b\\d{4}-\\d{4}\\b',
        '--json',
      ],
      { env },
    );
    expect(json(fromFlag)).toMatchObject({ redacted: 1 });
    const bad = runCli(['remember', 'x y z', '--scope', SCOPE, '--db', db, '--redact-pattern', 'nokind'], { env });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--redact-pattern "nokind" must be KIND=REGEX');
  });

  it('the Stop hook stores a pasted token redacted', () => {
    const db = join(dir, 'hook.db');
    const transcript = placeTranscript(dir);
    writeFileSync(transcript, readFileSync(transcript, 'utf8').replace('remember that.', `remember that. The deploy token is ${TOKEN}.`));
    const hook = runCli(['hooks', 'stop', '--scope', SCOPE, '--db', db, '--verbose'], { input: hookStdin('stop', transcript), env });
    expect(hook.status).toBe(0);
    expect(hook.stderr).toMatch(/"redacted":1/);
    const listed = runCli(['list', '--scope', SCOPE, '--db', db, '--json'], { env });
    expect(listed.stdout).toContain('[redacted:github-token]');
    expect(listed.stdout.toLowerCase()).not.toContain(TOKEN.slice(4).toLowerCase());
    const context = runCli(['context', 'what is the deploy token?', '--scope', SCOPE, '--db', db, '--json'], { env });
    expect(context.status).toBe(0);
    expect(context.stdout.toLowerCase()).not.toContain(TOKEN.slice(4).toLowerCase());
  });
});
