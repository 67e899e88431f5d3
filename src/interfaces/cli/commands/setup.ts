/**
 * `engram setup claude-code [--user|--project] [--tenant T] [--scope-template TPL] [--scope S]...
 * [--user-scope S] [--api-key K] [--db PATH] [--url URL] [--dir DIR] [--write]`: the Claude Code MCP
 * server and hooks, printed (or merged with --write) into the files Claude Code reads.
 *
 * Project mode: `.mcp.json` and `.claude/settings.json` (committed: the `engram` command and scope
 * flags only) and `.claude/settings.local.json` (not committed: the API key and a --db path, as env).
 * User mode: `~/.claude.json` (the MCP server, with the key in its env) and `~/.claude/settings.json`
 * (the hooks). One installation serves every project: the scope comes from a template filled per call.
 */
import type { Command } from 'commander';
import { accessSync, constants } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { EngramError } from '../../../core/errors.js';
import { scopeSegment } from '../../../core/scope-segment.js';
import { DEFAULT_SCOPE_TEMPLATE, resolveScopes } from '../../hooks/scope-template.js';
import { collect } from '../context.js';
import { DB_FLAG_HELP, defaultDbPath } from '../default-db.js';
import { printError } from '../output.js';
import {
  HOOK_COMMANDS,
  applyChanges,
  both,
  ignoreInGit,
  masked,
  mergeEnv,
  mergeHooks,
  mergeMcpServer,
  type FileChange,
  type Json,
} from './setup-files.js';

interface SetupFlags {
  user?: boolean;
  project?: boolean;
  write?: boolean;
  scope?: string[];
  scopeTemplate?: string;
  tenant?: string;
  userScope?: string;
  apiKey?: string;
  db?: string;
  url?: string;
  dir?: string;
  command?: string;
  json?: boolean;
}

/** Claude Code's timeout (seconds) of each hook: the prompt hook may wait for the background server to start. */
const HOOK_TIMEOUTS: Readonly<Record<string, number>> = {
  SessionStart: 30,
  UserPromptSubmit: 15,
  Stop: 120,
  PreCompact: 120,
  SessionEnd: 300,
};

function quote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The `mcpServers` entry for a running `engram serve` (Streamable HTTP). */
export function claudeCodeHttpConfig(options: { url: string; scopes: readonly string[]; keyNeeded: boolean; key?: string }): Json {
  const query = options.scopes.map((s) => `scope=${encodeURIComponent(s).replace(/%2F/g, '/')}`).join('&');
  return {
    mcpServers: {
      engram: {
        type: 'http',
        url: `${options.url}/mcp${query.length > 0 ? `?${query}` : ''}`,
        ...(options.keyNeeded ? { headers: { Authorization: `Bearer ${options.key ?? '${ENGRAM_API_KEY}'}` } } : {}),
      },
    },
  };
}

/** Registers `setup claude-code`. */
export function registerSetupCommand(program: Command): void {
  const setup = program.command('setup').description('configure an agent to use Engram');
  setup
    .command('claude-code')
    .description('print (or --write) the Claude Code MCP server and hooks (SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd)')
    .option('--user', 'for every project of this user: ~/.claude.json and ~/.claude/settings.json')
    .option('--project', 'for one project (the default): .mcp.json, .claude/settings.json, .claude/settings.local.json of --dir')
    .option('--write', 'merge it into those files (without it: print what would be written)')
    .option('--tenant <tenant>', 'the {tenant} of the scope template (default: $ENGRAM_TENANT, else your user name)')
    .option(
      '--scope-template <template>',
      `scope per project, filled per hook call: {tenant}, {repo} = the git top level's name (default '${DEFAULT_SCOPE_TEMPLATE}')`,
    )
    .option('--scope <scope>', 'a fixed scope instead of the template (repeatable; the first is where turns are stored)', collect)
    .option(
      '--user-scope <scope>',
      "your own scope: answers to clarifying questions land here, read in every project (default '{tenant}/users/<you>')",
    )
    .option('--api-key <key>', 'API key for a server that needs one: written only to a file that is not committed, as ENGRAM_API_KEY')
    .option('--db <path>', DB_FLAG_HELP)
    .option('--url <url>', 'use a running "engram serve" at this URL for MCP (Streamable HTTP) and the hooks')
    .option('--dir <dir>', 'project directory (project mode)', '.')
    .option(
      '--command <cmd>',
      'the engram command Claude Code runs: the installed binary, or e.g. "node /path/to/engram/dist/interfaces/cli/main.js"',
      'engram',
    )
    .option('--json', 'print one JSON document {mode, files: [{path, committed, part}]}')
    .action((flags: SetupFlags) => {
      try {
        runSetup(flags);
      } catch (error) {
        process.exitCode = printError({ json: flags.json === true }, error);
      }
    });
}

function runSetup(flags: SetupFlags): void {
  if (flags.user === true && flags.project === true)
    throw new EngramError('INVALID_INPUT', 'Choose one of --user (every project) and --project (this one).');
  const mode = flags.user === true ? 'user' : 'project';
  const plan = planSetup(flags, mode);
  if (flags.write === true) {
    const written = applyChanges(plan.changes, plan.secrets);
    const local = mode === 'project' ? plan.changes.find((c) => c.path.endsWith('settings.local.json')) : undefined;
    const ignoredIn = local !== undefined ? ignoreInGit(local.path) : undefined;
    if (flags.json === true) {
      process.stdout.write(
        `${JSON.stringify({ mode, scope: plan.example, written: written.map((c) => c.path), unchanged: plan.changes.filter((c) => !written.includes(c)).map((c) => c.path) })}\n`,
      );
    } else {
      for (const change of plan.changes)
        process.stdout.write(`${written.includes(change) ? 'wrote' : 'unchanged'} ${change.path} (${change.role})\n`);
      if (local !== undefined && ignoredIn !== undefined) process.stdout.write(`added ${local.path} to ${ignoredIn}\n`);
      process.stdout.write(`${plan.summary}\n`);
    }
  } else if (flags.json === true) {
    process.stdout.write(
      `${JSON.stringify({ mode, scope: plan.example, files: plan.changes.map((c) => ({ path: c.path, committed: c.committed, part: masked(c.part, plan.secrets) })) })}\n`,
    );
  } else {
    const lines = plan.changes.flatMap((c) => [
      `# ${c.path} — ${c.role}${c.committed ? ' (committed: no secret, no machine path)' : ' (not committed)'}`,
      JSON.stringify(masked(c.part, plan.secrets), null, 2),
      '',
    ]);
    process.stdout.write(
      [...lines, plan.summary, `Nothing written: add --write to merge this into the files above (other settings are kept).`, ''].join('\n'),
    );
  }
  if (!onPath(flags.command ?? 'engram')) {
    process.stderr.write(
      `note: "${flags.command ?? 'engram'}" is not on your PATH, so Claude Code could not run it: install the package (npm install -g ./engram-<version>.tgz) or pass --command.\n`,
    );
  }
}

interface SetupPlan {
  changes: FileChange[];
  secrets: string[];
  /** The scope this directory gets (what the hooks will compute here). */
  example: string;
  summary: string;
}

function planSetup(flags: SetupFlags, mode: 'user' | 'project'): SetupPlan {
  const me = scopeSegment(safeUserName());
  const tenant = flags.tenant ?? nonEmpty(process.env.ENGRAM_TENANT) ?? me;
  const explicit = flags.scope ?? [];
  const template = explicit.length > 0 ? undefined : (flags.scopeTemplate ?? DEFAULT_SCOPE_TEMPLATE);
  const userScope = flags.userScope ?? `{tenant}/users/${me}`;
  const dir = resolve(flags.dir ?? '.');
  // Fails now, not at the first prompt, on a template or scope that cannot work.
  const here = resolveScopes({ scopes: explicit, ...(template !== undefined ? { template } : {}), tenant, userScope, cwd: dir });
  const scopeArgs = [
    ...(template !== undefined
      ? ['--scope-template', template, ...(template.includes('{tenant}') ? ['--tenant', tenant] : [])]
      : explicit.flatMap((s) => ['--scope', s])),
    '--user-scope',
    here.userScope as string,
  ];
  const command = flags.command ?? 'engram';
  const url = flags.url?.replace(/\/+$/, '');
  const key = flags.apiKey;
  if (key !== undefined && !/^\S{8,512}$/.test(key))
    throw new EngramError('INVALID_INPUT', '--api-key must be the key "engram keys create" printed (no spaces).');
  // The db path is a machine path: in project mode it goes to the local file only, as ENGRAM_DB.
  const db = flags.db !== undefined ? (/^postgres(ql)?:\/\//.test(flags.db) ? flags.db : resolve(flags.db)) : undefined;
  const dbArgs = mode === 'user' && db !== undefined ? ['--db', db] : [];
  const urlArgs = url !== undefined ? ['--url', url] : [];
  const hooks: Json = {};
  for (const [event, name] of Object.entries(HOOK_COMMANDS)) {
    const line = [command, 'hooks', name, ...scopeArgs, ...dbArgs, ...urlArgs].map(quote).join(' ');
    hooks[event] = [{ hooks: [{ type: 'command', command: line, timeout: HOOK_TIMEOUTS[event] }] }];
  }
  const keyNeeded = key !== undefined || nonEmpty(process.env.ENGRAM_API_KEY) !== undefined;
  const server: Json =
    url !== undefined
      ? ((
          claudeCodeHttpConfig({ url, scopes: here.readScopes, keyNeeded, ...(mode === 'user' && key !== undefined ? { key } : {}) })
            .mcpServers as Json
        ).engram as Json)
      : {
          type: 'stdio',
          command,
          args: ['mcp', ...scopeArgs, ...dbArgs],
          env: mode === 'user' && key !== undefined ? { ENGRAM_API_KEY: key } : {},
        };
  const changes: FileChange[] = [];
  if (mode === 'user') {
    const home = homedir();
    changes.push({
      path: join(home, '.claude.json'),
      committed: false,
      role: 'the Engram MCP server for every project',
      part: { mcpServers: { engram: server } },
      apply: mergeMcpServer(server),
    });
    const env = key !== undefined && url !== undefined ? { ENGRAM_API_KEY: key } : undefined;
    changes.push({
      path: join(home, '.claude', 'settings.json'),
      committed: false,
      role: 'hooks: rules and profile at session start, context on every prompt, turns stored after every reply and before compaction, consolidation at session end',
      part: { ...(env !== undefined ? { env } : {}), hooks },
      apply: env !== undefined ? both(mergeEnv(env), mergeHooks(hooks)) : mergeHooks(hooks),
    });
  } else {
    changes.push({
      path: join(dir, '.mcp.json'),
      committed: true,
      role: 'the Engram MCP server of this project',
      part: { mcpServers: { engram: server } },
      apply: mergeMcpServer(server),
    });
    changes.push({
      path: join(dir, '.claude', 'settings.json'),
      committed: true,
      role: 'hooks: rules and profile at session start, context on every prompt, turns stored after every reply and before compaction, consolidation at session end',
      part: { hooks },
      apply: mergeHooks(hooks),
    });
    const env = { ...(key !== undefined ? { ENGRAM_API_KEY: key } : {}), ...(db !== undefined ? { ENGRAM_DB: db } : {}) };
    if (Object.keys(env).length > 0) {
      changes.push({
        path: join(dir, '.claude', 'settings.local.json'),
        committed: false,
        role: 'your API key and database, as environment of the session (hooks and MCP server)',
        part: { env },
        apply: mergeEnv(env),
      });
    }
  }
  const where = template !== undefined ? `scope ${template} (here: ${here.writeScope})` : `scope ${here.writeScope}`;
  return {
    changes,
    secrets: key !== undefined ? [key] : [],
    example: here.writeScope,
    summary: `Claude Code will use ${where}, your own scope ${here.userScope}, and the database ${db ?? defaultDbDescription()}.`,
  };
}

/** Where the hooks' database is when --db names none: their $ENGRAM_DB, else the default file as it resolves here. */
function defaultDbDescription(): string {
  const env = nonEmpty(process.env.ENGRAM_DB);
  return `$ENGRAM_DB${env !== undefined ? ` (here ${env})` : ''}, else ${defaultDbPath()}`;
}

function safeUserName(): string {
  try {
    return nonEmpty(process.env.USER) ?? userInfo().username;
  } catch {
    return 'me';
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** Whether `command` (a name, or a path) can be run. */
function onPath(command: string): boolean {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter((d) => d !== '')
        .map((d) => join(d, command));
  return candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
