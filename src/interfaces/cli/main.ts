#!/usr/bin/env node
/**
 * The `engram` command line.
 */
import { buildProgram } from './program.js';
import { printError } from './output.js';

const QUIET_EXITS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && QUIET_EXITS.has(code)) return;
    process.exitCode = printError({ json: process.argv.includes('--json') }, error);
  });
