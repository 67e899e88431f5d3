/**
 * What a new user meets first, spawning the built bin: a writing command makes the folder of a new
 * --db (as the default location gets), reads still answer NOT_FOUND; a command group without its
 * subcommand is a usage error (exit 2) while --help is not; `get` shows a memory's history in text;
 * `setup claude-code` names the database the hooks will really open; `serve` prints the banner
 * docs/cli.md shows; docs/cli.md lists every command and flag the help shows.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/interfaces/cli/program.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'demo/me';
const env = { ENGRAM_DB: '', ENGRAM_URL: '', ENGRAM_EMBEDDER: 'hash' };
const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');
const CLI_DOC = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

const tmp = tempDir('engram-cli-new-user-');
afterAll(() => tmp.cleanup());

describe.skipIf(!binBuilt)('a new --db in a folder that does not exist', { timeout: 120_000 }, () => {
  it('remember creates the folder (0700) and the file; a read of another missing folder exits 3 and creates nothing', () => {
    const db = join(tmp.dir, 'fresh', 'nested', 'me.db');
    const written = runCli(['remember', 'I prefer window seats', '--scope', SCOPE, '--db', db], { env });
    expect(written.status, written.stderr).toBe(0);
    expect(written.stderr).toContain(`created a new database at ${db}`);
    expect(existsSync(db)).toBe(true);
    expect(statSync(join(tmp.dir, 'fresh', 'nested')).mode & 0o777).toBe(0o700);

    const missing = join(tmp.dir, 'absent', 'me.db');
    const read = runCli(['recall', 'seats', '--scope', SCOPE, '--db', missing], { env });
    expect(read.status).toBe(3);
    expect(read.stderr).toContain(`No database at ${missing}`);
    expect(existsSync(join(tmp.dir, 'absent'))).toBe(false);
  });

  it('reads a leading ~/ of --db and $ENGRAM_DB as the home folder, never as a folder named ~', () => {
    const home = join(tmp.dir, 'home');
    const viaFlag = runCli(['remember', 'first', '--scope', SCOPE, '--db', '~/.engram/me.db'], { env: { ...env, HOME: home } });
    expect(viaFlag.status, viaFlag.stderr).toBe(0);
    expect(existsSync(join(home, '.engram', 'me.db'))).toBe(true);
    const viaEnv = runCli(['stats', '--scope', SCOPE, '--json'], { env: { ...env, HOME: home, ENGRAM_DB: '~/.engram/me.db' } });
    expect(viaEnv.status, viaEnv.stderr).toBe(0);
    expect(json<{ total: number }>(viaEnv).total).toBe(1);
  });

  it('a --db under a file, or under ~user, is a clear error that creates nothing', () => {
    const file = join(tmp.dir, 'afile');
    writeFileSync(file, 'not a folder');
    const under = runCli(['remember', 'hi', '--scope', SCOPE, '--db', join(file, 'x.db')], { env });
    expect(under.status).toBe(5);
    expect(plain(under.stderr)).toMatch(/cannot be created \(E(EXIST|NOTDIR): a part of the path is a file\)/);
    expect(plain(under.stderr)).not.toMatch(/Internal error/);
    const other = runCli(['remember', 'hi', '--scope', SCOPE, '--db', '~root/x.db'], { env, cwd: tmp.dir });
    expect(other.status).toBe(2);
    expect(plain(other.stderr)).toContain('"~user" paths are not expanded');
    expect(existsSync(join(tmp.dir, '~root'))).toBe(false);
  });

  it('serve creates it too, and prints the banner docs/cli.md shows', async () => {
    const db = join(tmp.dir, 'serve-home', '.engram', 'me.db');
    const server = await startServe(['--db', db, '--scope', 'me/projects/shop', '--scope', 'me/shared'], { env });
    try {
      expect(existsSync(db)).toBe(true);
      const normalise = (text: string): string =>
        text
          .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'URL')
          .replace(/database: .*/, 'database: DB')
          .replace(/embedder: .*/, 'embedder: EMBEDDER');
      const output = server.output();
      const start = output.indexOf('engram serve listening on');
      const end = output.indexOf('\n}\n', start);
      expect(end, output).toBeGreaterThan(start);
      const real = normalise(output.slice(start, end + 2));
      const documented = /```text\n(engram serve listening on[\s\S]*?\n})\n```/.exec(CLI_DOC)?.[1];
      expect(documented, 'docs/cli.md shows the serve banner').toBeDefined();
      expect(real).toBe(normalise(documented as string));
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!binBuilt)('a command group without its subcommand', { timeout: 120_000 }, () => {
  it.each([[[]], [['export']], [['import']], [['persona']], [['profile-schema']], [['keys']], [['relations']], [['setup']], [['models']]])(
    'engram %j prints its help on stderr and exits 2',
    (args) => {
      const result = runCli(args, { env });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`Usage: engram${args.length > 0 ? ` ${args.join(' ')}` : ''} [options] [command]`);
      expect(result.stdout).toBe('');
    },
  );

  it.each([[['--help']], [['help']], [['export', '--help']], [['help', 'keys']], [['-h']]])('engram %j prints help and exits 0', (args) => {
    const result = runCli(args, { env });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Usage: engram');
  });

  it('engram hooks without an event is a hook error (exit 1, usage on stderr); hooks --help exits 0', () => {
    const missing = runCli(['hooks'], { env });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('usage: engram hooks');
    const help = runCli(['hooks', '--help'], { env });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: engram hooks');
  });
});

describe.skipIf(!binBuilt)('engram get', { timeout: 120_000 }, () => {
  it('shows the other wordings in text with ISO dates; --json keeps history[].at in epoch ms', () => {
    const db = join(tmp.dir, 'get.db');
    const base = ['--db', db, '--scope', SCOPE];
    const created = runCli(['remember', ...base, '--layer', 'semantic', '--json', 'The deploy target is staging'], { env });
    expect(created.status, created.stderr).toBe(0);
    const { id } = json<{ id: string }>(created);
    expect(runCli(['update', id, ...base, '--content', 'The deploy target is prod'], { env }).status).toBe(0);

    const text = plain(runCli(['get', id, ...base], { env }).stdout);
    expect(text).toContain('The deploy target is prod');
    expect(text).toMatch(
      /history \(other wordings, oldest first[^\n]*\n {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}The deploy target is staging/,
    );

    const got = json<{ history: { content: string; at: unknown }[] }>(runCli(['get', id, ...base, '--json'], { env }));
    expect(got.history).toEqual([{ content: 'The deploy target is staging', at: expect.any(Number) }]);
  });
});

describe.skipIf(!binBuilt)('engram setup claude-code', { timeout: 60_000 }, () => {
  it('names the database the hooks will open: $XDG_DATA_HOME/engram/engram.db when it is set', () => {
    const xdg = join(tmp.dir, 'xdg-data');
    const result = runCli(['setup', 'claude-code', '--dir', tmp.dir], { env: { ...env, XDG_DATA_HOME: xdg } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`and the database $ENGRAM_DB, else ${join(xdg, 'engram', 'engram.db')}.`);
    expect(result.stdout).not.toContain('~/.local/share');
  });

  it('shows the default of --command once', () => {
    const help = runCli(['setup', 'claude-code', '--help'], { env }).stdout.replace(/\s+/g, ' ');
    expect(help.match(/--command <cmd>.*?\(default: "engram"\)/)?.[0]).not.toMatch(/default.*default/);
  });
});

/** The long flags and, for a group, the subcommands a help text lists. */
function parseHelp(text: string): { flags: string[]; subcommands: string[] } {
  const [, options = '', commands = ''] = /Options:\n([\s\S]*?)(?:\nCommands:\n([\s\S]*))?$/.exec(text) ?? [];
  const flags = [...options.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1] as string).filter((f) => f !== '--help');
  const subcommands = [...commands.matchAll(/^ {2}([\w-]+)/gm)].map((m) => m[1] as string).filter((c) => c !== 'help');
  return { flags, subcommands };
}

/**
 * A command's help as the bin prints it, from the program the bin builds (in-process: one spawn per
 * command made this walk ~60 spawns; a test below checks the bin prints the same).
 */
function helpOf(path: readonly string[]): { flags: string[]; subcommands: string[] } {
  let command: Command | undefined = buildProgram();
  for (const name of path) command = command?.commands.find((sub) => sub.name() === name);
  if (command === undefined) throw new Error(`no command engram ${path.join(' ')}`);
  return parseHelp(command.helpInformation());
}

describe.skipIf(!binBuilt)('docs/cli.md "Every command and flag"', { timeout: 300_000 }, () => {
  const section = CLI_DOC.slice(CLI_DOC.indexOf('## Every command and flag'));
  const common = ['--db', '--json', '--embedder', '--workers', '--cache-dir', '--no-redact', '--redact-pattern'];
  const rowOf = (path: readonly string[]): string | undefined =>
    section
      .split('\n')
      .find((line) => line.startsWith(`| \`engram ${path.join(' ')}\``) || line.startsWith(`| \`engram ${path.join(' ')} `));
  const names = (text: string, flag: string): boolean => new RegExp(`\`(?:-\\w, )?${flag}(?![\\w-])`).test(text);

  it('the in-process walk reads the help the bin prints', () => {
    for (const path of [[], ['recall'], ['import'], ['keys', 'create']]) {
      const result = runCli([...path, '--help'], { env });
      expect(result.status, `engram ${path.join(' ')} --help`).toBe(0);
      expect(helpOf(path), path.join(' ')).toEqual(parseHelp(result.stdout));
    }
  });

  it('lists every common flag', () => {
    for (const flag of common) expect(names(section, flag), flag).toBe(true);
  });

  it('has a row for every command and names each of its flags', () => {
    const missing: string[] = [];
    const walk = (path: string[]): void => {
      const { flags, subcommands } = helpOf(path);
      if (subcommands.length > 0) {
        for (const sub of subcommands) walk([...path, sub]);
        return;
      }
      const row = rowOf(path);
      if (row === undefined) return void missing.push(`engram ${path.join(' ')}: no row`);
      const takesCommon = common.every((flag) => flags.includes(flag));
      if (takesCommon && !row.includes('the common flags')) missing.push(`engram ${path.join(' ')}: "the common flags" not said`);
      for (const flag of flags) {
        if (takesCommon && common.includes(flag)) continue;
        if (!names(row, flag)) missing.push(`engram ${path.join(' ')} ${flag}`);
      }
    };
    for (const command of helpOf([]).subcommands) {
      if (command === 'hooks') continue; // its own parser: checked below
      walk([command]);
    }
    expect(missing).toEqual([]);
  });

  it('names every flag of engram hooks', () => {
    const usage = runCli(['hooks', '--help'], { env }).stdout;
    const row = rowOf(['hooks']) ?? '';
    const flags = [...usage.matchAll(/\[(--[\w-]+)/g)].map((m) => m[1] as string);
    expect(flags.length).toBeGreaterThan(5);
    expect(flags.filter((flag) => !names(row, flag))).toEqual([]);
  });
});
