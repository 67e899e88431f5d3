#!/usr/bin/env node
/**
 * The `engram` command line.
 */
import { printError } from './output.js';

const QUIET_EXITS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

// Hooks run on every Claude Code prompt: route them before loading the rest of the CLI (and the engine).
if (process.argv[2] === 'hooks') {
  const { runHooksCommand } = await import('./commands/hooks.js');
  await runHooksCommand(process.argv.slice(3));
} else {
  const { buildProgram } = await import('./program.js');
  await buildProgram()
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      const { code, exitCode } = (error ?? {}) as { code?: unknown; exitCode?: unknown };
      // `engram`, `engram export`… without a subcommand: the help (on stderr) is the error message, exit 2
      // as for any usage error; `--help` and `engram help` exit 0
      if (code === 'commander.help' && exitCode !== 0) process.exitCode = 2;
      if (typeof code === 'string' && QUIET_EXITS.has(code)) return;
      process.exitCode = printError({ json: process.argv.includes('--json') }, error);
    });
}
