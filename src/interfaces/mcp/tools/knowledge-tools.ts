/**
 * The knowledge tools: memory_context, memory_predict, memory_relate, memory_consolidate.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { PredictInput } from '../../../serving/schemas.js';
import { renderJson } from '../render.js';
import { guarded, ok, readScopes, wallClock, writeScope, type ToolContext } from '../tool-context.js';
import { consolidateShape, contextShape, predictShape, relateShape } from './shapes.js';

/** Registers the knowledge tools on `server`. */
export function registerKnowledgeTools(server: McpServer, context: ToolContext): void {
  const { engram } = context;

  server.registerTool(
    'memory_context',
    {
      title: 'Context for this turn',
      description:
        'Call at the start of a task: the memory context of the message in one call (rules, profile facts, knowledge, perceived concepts, predictions, relevant episodes with sources), as Markdown plus JSON, within a time budget.',
      inputSchema: z.object(contextShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { scope: _scope, scopes: _scopes, timeZone, ...rest } = args;
        const result = asObject(await engram.context({ ...rest, scopes: readScopes(context, args), ...wallClock(timeZone) }));
        return ok(result, typeof result.markdown === 'string' ? result.markdown : renderJson(result));
      }),
  );

  server.registerTool(
    'memory_predict',
    {
      title: 'Predict outcomes',
      description:
        'Pattern completion: from a forming episode, predict actions and outcomes from similar past ones: {action, outcome, successProbability, confidence, supportingEpisodeIds}.',
      inputSchema: z.object(predictShape).strict(),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const { scope: _scope, scopes: _scopes, ...rest } = args;
        const result = asObject(await engram.predict({ ...rest, scopes: readScopes(context, args) } as unknown as PredictInput));
        return ok(result, renderPredictions(result));
      }),
  );

  server.registerTool(
    'memory_relate',
    {
      title: 'Relate two memories',
      description:
        'Add a typed edge between two memories of one scope, e.g. {from, type: "CAUSES", to}; again with the same type updates the weight. Returns {edge, action: created | updated}.',
      inputSchema: z.object(relateShape).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const scope = writeScope(context, args.scope);
        const result = await engram.relate({ ...args, scope });
        return ok(
          { ...result },
          `${result.action === 'created' ? 'Related' : 'Updated the relation'}: ${result.edge.from} ${result.edge.type} ${result.edge.to} (weight ${result.edge.weight}).`,
        );
      }),
  );

  server.registerTool(
    'memory_consolidate',
    {
      title: 'Consolidate (sleep cycle)',
      description:
        'Run the sleep cycle on one scope (dedup, supersede, extract, ground, promote, recombine, insight, reflect, affect, decay, compress). Returns a report per phase, with totals of bridges, insights and cautions. Safe to repeat.',
      inputSchema: z.object(consolidateShape).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const scope = writeScope(context, args.scope);
        const result = asObject(await engram.consolidate({ ...args, scope }));
        return ok(result, renderJson(result));
      }),
  );
}

/** Structured content must be an object; wrap anything else. */
function asObject(value: unknown): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  return { result: value ?? null };
}

function renderPredictions(result: Record<string, unknown>): string {
  const predictions = Array.isArray(result.predictions) ? (result.predictions as Record<string, unknown>[]) : [];
  if (predictions.length === 0) return 'No prediction: no similar past episodes.';
  return predictions
    .map((p, i) => {
      const probability = typeof p.successProbability === 'number' ? p.successProbability.toFixed(3) : '?';
      const support = Array.isArray(p.supportingEpisodeIds) ? p.supportingEpisodeIds.length : 0;
      return `${i + 1}. ${String(p.action)} → ${String(p.outcome)} (success probability ${probability}, confidence ${String(p.confidence)}, ${support} supporting episodes)`;
    })
    .join('\n');
}
