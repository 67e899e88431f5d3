/**
 * Builds the commander program: every command registers itself here.
 */
import { Command } from 'commander';
import { registerRecallCommand } from './commands/recall.js';
import { registerRecordCommands } from './commands/records.js';
import { registerRememberCommand } from './commands/remember.js';

/** The full CLI program (not yet parsed). */
export function buildProgram(): Command {
  const program = new Command('engram')
    .description('Long-term memory for AI agents: remember, recall, consolidate. Offline, no LLM required.')
    .version('0.1.0')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text.startsWith('error:') ? '' : text) });
  registerRememberCommand(program);
  registerRecallCommand(program);
  registerRecordCommands(program);
  return program;
}
