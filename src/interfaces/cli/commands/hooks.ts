/**
 * `engram hooks session-start | user-prompt-submit | stop | pre-compact | session-end [--scope S]...
 * [--scope-template T --tenant T] [--user-scope S] [--db PATH] [--url URL]`: the Claude Code hook commands. main.ts routes `hooks` here before loading the rest of the CLI, so a
 * hook that reaches a running server never loads the engine.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EngramError } from '../../../core/errors.js';
import { DEFAULT_IDLE_MINUTES } from '../../hooks/discovery.js';
import type { StartedServer } from '../../hooks/server-starter.js';
import { HOOK_EVENTS, runHook, type HookEvent } from '../../hooks/run-hook.js';
import { resolveDbPath } from '../default-db.js';
import { isMissingDatabase } from '../missing-database.js';
import { printError } from '../output.js';
import { decodeTextFile } from '../text-file.js';

const USAGE = `usage: engram hooks <${HOOK_EVENTS.join('|')}> [--scope S]... [--scope-template T] [--tenant T] [--user-scope S]
       [--db PATH] [--url URL] [--api-key KEY] [--no-start-server] [--idle-minutes N] [--budget-ms N] [--max-tokens N] [--embedder NAME] [--verbose]
Reads the hook JSON Claude Code sends on stdin.
  session-start       prints the procedural rules and the profile as the session's additionalContext
  user-prompt-submit  prints the memory context for the prompt (Claude Code adds it to the prompt)
  stop                stores new user/assistant turns of the transcript as episodes (idempotent, cursor per session)
  pre-compact         the same, before Claude Code compacts the conversation
  session-end         stores the remaining turns, then ends the session (consolidation)
Scopes: --scope (repeatable), else $ENGRAM_SCOPES (comma-separated), else --scope-template (else
$ENGRAM_SCOPE_TEMPLATE) filled per call: {tenant} from --tenant ($ENGRAM_TENANT), {repo} the basename of
the git top level of the hook's cwd. --user-scope ($ENGRAM_USER_SCOPE): read too; answers to clarifying
questions that are facts land there. Server: --url, else $ENGRAM_URL, else the running "engram serve" of
the database (<db>.serve.json), else one started in the background (127.0.0.1, exits after --idle-minutes,
default ${DEFAULT_IDLE_MINUTES}; --no-start-server or ENGRAM_HOOKS_START_SERVER=0 opens the store directly).`;

/** Registers `hooks` for help output; the work is done by `runHooksCommand`. */
export function registerHooksCommand(program: Command): void {
  program
    .command('hooks')
    .description(`Claude Code hooks: ${HOOK_EVENTS.join(', ')} (reads the hook JSON on stdin)`)
    .helpOption(false)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .argument('[args...]')
    .action(async (args: string[]) => {
      await runHooksCommand(args);
    });
}

/** Runs `engram hooks ...args`; sets process.exitCode (never 2, which would block the prompt). */
export async function runHooksCommand(args: readonly string[]): Promise<void> {
  let verbose = false;
  let hookEvent: string | undefined;
  try {
    const { values, positionals } = parseHookArgs(args);
    verbose = values.verbose === true;
    const event = positionals[0];
    hookEvent = event;
    if (values.help === true) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    // no event: a usage error, on stderr (exit 1, as every hook error)
    if (event === undefined) {
      process.stderr.write(`error name a hook event\n${USAGE}\n`);
      process.exitCode = 1;
      return;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      process.stderr.write(`error unknown hook "${event}"\n${USAGE}\n`);
      process.exitCode = 1;
      return;
    }
    const scopes =
      values.scope ??
      (process.env.ENGRAM_SCOPES ?? process.env.ENGRAM_SCOPE ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    const template = values['scope-template'] ?? nonEmpty(process.env.ENGRAM_SCOPE_TEMPLATE);
    const tenant = values.tenant ?? nonEmpty(process.env.ENGRAM_TENANT);
    const userScope = values['user-scope'] ?? nonEmpty(process.env.ENGRAM_USER_SCOPE);
    const db = resolveDbPath(values.db);
    const explicitUrl = values.url !== undefined || nonEmpty(process.env.ENGRAM_URL) !== undefined;
    const mayStart =
      values['no-start-server'] !== true &&
      process.env.ENGRAM_HOOKS_START_SERVER !== '0' &&
      !explicitUrl &&
      !/^postgres(ql)?:\/\//.test(db);
    const outcome = await runHook(event as HookEvent, await readStdin(), {
      scopes,
      ...(template !== undefined ? { template } : {}),
      ...(tenant !== undefined ? { tenant } : {}),
      ...(userScope !== undefined ? { userScope } : {}),
      db,
      ...(mayStart
        ? {
            startServer: () =>
              startBackgroundServer({
                db,
                embedder: values.embedder,
                idleMinutes: values['idle-minutes'],
                create: WRITING_EVENTS.has(event),
              }),
          }
        : {}),
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
      ...(values['budget-ms'] !== undefined ? { budgetMs: Number(values['budget-ms']) } : {}),
      ...(values['max-tokens'] !== undefined ? { maxTokens: Number(values['max-tokens']) } : {}),
      openEngine: async () => {
        const { openEngine } = await import('../context.js');
        // Only the hooks that store turns may create the database; the prompt hook just reads.
        return openEngine(
          { db, ...(values.embedder !== undefined ? { embedder: values.embedder } : {}) },
          { create: WRITING_EVENTS.has(event) },
        );
      },
    });
    if (outcome.stdout.length > 0) process.stdout.write(`${outcome.stdout}\n`);
    if (verbose) process.stderr.write(`engram hooks ${event}: ${JSON.stringify(outcome.detail)}\n`);
  } catch (error) {
    // No database yet means nothing to recall: the prompt goes on without context, silently.
    if ((hookEvent === 'user-prompt-submit' || hookEvent === 'session-start') && isMissingDatabase(error)) {
      if (verbose) process.stderr.write(`engram hooks ${hookEvent}: ${JSON.stringify({ skipped: 'no database' })}\n`);
      return;
    }
    // Exit 1 shows the message to the user without blocking Claude Code (exit 2 would block).
    printError({ json: false }, error);
    process.exitCode = 1;
    if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  }
}

/** The hooks' options; anything else is a usage error (INVALID_INPUT), never an internal one. */
function parseHookArgs(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        scope: { type: 'string', multiple: true },
        'scope-template': { type: 'string' },
        tenant: { type: 'string' },
        'user-scope': { type: 'string' },
        'no-start-server': { type: 'boolean' },
        'idle-minutes': { type: 'string' },
        db: { type: 'string' },
        url: { type: 'string' },
        'api-key': { type: 'string' },
        'budget-ms': { type: 'string' },
        'max-tokens': { type: 'string' },
        embedder: { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageError(error);
  }
}

/** Options of the commands that open the engine which the hooks leave to the environment. */
const REDACTION_OPTIONS = /^--(no-redact|redact-pattern|redact)(=|$)/;

/** A parseArgs failure as a usage error naming the option; anything else as it is. */
function usageError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return error;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^'\s]*)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined && REDACTION_OPTIONS.test(option)) {
    return new EngramError(
      'INVALID_INPUT',
      `engram hooks takes no ${option}: set ENGRAM_REDACT=off (store secrets as they come) or ENGRAM_REDACT_PATTERNS in the hook's environment; off applies when the hook opens the store itself (the background server the hooks share always redacts, adding ENGRAM_REDACT_PATTERNS), and one started by hand redacts by its own flags.`,
    );
  }
  const problem = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined ? `unknown option ${option}` : message.split('. ')[0];
  return new EngramError('INVALID_INPUT', `engram hooks: ${problem}. Run engram hooks --help for the options.`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

/** The hooks that store turns (they may create the database). */
const WRITING_EVENTS = new Set(['stop', 'pre-compact', 'session-end']);

/** How long a hook waits for the server it started (or another hook is starting) before opening the store itself. */
const SERVER_START_WAIT_MS = 10_000;

/** Starts (or waits for) the background `engram serve` of `db`; its URL, or null. */
async function startBackgroundServer({
  db,
  embedder,
  idleMinutes,
  create,
}: {
  db: string;
  embedder: string | undefined;
  idleMinutes: string | undefined;
  create: boolean;
}): Promise<StartedServer> {
  const { ensureServer } = await import('../../hooks/server-starter.js');
  const idle = idleMinutes !== undefined ? Number(idleMinutes) : undefined;
  if (idle !== undefined && !(Number.isFinite(idle) && idle > 0))
    throw new EngramError(
      'INVALID_INPUT',
      `--idle-minutes must be a positive number of minutes, e.g. --idle-minutes 30; got "${idleMinutes}".`,
    );
  // Only the hooks that store turns may create the database (through the server they start).
  if (!create && !existsSync(db)) return { info: null, started: false };
  return ensureServer({
    db,
    command: [process.execPath, fileURLToPath(new URL('../main.js', import.meta.url))],
    ...(embedder !== undefined ? { args: ['--embedder', embedder] } : {}),
    ...(idle !== undefined ? { idleMinutes: idle } : {}),
    waitMs: SERVER_START_WAIT_MS,
  });
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return decodeTextFile(Buffer.concat(chunks), 'the hook input on stdin');
}
