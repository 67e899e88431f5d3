/**
 * `engram hooks user-prompt-submit | stop | session-end [--scope S]... [--db PATH] [--url URL]`:
 * the Claude Code hook commands. main.ts routes `hooks` here before loading the rest of the CLI, so a
 * hook that reaches a running server never loads the engine.
 */
import type { Command } from 'commander';
import { parseArgs } from 'node:util';
import { HOOK_EVENTS, runHook, type HookEvent } from '../../hooks/run-hook.js';
import { resolveDbPath } from '../default-db.js';
import { isMissingDatabase } from '../missing-database.js';
import { printError } from '../output.js';

const USAGE = `usage: engram hooks <${HOOK_EVENTS.join('|')}> [--scope S]... [--db PATH] [--url URL] [--api-key KEY] [--budget-ms N] [--max-tokens N] [--embedder NAME] [--verbose]
Reads the hook JSON Claude Code sends on stdin.
  user-prompt-submit  prints the memory context for the prompt (Claude Code adds it to the prompt)
  stop                stores new user/assistant turns of the transcript as episodes (idempotent, cursor per session)
  session-end         stores the remaining turns, then ends the session (consolidation)
Scopes: --scope (repeatable), else $ENGRAM_SCOPES (comma-separated). Server: --url, else $ENGRAM_URL, else
the running "engram serve" of the database (<db>.serve.json), else the store is opened directly.`;

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
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        scope: { type: 'string', multiple: true },
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
    verbose = values.verbose === true;
    const event = positionals[0];
    hookEvent = event;
    if (values.help === true || event === undefined) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      process.stderr.write(`error unknown hook "${event}"\n${USAGE}\n`);
      process.exitCode = 1;
      return;
    }
    const scopes = values.scope ?? (process.env.ENGRAM_SCOPES ?? process.env.ENGRAM_SCOPE ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    const db = resolveDbPath(values.db);
    const outcome = await runHook(event as HookEvent, await readStdin(), {
      scopes,
      db,
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
      ...(values['budget-ms'] !== undefined ? { budgetMs: Number(values['budget-ms']) } : {}),
      ...(values['max-tokens'] !== undefined ? { maxTokens: Number(values['max-tokens']) } : {}),
      openEngine: async () => {
        const { openEngine } = await import('../context.js');
        // Only the hooks that store turns may create the database; the prompt hook just reads.
        return openEngine({ db, ...(values.embedder !== undefined ? { embedder: values.embedder } : {}) }, { create: event !== 'user-prompt-submit' });
      },
    });
    if (outcome.stdout.length > 0) process.stdout.write(`${outcome.stdout}\n`);
    if (verbose) process.stderr.write(`engram hooks ${event}: ${JSON.stringify(outcome.detail)}\n`);
  } catch (error) {
    // No database yet means nothing to recall: the prompt goes on without context, silently.
    if (hookEvent === 'user-prompt-submit' && isMissingDatabase(error)) {
      if (verbose) process.stderr.write(`engram hooks user-prompt-submit: ${JSON.stringify({ skipped: 'no database' })}\n`);
      return;
    }
    // Exit 1 shows the message to the user without blocking Claude Code (exit 2 would block).
    printError({ json: false }, error);
    process.exitCode = 1;
    if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  }
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
