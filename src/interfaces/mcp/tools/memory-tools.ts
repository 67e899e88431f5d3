/**
 * The record tools: memory_remember, memory_recall, memory_get, memory_update, memory_forget, memory_stats.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RememberInput, UpdateInput } from '../../../core/schemas.js';
import { renderHits, renderListItem, renderMemory, renderMemoryLine, renderRemember } from '../render.js';
import { guarded, ok, readScopes, wallClock, writeScope, type ToolContext } from '../tool-context.js';
import { forgetShape, getShape, listShape, recallShape, REMEMBER_GROUPS, rememberShape, statsShape, updateShape } from './shapes.js';
import { EngramError, messages } from '../../../core/errors.js';

/**
 * Moves the grouped fields of memory_remember (`episode: {…}`, `concept: {…}`, `rule: {…}`) to the top
 * level the library takes; the same field given both ways is refused rather than silently picked.
 */
export function flattenGroups(args: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...args };
  for (const [group, fields] of Object.entries(REMEMBER_GROUPS)) {
    const value = flat[group];
    if (value === undefined) continue;
    delete flat[group];
    for (const field of fields as readonly string[]) {
      const inner = (value as Record<string, unknown>)[field];
      if (inner === undefined) continue;
      if (flat[field] !== undefined) {
        throw new EngramError(
          'INVALID_INPUT',
          messages.invalidInput(`"${field}" is given both at the top level and in "${group}": give it once (in "${group}")`),
          { details: { field } },
        );
      }
      flat[field] = inner;
    }
  }
  return flat;
}

/** Registers the record tools on `server`. */
export function registerMemoryTools(server: McpServer, context: ToolContext): void {
  const { engram } = context;

  server.registerTool(
    'memory_remember',
    {
      title: 'Remember',
      description: [
        'Store a memory: facts (layer "semantic"), rules (layer "procedural"), what happened (layer "episodic", default).',
        'A corrected fact supersedes the old one (kept as history); the same fact again is merged.',
        'Decisions: episode {decision, rejected: [alternatives], follows: earlierDecisionId}.',
        'Returns {id, action: created | merged | superseded | unchanged, mergedInto?, superseded?, claims?, rejected?}.',
      ].join(' '),
      inputSchema: z.looseObject(rememberShape),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const scope = writeScope(context, args.scope);
        if (args.userScope !== undefined) writeScope(context, args.userScope);
        // "yesterday" in the text is a day of the writer's wall clock: the machine's unless the call names one
        const clock = args.timezoneOffsetMinutes !== undefined ? {} : wallClock(args.timeZone);
        const result = await engram.remember({ ...(flattenGroups(args) as RememberInput), ...clock, scope });
        return ok({ ...result, scope }, renderRemember(result));
      }),
  );

  server.registerTool(
    'memory_recall',
    {
      title: 'Recall',
      description: [
        'Search memory by keywords, meaning, names, dates and links. Only what is current unless asOf or knownAt is given.',
        'Each hit: id, content, layer, times, relevance (0..1 absolute: >0.6 clear match, <0.3 weak), score (ranking only), why (per channel).',
      ].join(' '),
      inputSchema: z.object(recallShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { scope: _scope, scopes: _scopes, query, timeZone, ...options } = args;
        const scopes = readScopes(context, args);
        const result = await engram.recall(query, { ...options, scopes, ...wallClock(timeZone) });
        const skipped =
          result.skipped !== undefined
            ? `\n(${result.skipped.length} damaged memories left out: ${result.skipped.map((s) => s.id).join(', ')}; memory_forget removes them)`
            : '';
        return ok(
          { scopes, hits: result.hits, ...(result.skipped !== undefined ? { skipped: result.skipped } : {}) },
          renderHits(result.hits) + skipped,
        );
      }),
  );

  server.registerTool(
    'memory_get',
    {
      title: 'Get a memory',
      description:
        'Read one memory by id, any status (active, superseded, decayed, deleted; an expired one is a tombstone without content), with all fields and provenance.',
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
        'Change fields of one memory in place. For a fact that changed in the world, prefer memory_remember with the new fact: it supersedes the old one and keeps the timeline.',
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
        'Soft-delete a wrong or unwanted memory (kept; {restore: true} brings it back). A fact that merely changed should be superseded with memory_remember.',
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
      description:
        'Browse what is stored, unranked (memory_recall searches by meaning): filters and sort. Returns {items: [{id, layer, status, content, tags, times}], nextCursor} (null on the last page).',
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
      description: 'Counts of memories by layer (concepts apart) and status, and of edges, in the scopes read.',
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
