/**
 * The reads the web UI explores a store with: consolidation runs and their reports, an overview, the
 * knowledge graph, a memory's versions and provenance. Each names its scopes (`?scope=`, repeatable);
 * an API key may name its tenant's scopes only, a keyless caller those of the server's --scope list.
 */
import { EngramError, messages } from '../../../core/errors.js';
import { assertReadScopes, type Scope } from '../../../core/scope.js';
import type { QueryParam, RouteContext, RouteSpec } from '../route.js';
import { selection } from './browse.js';
import { numberParam, oneParam } from './params.js';
import {
  consolidationReportSchema,
  consolidationRunsSchema,
  graphSchema,
  overviewSchema,
  provenanceSchema,
  versionsSchema,
} from './explore-schemas.js';

const SCOPE: QueryParam = {
  name: 'scope',
  description: 'Scopes the read may see (repeatable or comma-separated; `scopes` is accepted too). Required.',
  required: true,
  list: true,
  aliases: ['scopes'],
};

/** The named scopes of a read, checked against what the caller may see. */
function scopesOf(ctx: RouteContext): Scope[] {
  const values = [...ctx.query.getAll('scope'), ...ctx.query.getAll('scopes')]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  if (values.length === 0) throw new EngramError('INVALID_INPUT', messages.noScopes(), { details: { field: 'scope' } });
  const named = assertReadScopes(values);
  return [...(selection(ctx, named).scopes as Scope[])];
}

const TAG = 'explore';

const runs: RouteSpec = {
  method: 'get',
  path: '/v1/consolidation/runs',
  operationId: 'listConsolidationRuns',
  tag: TAG,
  summary: 'The reports of past consolidation runs of the scopes, newest first',
  description:
    'Keyset pages on (run id, scope): pass `nextCursor` back as `cursor` (with the same scopes); it is null on the last page. Each phase lists the ids it created (`ids`), superseded, merged, decayed and expired (at most 50 each).',
  query: [
    SCOPE,
    { name: 'limit', description: 'Runs per page, 1-100 (default 20)' },
    { name: 'cursor', description: 'nextCursor of the previous page' },
  ],
  response: consolidationRunsSchema,
  responseDescription: 'One page of run reports',
  async handle(ctx) {
    const limit = numberParam(ctx.query, 'limit');
    const cursor = oneParam(ctx.query, 'cursor');
    return ctx.engram.consolidationRuns({
      scopes: scopesOf(ctx),
      ...(limit !== undefined ? { limit: limit as number } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
  },
};

const run: RouteSpec = {
  method: 'get',
  path: '/v1/consolidation/runs/:id',
  operationId: 'getConsolidationRun',
  tag: TAG,
  summary: 'The report of one consolidation run (404 when none of the scopes has it)',
  query: [SCOPE],
  response: consolidationReportSchema,
  responseDescription: 'The run report',
  notFound: 'No consolidation run with this id in the scopes named (NOT_FOUND)',
  handle: async (ctx) => ctx.engram.consolidationRun(ctx.params.id as string, { scopes: scopesOf(ctx) }),
};

const overview: RouteSpec = {
  method: 'get',
  path: '/v1/overview',
  operationId: 'overview',
  tag: TAG,
  summary: 'Counts by layer and status, growth per day, what decays next, pending jobs and the last consolidation run',
  description:
    'Aggregates only (no record is loaded beyond the 20 decay candidates), so it stays fast at any size. Growth counts records by the UTC day they were recorded, for the 365 most recent days that have any.',
  query: [SCOPE],
  response: overviewSchema,
  responseDescription: 'The overview of the scopes',
  handle: async (ctx) => ctx.engram.overview({ scopes: scopesOf(ctx) }),
};

const graph: RouteSpec = {
  method: 'get',
  path: '/v1/graph',
  operationId: 'graph',
  tag: TAG,
  summary: 'The knowledge graph: concepts and their relations, or the neighbourhood of a focus record or concept',
  description:
    'Without `focus`: the active concepts (highest salience first) and the current edges among them. With `focus`: that node, its neighbours over current edges and concept refs (edge type `REF`, from the record to the concept it feeds), and the edges among them. At most `limit` nodes; `truncated` says when more were there.',
  query: [
    SCOPE,
    { name: 'relationType', description: 'Only edges of these types (repeatable; REF for concept refs)', list: true },
    { name: 'focus', description: 'A record or concept id: its neighbourhood' },
    { name: 'limit', description: 'Most nodes, 1-1000 (default 200)' },
  ],
  response: graphSchema,
  responseDescription: 'Nodes and edges',
  notFound: 'The `focus` record or concept is not in the scopes named (NOT_FOUND)',
  async handle(ctx) {
    const types = ctx.query
      .getAll('relationType')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
    const focus = oneParam(ctx.query, 'focus');
    const limit = numberParam(ctx.query, 'limit');
    return ctx.engram.graph({
      scopes: scopesOf(ctx),
      ...(types.length > 0 ? { relationTypes: types } : {}),
      ...(focus !== undefined ? { focus } : {}),
      ...(limit !== undefined ? { limit: limit as number } : {}),
    });
  },
};

/** A read of one memory by id that names its scopes. */
function byId(
  options: Pick<RouteSpec, 'path' | 'operationId' | 'summary' | 'response' | 'responseDescription'> & { run: 'versions' | 'provenance' },
): RouteSpec {
  const { run, ...spec } = options;
  return {
    method: 'get',
    tag: TAG,
    query: [SCOPE],
    notFound: 'No memory with this id in the scopes named (NOT_FOUND)',
    ...spec,
    handle: async (ctx) => ctx.engram[run](ctx.params.id as string, { scopes: scopesOf(ctx) }),
  };
}

const versions = byId({
  path: '/v1/memories/:id/versions',
  operationId: 'memoryVersions',
  summary: 'The whole supersession chain a memory belongs to, oldest first, with valid time and transaction time of every version',
  response: versionsSchema,
  responseDescription: 'The chain',
  run: 'versions',
});

const provenance = byId({
  path: '/v1/memories/:id/provenance',
  operationId: 'memoryProvenance',
  summary:
    'What a memory was derived from (records, source messages), what was derived from it, and the concepts it feeds with their statistics',
  response: provenanceSchema,
  responseDescription: 'Sources, derived records and concepts',
  run: 'provenance',
});

/** The exploring routes. */
export const exploreRoutes: readonly RouteSpec[] = [runs, run, overview, graph, versions, provenance];
