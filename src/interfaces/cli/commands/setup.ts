/**
 * `engram setup claude-code [--write] [--scope S]... [--db PATH] [--url URL] [--dir DIR]`: prints (or
 * merges into .mcp.json and .claude/settings.json) the MCP server and hook configuration.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngramError } from '../../../core/errors.js';
import { assertReadScopes } from '../../../core/scope.js';
import { collect } from '../context.js';
import { DB_FLAG_HELP, resolveDbPath } from '../default-db.js';
import { printError } from '../output.js';

interface SetupFlags {
  write?: boolean;
  scope?: string[];
  db?: string;
  url?: string;
  dir?: string;
  json?: boolean;
}

type Json = Record<string, unknown>;

/** The `engram` bin as an absolute command (works without a global install). */
function engramCommand(): string[] {
  const bin = fileURLToPath(new URL('../main.js', import.meta.url));
  return [process.execPath, bin];
}

function quote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The `mcpServers` entry for a running `engram serve` (Streamable HTTP). */
export function claudeCodeHttpConfig(options: { url: string; scopes: readonly string[]; keyNeeded: boolean }): Json {
  const query = options.scopes.map((s) => `scope=${encodeURIComponent(s).replace(/%2F/g, '/')}`).join('&');
  return {
    mcpServers: {
      engram: {
        type: 'http',
        url: `${options.url}/mcp${query.length > 0 ? `?${query}` : ''}`,
        ...(options.keyNeeded ? { headers: { Authorization: 'Bearer ${ENGRAM_API_KEY}' } } : {}),
      },
    },
  };
}

/** The `mcpServers` entry that starts `engram mcp` over stdio. */
export function claudeCodeStdioConfig(options: { db: string; scopes: readonly string[] }): Json {
  const [command, ...prefix] = engramCommand();
  return {
    mcpServers: {
      engram: { type: 'stdio', command, args: [...prefix, 'mcp', '--db', options.db, ...options.scopes.flatMap((s) => ['--scope', s])], env: {} },
    },
  };
}

/** The `hooks` block of .claude/settings.json. */
export function claudeCodeHooksConfig(options: { db: string; scopes: readonly string[]; url?: string }): Json {
  const base = [...engramCommand(), 'hooks'];
  const tail = ['--db', options.db, ...options.scopes.flatMap((s) => ['--scope', s]), ...(options.url !== undefined ? ['--url', options.url] : [])];
  const hook = (event: string, timeout: number) => [{ hooks: [{ type: 'command', command: [...base, event, ...tail].map(quote).join(' '), timeout }] }];
  return { hooks: { UserPromptSubmit: hook('user-prompt-submit', 15), Stop: hook('stop', 120), SessionEnd: hook('session-end', 300) } };
}

/** Registers `setup claude-code`. */
export function registerSetupCommand(program: Command): void {
  const setup = program.command('setup').description('configure an agent to use Engram');
  setup
    .command('claude-code')
    .description('print (or --write) the Claude Code MCP server and hooks configuration')
    .option('--write', 'merge it into .mcp.json and .claude/settings.json of --dir (default: current directory)')
    .option('--scope <scope>', 'scope for memories (repeatable; the first is where turns are stored); else $ENGRAM_SCOPES', collect)
    .option('--db <path>', DB_FLAG_HELP)
    .option('--url <url>', 'use a running "engram serve" at this URL for MCP (Streamable HTTP) and hooks')
    .option('--dir <dir>', 'project directory for --write', '.')
    .option('--json', 'print one JSON document {mcp, settings}')
    .action((flags: SetupFlags) => {
      try {
        runSetup(flags);
      } catch (error) {
        process.exitCode = printError({ json: flags.json === true }, error);
      }
    });
}

function runSetup(flags: SetupFlags): void {
  const named = flags.scope ?? (process.env.ENGRAM_SCOPES ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (named.length === 0) throw new EngramError('INVALID_INPUT', 'Name the scope for this project: --scope tenant/... (e.g. --scope me/projects/myapp).');
  const scopes = [...assertReadScopes(named)];
  const db = resolve(resolveDbPath(flags.db));
  const url = flags.url?.replace(/\/+$/, '');
  const mcp = url !== undefined ? claudeCodeHttpConfig({ url, scopes, keyNeeded: false }) : claudeCodeStdioConfig({ db, scopes });
  const settings = claudeCodeHooksConfig({ db, scopes, ...(url !== undefined ? { url } : {}) });
  if (flags.write === true) {
    const dir = resolve(flags.dir ?? '.');
    const mcpPath = join(dir, '.mcp.json');
    const settingsPath = join(dir, '.claude', 'settings.json');
    const mcpDoc = readJson(mcpPath);
    mcpDoc.mcpServers = { ...(mcpDoc.mcpServers as Json | undefined), ...(mcp.mcpServers as Json) };
    writeJson(mcpPath, mcpDoc);
    writeJson(settingsPath, mergeHooks(readJson(settingsPath), settings.hooks as Json));
    process.stdout.write(flags.json === true ? `${JSON.stringify({ written: [mcpPath, settingsPath], mcp, settings })}\n` : `wrote ${mcpPath}\nwrote ${settingsPath}\n`);
    return;
  }
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ mcp, settings })}\n`);
    return;
  }
  process.stdout.write(
    [
      '# .mcp.json (project) — the Engram MCP server',
      JSON.stringify(mcp, null, 2),
      '',
      '# .claude/settings.json — hooks: context on every prompt, turns stored after every reply, consolidation at session end',
      JSON.stringify(settings, null, 2),
      '',
      '# or write both: engram setup claude-code --write ' + scopes.map((s) => `--scope ${s}`).join(' '),
      '',
    ].join('\n'),
  );
}

/** Adds our hook entries, replacing earlier Engram entries of the same event and keeping everyone else's. */
function mergeHooks(settings: Json, ours: Json): Json {
  const hooks = { ...((settings.hooks as Json | undefined) ?? {}) };
  for (const [event, entries] of Object.entries(ours)) {
    const existing = Array.isArray(hooks[event]) ? (hooks[event] as Json[]) : [];
    const others = existing.filter((entry) => !JSON.stringify(entry).includes(' hooks '.concat(toHookName(event))));
    hooks[event] = [...others, ...(entries as Json[])];
  }
  return { ...settings, hooks };
}

function toHookName(event: string): string {
  return event === 'UserPromptSubmit' ? 'user-prompt-submit' : event === 'Stop' ? 'stop' : 'session-end';
}

function readJson(path: string): Json {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Json;
  } catch {
    throw new EngramError('INVALID_INPUT', `${path} is not valid JSON: fix or remove it, then run setup again.`);
  }
}

function writeJson(path: string, value: Json): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
