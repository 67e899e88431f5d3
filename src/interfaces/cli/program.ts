/**
 * Builds the commander program: every command registers itself here.
 */
import { Command } from 'commander';
import { registerBrowseCommands } from './commands/browse.js';
import { registerConsolidateCommand } from './commands/consolidate.js';
import { registerMaintenanceCommands } from './commands/maintenance.js';
import { registerContextCommands } from './commands/context.js';
import { registerHooksCommand } from './commands/hooks.js';
import { registerImportSourceCommands } from './commands/import-sources.js';
import { registerKeysCommands } from './commands/keys.js';
import { registerGraphCommands } from './commands/graph.js';
import { registerJobsCommand } from './commands/jobs.js';
import { registerMarkdownCommands } from './commands/markdown.js';
import { registerDumpCommands } from './commands/dump.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerMigrateCommand } from './commands/migrate.js';
import { registerModelsCommand } from './commands/models.js';
import { registerRecallCommand } from './commands/recall.js';
import { registerRedactCommand } from './commands/redact.js';
import { registerReembedCommand } from './commands/reembed.js';
import { registerRecordCommands } from './commands/records.js';
import { registerPersonaCommands } from './commands/persona.js';
import { registerRememberCommand } from './commands/remember.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSetupCommand } from './commands/setup.js';
import { registerUpdateCommand } from './commands/update.js';

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
  registerUpdateCommand(program);
  registerBrowseCommands(program);
  registerGraphCommands(program);
  registerMarkdownCommands(program);
  registerJobsCommand(program);
  registerDumpCommands(program);
  registerImportSourceCommands(program);
  registerConsolidateCommand(program);
  registerMaintenanceCommands(program);
  registerContextCommands(program);
  registerPersonaCommands(program);
  registerKeysCommands(program);
  registerMcpCommand(program);
  registerServeCommand(program);
  registerHooksCommand(program);
  registerSetupCommand(program);
  registerMigrateCommand(program);
  registerModelsCommand(program);
  registerReembedCommand(program);
  registerRedactCommand(program);
  return program;
}
