/**
 * `engram mcp --db PATH --scope S [--scope S2]...`: the MCP server over stdio (for Claude Code,
 * Claude Desktop, any MCP client). stdout carries only the protocol; messages go to stderr.
 */
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { collect, openEngine, resolveDbPath, withCommonFlags, type CommonFlags } from '../context.js';
import { printError } from '../output.js';

interface McpFlags extends CommonFlags {
  scope?: string[];
  scopeTemplate?: string;
  tenant?: string;
  userScope?: string;
}

/** The scopes of a server: --scope flags, else $ENGRAM_SCOPES (comma-separated). */
export function serverScopes(flags: { scope?: string[] }): string[] {
  if (flags.scope !== undefined && flags.scope.length > 0) return flags.scope;
  return (process.env.ENGRAM_SCOPES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Explicit scopes (or $ENGRAM_SCOPES), else the template filled from the working directory; then the user scope. */
async function scopesOf(flags: McpFlags): Promise<string[]> {
  const explicit = serverScopes(flags);
  const template = flags.scopeTemplate ?? process.env.ENGRAM_SCOPE_TEMPLATE;
  const userScope = flags.userScope ?? process.env.ENGRAM_USER_SCOPE;
  if (explicit.length > 0 && (userScope === undefined || userScope === '')) return explicit;
  if (explicit.length === 0 && (template === undefined || template === '')) return [];
  const { resolveScopes } = await import('../../hooks/scope-template.js');
  const tenant = flags.tenant ?? process.env.ENGRAM_TENANT;
  const resolved = resolveScopes({
    scopes: explicit,
    ...(template !== undefined ? { template } : {}),
    ...(tenant !== undefined ? { tenant } : {}),
    ...(userScope !== undefined ? { userScope } : {}),
    cwd: process.cwd(),
  });
  return resolved.readScopes;
}

/** Registers `mcp`. */
export function registerMcpCommand(program: Command): void {
  withCommonFlags(program.command('mcp').description('run the MCP server over stdio (tools memory_*, resources rules and profile)'))
    .option('--scope <scope>', 'a scope the server may use (repeatable; the first is the default for writes); else $ENGRAM_SCOPES', collect)
    .option(
      '--scope-template <template>',
      "else a scope from this template and the working directory, e.g. '{tenant}/projects/{repo}' ({repo}: the git top level's name)",
    )
    .option('--tenant <tenant>', 'the {tenant} of --scope-template (else $ENGRAM_TENANT)')
    .option('--user-scope <scope>', "the user's own scope, usable too (may contain {tenant})")
    .action(async (flags: McpFlags) => {
      try {
        const scopes = await scopesOf(flags);
        if (scopes.length === 0) {
          throw new EngramError(
            'INVALID_INPUT',
            'engram mcp needs the scopes it may use: --scope tenant/... (repeatable) or ENGRAM_SCOPES=a,b.',
          );
        }
        // The MCP SDK loads only when this command runs (serve.ts imports serverScopes from here).
        const [{ StdioServerTransport }, { createMcpServer }, { answerInvalidLines }] = await Promise.all([
          import('@modelcontextprotocol/sdk/server/stdio.js'),
          import('../../mcp/index.js'),
          import('../../mcp/stdio-input.js'),
        ]);
        const engram = await openEngine(flags, { create: true });
        engram.startBackground();
        const server = createMcpServer({ engram, scopes });
        // a request the transport would drop (e.g. "params": null) is answered rather than left waiting
        const transport = new StdioServerTransport(answerInvalidLines(process.stdin, process.stdout), process.stdout);
        let closing = false;
        const shutdown = async () => {
          if (closing) return;
          closing = true;
          await server.close().catch(() => undefined);
          await engram.stopBackground();
          await engram.close();
        };
        transport.onclose = () => void shutdown();
        process.stdin.on('end', () => void shutdown());
        process.on('SIGINT', () => void shutdown().then(() => process.exit(0)));
        process.on('SIGTERM', () => void shutdown().then(() => process.exit(0)));
        await server.connect(transport);
        process.stderr.write(`engram mcp: serving ${resolveDbPath(flags)} over stdio, scopes ${scopes.join(', ')}\n`);
      } catch (error) {
        process.exitCode = printError({ json: flags.json === true }, error);
      }
    });
}
