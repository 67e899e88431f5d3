/**
 * Seed 001's maintenance tools: memory_surface (what is worth having in mind, no query),
 * memory_decay (the decay phase alone, or its dry run) and memory_expire (decayed records past their
 * grace period removed for good, tombstones kept; a dry run unless told otherwise).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { renderMemoryLine } from '../render.js';
import { guarded, ok, readScopes, writeScope, type ToolContext } from '../tool-context.js';
import { decayShape, expireShape, surfaceShape } from './shapes.js';

/** The audit actor of an expiry through MCP. */
const MCP_ACTOR = 'mcp';

/** Registers the maintenance tools on `server`. */
export function registerMaintenanceTools(server: McpServer, context: ToolContext): void {
  const { engram } = context;

  server.registerTool(
    'memory_surface',
    {
      title: 'Surface memories',
      description:
        'The memories most worth having in mind now, no query needed: by importance, activation (recent, frequent use) and relevance to an optional context. Returns {hits} with why {importance, activation, relevance, score}.',
      inputSchema: z.strictObject(surfaceShape),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { scope: _scope, scopes: _scopes, ...rest } = args;
        const result = await engram.surface({ ...rest, scopes: readScopes(context, args) });
        const text =
          result.hits.length === 0
            ? 'Nothing to surface.'
            : result.hits.map((h, i) => `${i + 1}. ${renderMemoryLine(h)} score ${h.score.toFixed(3)}`).join('\n');
        return ok({ hits: result.hits }, text);
      }),
  );

  server.registerTool(
    'memory_decay',
    {
      title: 'Run decay',
      description:
        'Run only the decay phase on one scope: memories idle past their importance tier (7/14/30 days) become decayed, decayed ones past the grace period are marked expired; pinned never. dryRun reports without changing. Returns the phase report.',
      inputSchema: z.strictObject(decayShape),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const report = await engram.decay({
          scope: writeScope(context, args.scope),
          ...(args.dryRun !== undefined ? { dryRun: args.dryRun } : {}),
        });
        return ok(
          { ...report },
          `${report.dryRun ? 'Dry run: ' : ''}decay of ${report.scope}: ${report.counts.decayed} decayed, ${report.counts.expired} expired (${report.note}).`,
        );
      }),
  );

  server.registerTool(
    'memory_expire',
    {
      title: 'Expire decayed memories',
      description:
        'Permanently remove decayed memories past their grace period: content, links and index entries go; a tombstone (id, status expired, expiredAt) and an audit entry stay. Dry run by default; dryRun: false removes.',
      inputSchema: z.strictObject(expireShape),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const report = await engram.expire({ scope: writeScope(context, args.scope), dryRun: args.dryRun ?? true }, { actor: MCP_ACTOR });
        const verb = report.dryRun ? 'Would expire' : 'Expired';
        return ok(
          { ...report },
          `${verb} ${report.expired} memories of ${report.scope}${report.ids.length > 0 ? `: ${report.ids.join(', ')}` : ''}.${report.dryRun && report.expired > 0 ? ' Call again with dryRun: false to remove them.' : ''}`,
        );
      }),
  );
}
