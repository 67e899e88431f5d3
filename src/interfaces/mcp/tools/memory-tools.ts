/**
 * The record tools: memory_remember, memory_recall, memory_get, memory_update, memory_forget, memory_stats.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RememberInput, UpdateInput } from '../../../core/schemas.js';
import { renderHits, renderListItem, renderMemory, renderMemoryLine, renderRemember } from '../render.js';
import { guarded, ok, readScopes, writeScope, type ToolContext } from '../tool-context.js';
import { forgetShape, getShape, listShape, recallShape, rememberShape, statsShape, updateShape } from './shapes.js';

/** Registers the record tools on `server`. */
export function registerMemoryTools(server: McpServer, context: ToolContext): void {
  const { engram } = context;

  server.registerTool(
    'memory_remember',
    {
      title: 'Remember',
      description: [
        'Store a memory in long-term memory. Use it for anything worth knowing later: facts about the user or project',
        '(layer "semantic"), rules to follow (layer "procedural"), and what happened (layer "episodic", the default).',
        'A corrected fact supersedes the old one (which stays in history); the same fact stated again is merged, not duplicated.',
        'Episodes may be structured: perception {objects, people}, context {goal}, decision, action {tool, args}, outcome {success, reward}.',
        'With capture: true, a conversation turn also becomes claims (one per claim-shaped sentence).',
        'Returns {id, action: created | merged | superseded | unchanged, mergedInto?, superseded?, claims?: [{id, action, superseded?}]}.',
      ].join(' '),
      inputSchema: z.object(rememberShape).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const scope = writeScope(context, args.scope);
        if (args.userScope !== undefined) writeScope(context, args.userScope);
        const result = await engram.remember({ ...(args as RememberInput), scope });
        return ok({ ...result, scope }, renderRemember(result));
      }),
  );

  server.registerTool(
    'memory_recall',
    {
      title: 'Recall',
      description: [
        'Search long-term memory for what is relevant to a query (keywords, meaning, names, dates, related memories).',
        'Returns only what is current unless asOf ("what was true then") or knownAt ("what did we believe then") is given.',
        'Each hit has its id, content, layer, times, relevance (0..1: how strongly it matches the query, not relative to other hits; above 0.6 a clear match, below 0.3 a weak one), score (ranking only) and why it was returned (rank and score per channel).',
      ].join(' '),
      inputSchema: z.object(recallShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { scope: _scope, scopes: _scopes, query, ...options } = args;
        const scopes = readScopes(context, args);
        const result = await engram.recall(query, { ...options, scopes });
        const skipped = result.skipped !== undefined ? `\n(${result.skipped.length} damaged memories left out: ${result.skipped.map((s) => s.id).join(', ')}; memory_forget removes them)` : '';
        return ok({ scopes, hits: result.hits, ...(result.skipped !== undefined ? { skipped: result.skipped } : {}) }, renderHits(result.hits) + skipped);
      }),
  );

  server.registerTool(
    'memory_get',
    {
      title: 'Get a memory',
      description: 'Read one memory by id, whatever its status (active, superseded, decayed, deleted), with all its fields and provenance.',
      inputSchema: z.object(getShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const memory = await engram.get(args.id, { scopes: readScopes(context, args) });
        return ok({ memory }, renderMemory(memory));
      }),
  );

  server.registerTool(
    'memory_update',
    {
      title: 'Update a memory',
      description:
        'Change fields of one memory in place (content, summary, importance, confidence, tags, pinned, validFrom, validTo, occurredAt, emotion). A content change is re-embedded and the old wording kept in history. To record that a fact changed in the world, prefer memory_remember with the new fact: it supersedes the old one and keeps the timeline.',
      inputSchema: z.object(updateShape).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { id, scope: named, ...patch } = args;
        const scope = writeScope(context, named);
        const memory = await engram.update(id, patch as UpdateInput, { scope });
        return ok({ memory }, `Updated.\n${renderMemory(memory)}`);
      }),
  );

  server.registerTool(
    'memory_forget',
    {
      title: 'Forget a memory',
      description:
        'Soft-delete one memory: it leaves recall and context but is kept, and {restore: true} brings it back. Use it for memories that are wrong or unwanted; a fact that merely changed should be superseded with memory_remember instead.',
      inputSchema: z.object(forgetShape).strict(),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const scope = writeScope(context, args.scope);
        const memory = args.restore === true ? await engram.restore(args.id, { scope }) : await engram.forget(args.id, { scope });
        return ok({ memory }, `${args.restore === true ? 'Restored' : 'Forgotten (restore with {restore: true})'}: ${memory.id}`);
      }),
  );

  server.registerTool(
    'memory_list',
    {
      title: 'List memories',
      description: [
        'Browse what is stored, newest first, without ranking: filter by layers, statuses, tag, entity, text (a plain substring) and time;',
        'sort by recordedAt, validFrom, importance or accessedAt. Use memory_recall to search by meaning instead.',
        'Returns up to limit memories (id, layer, status, content, tags, times) and nextCursor for the next page (null on the last).',
      ].join(' '),
      inputSchema: z.object(listShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { scope: _scope, scopes: _scopes, ...filters } = args;
        const result = await engram.list({ ...filters, limit: filters.limit ?? 20, scopes: readScopes(context, args) });
        const items = result.items.map(renderListItem);
        const lines = result.items.map((item, i) => `${i + 1}. ${renderMemoryLine(item)}`);
        if (lines.length === 0) lines.push('No memories match.');
        if (result.nextCursor !== null) lines.push(`More: call again with cursor "${result.nextCursor}".`);
        return ok({ items, nextCursor: result.nextCursor }, lines.join('\n'));
      }),
  );

  server.registerTool(
    'memory_stats',
    {
      title: 'Memory statistics',
      description: 'Counts of memories by layer (concepts counted apart) and status, and edges, in the scopes read (default: every scope this server may use).',
      inputSchema: z.object(statsShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const stats = await engram.stats({ scopes: readScopes(context, args) });
        const text = [
          `scopes: ${stats.scopes.join(', ')}`,
          `memories: ${stats.total}`,
          `by layer: ${JSON.stringify(stats.byLayer)}`,
          `concepts: ${stats.concepts}`,
          `by status: ${JSON.stringify(stats.byStatus)}`,
          `edges: ${stats.edges}`,
        ].join('\n');
        return ok({ ...stats }, text);
      }),
  );
}
