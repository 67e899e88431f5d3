/**
 * `POST /v1/recall` and `/v1/stats` (GET with query scopes, or POST with a body).
 */
import { z } from 'zod';
import { parseInput } from '../../../core/schemas.js';
import { readScopesSchema, recallRequestSchema } from '../request-schemas.js';
import { recallResultSchema } from '../response-schemas.js';
import type { RouteContext, RouteSpec } from '../route.js';
import { readScopesFromQuery, SCOPES_PARAM } from './params.js';

const recall: RouteSpec = {
  method: 'post',
  path: '/v1/recall',
  operationId: 'recall',
  tag: 'reads',
  summary: 'The memories most relevant to a query within the scopes; each hit says why',
  description:
    'Default reads return what is current. `asOf` answers "what was true at t" (valid time), `knownAt` "what did we believe at t" (transaction time); both may be given. Times are ISO 8601 strings or epoch milliseconds.',
  body: recallRequestSchema,
  response: recallResultSchema,
  responseDescription: 'Ranked hits with their per-channel explanation',
  async handle({ engram, body, authorize }) {
    const { query, ...options } = parseInput(recallRequestSchema, body, 'recall');
    authorize(options.scopes);
    return engram.recall(query, options);
  },
};

const statsResponse = z
  .object({
    scopes: z.array(z.string()),
    embedder: z.string(),
    total: z.number(),
    byLayer: z.record(z.string(), z.number()),
    concepts: z.number(),
    byStatus: z.record(z.string(), z.number()),
    edges: z.number(),
  })
  .loose()
  .meta({ id: 'Stats' });

async function stats(ctx: RouteContext, scopes: readonly string[]): Promise<unknown> {
  ctx.authorize(scopes);
  return ctx.engram.stats({ scopes });
}

/** Recall and stats. */
export const readRoutes: readonly RouteSpec[] = [
  recall,
  {
    method: 'get',
    path: '/v1/stats',
    operationId: 'statsGet',
    tag: 'reads',
    summary: 'Counts by layer and status within the scopes',
    query: [SCOPES_PARAM],
    response: statsResponse,
    responseDescription: 'Counts',
    handle: (ctx) => stats(ctx, readScopesFromQuery(ctx.query)),
  },
  {
    method: 'post',
    path: '/v1/stats',
    operationId: 'stats',
    tag: 'reads',
    summary: 'Counts by layer and status within the scopes',
    body: readScopesSchema,
    response: statsResponse,
    responseDescription: 'Counts',
    handle: (ctx) => stats(ctx, parseInput(readScopesSchema, ctx.body, 'stats').scopes),
  },
];
