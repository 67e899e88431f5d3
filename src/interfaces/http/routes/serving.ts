/**
 * Context, prediction, the graph (relate, relation types, edges, activation) and the sleep cycle
 * (consolidate, end of session): thin shells over the engine methods of the same names.
 */
import { z } from 'zod';
import { endSessionInputSchema, consolidateInputSchema } from '../../../consolidation/schemas.js';
import { contextInputSchema, predictInputSchema } from '../../../serving/schemas.js';
import { EngramError } from '../../../core/errors.js';
import { activateOptionsSchema } from '../../../core/graph/activate.js';
import { instantFromText } from '../../../core/instant.js';
import { activationSchema, consolidationReportSchema } from './explore-schemas.js';
import {
  memoryEdgesSchema,
  predictResultSchema,
  relateResultSchema,
  relationTypeSchema,
  relationTypesSchema,
  structuredContextSchema,
} from '../response-schemas.js';
import { registerRelationInputSchema, relateInputSchema } from '../../../core/graph/relations-api.js';
import { parseInput } from '../../../core/schemas.js';
import type { RouteContext, RouteSpec } from '../route.js';
import { isObject, readScopesFromQuery, SCOPES_PARAM, scopesNamedIn } from './params.js';

/** Checks the caller may name the body's `scope` / `scopes` (there must be at least one). */
function authorizeBody(ctx: RouteContext, what: string): Record<string, unknown> {
  if (!isObject(ctx.body)) throw new EngramError('INVALID_INPUT', `The body of ${what} must be a JSON object.`);
  const scopes = scopesNamedIn(ctx.body);
  if (scopes.length === 0) {
    throw new EngramError('INVALID_INPUT', `${what} must name its scope ("scope": "tenant/..." or "scopes": ["tenant/..."]).`, {
      details: { field: 'scope' },
    });
  }
  ctx.authorize(scopes);
  return ctx.body;
}

/** `POST /v1/activate`: the start record(s) plus the activation options. */
const activateRequestSchema = activateOptionsSchema.extend({
  id: z.union([z.string().min(1).max(100), z.array(z.string().min(1).max(100)).min(1).max(100)]),
});

/** Context, prediction, graph and consolidation routes. */
export const servingRoutes: readonly RouteSpec[] = [
  {
    method: 'post',
    path: '/v1/context',
    operationId: 'context',
    tag: 'serving',
    summary: 'A structured context for a turn within a time and token budget',
    description:
      'Procedural rules (always), profile facts, knowledge, live concepts for what is perceived, predictions and relevant episodes, each part labelled with the level it reached (full, cached, minimal, skipped); `markdown` is ready for a prompt.',
    body: contextInputSchema,
    response: structuredContextSchema,
    responseDescription: 'The structured context (with `markdown`)',
    handle: (ctx) => ctx.engram.context(authorizeBody(ctx, 'context') as Parameters<typeof ctx.engram.context>[0]),
  },
  {
    method: 'post',
    path: '/v1/predict',
    operationId: 'predict',
    tag: 'serving',
    summary: 'Pattern completion: likely actions and outcomes for a forming episode',
    body: predictInputSchema,
    response: predictResultSchema,
    responseDescription: 'Predictions with probability, confidence and supporting episode ids',
    handle: (ctx) => ctx.engram.predict(authorizeBody(ctx, 'predict') as Parameters<typeof ctx.engram.predict>[0]),
  },
  {
    method: 'post',
    path: '/v1/relations',
    operationId: 'relate',
    tag: 'graph',
    summary: 'Relate two memories of one scope with a registered type (an existing current edge gets the new weight)',
    body: relateInputSchema,
    response: relateResultSchema,
    responseDescription: 'What happened (created or updated) and the edge',
    notFound: 'The `from` or the `to` memory is not in the scope (NOT_FOUND)',
    conflict: 'The `from` or the `to` memory was expired for good (a tombstone without content): it cannot be related (CONFLICT)',
    handle: (ctx) => ctx.engram.relate(authorizeBody(ctx, 'relate') as Parameters<typeof ctx.engram.relate>[0]),
  },
  {
    method: 'get',
    path: '/v1/relations/types',
    operationId: 'relationTypes',
    tag: 'graph',
    summary: 'The relation types the given scopes may use: the built-ins and those registered by their tenants',
    description:
      "Registered types belong to a tenant and are never listed for another. With an API key, `scopes` defaults to the key's tenant.",
    query: [SCOPES_PARAM],
    response: relationTypesSchema,
    responseDescription: 'Relation types by name',
    async handle(ctx) {
      const named = ctx.query.getAll('scopes').length + ctx.query.getAll('scope').length > 0;
      const scopes = !named && ctx.principal !== null ? [ctx.principal.tenant] : readScopesFromQuery(ctx.query);
      // the key's tenant, not a scope of it: held to the tenants the server serves
      if (!named && ctx.principal !== null) ctx.authorizeTenant(ctx.principal.tenant);
      else ctx.authorize(scopes);
      return { types: await ctx.engram.relations({ scopes }) };
    },
  },
  {
    method: 'post',
    path: '/v1/relations/types',
    operationId: 'registerRelationType',
    tag: 'graph',
    summary: 'Register a run-time relation type for the tenant of `scope` (recorded as proposed; idempotent)',
    description: 'With an API key, `proposedBy` is always the key (`key:<id>`); a `proposedBy` in the body is ignored.',
    body: registerRelationInputSchema,
    response: relationTypeSchema,
    conflict: 'The name is already registered with another direction (symmetric or not) (CONFLICT)',
    responseDescription: 'The registered type',
    async handle(ctx) {
      const input = parseInput(registerRelationInputSchema, authorizeBody(ctx, 'registering a relation type'), 'relation type');
      // the caller's identity, not the body, says who proposed it when a key is used
      const proposedBy = ctx.principal !== null ? `key:${ctx.principal.keyId}` : input.proposedBy;
      return ctx.engram.registerRelation({ ...input, ...(proposedBy !== undefined ? { proposedBy } : {}) });
    },
  },
  {
    method: 'get',
    path: '/v1/memories/:id/edges',
    operationId: 'memoryEdges',
    tag: 'graph',
    summary: 'The edges of one memory (symmetric types read "both" from either end); 404 when no scope holds the memory',
    query: [
      SCOPES_PARAM,
      { name: 'types', description: 'Only these relation types (comma-separated or repeated)', list: true },
      { name: 'asOf', description: 'Valid time instant (ISO 8601 or epoch ms)' },
      { name: 'knownAt', description: 'Transaction time instant (ISO 8601 or epoch ms)' },
    ],
    response: memoryEdgesSchema,
    responseDescription: 'Edges with their direction and the other end',
    notFound: 'No memory with this id in the scopes named (NOT_FOUND)',
    async handle(ctx) {
      const scopes = readScopesFromQuery(ctx.query);
      ctx.authorize(scopes);
      const types = ctx.query
        .getAll('types')
        .flatMap((t) => t.split(','))
        .filter((t) => t.length > 0);
      const asOf = ctx.query.get('asOf');
      const knownAt = ctx.query.get('knownAt');
      const id = ctx.params.id as string;
      const edges = await ctx.engram.edges(id, {
        scopes,
        ...(types.length > 0 ? { types } : {}),
        ...(asOf !== null ? { asOf: instantFromText(asOf) } : {}),
        ...(knownAt !== null ? { knownAt: instantFromText(knownAt) } : {}),
      });
      // the engine reads no edges for an unknown id: 404 as every other read by id (get is not an access)
      if (edges.length === 0) await ctx.engram.get(id, { scopes });
      return { edges };
    },
  },
  {
    method: 'post',
    path: '/v1/activate',
    operationId: 'activate',
    tag: 'graph',
    summary: 'Cross-layer spreading activation from one or more memories, never leaving the scopes',
    body: activateRequestSchema,
    response: activationSchema,
    responseDescription: 'Ranked records per layer with the paths that reached them, and the waves of the spreading (steps)',
    notFound: 'None of the seed ids is a memory in the scopes named (NOT_FOUND)',
    async handle(ctx) {
      const { id, ...options } = parseInput(activateRequestSchema, ctx.body, 'activate');
      ctx.authorize(Array.isArray(options.scopes) ? options.scopes : [options.scopes as string]);
      return ctx.engram.activate(id, options);
    },
  },
  {
    method: 'post',
    path: '/v1/consolidate',
    operationId: 'consolidate',
    tag: 'consolidation',
    summary: 'Run the sleep cycle on a scope and return its report',
    description:
      'One cycle per scope at a time, across every server on the database: while another runs, the answer is 409 with code LOCKED. Each phase says what it examined, created and updated, or that it did nothing.',
    body: consolidateInputSchema,
    response: consolidationReportSchema,
    conflict: 'Another consolidation cycle of the scope is running (LOCKED): retry when it has finished',
    responseDescription: 'The consolidation report',
    handle: (ctx) => ctx.engram.consolidate(authorizeBody(ctx, 'consolidate') as Parameters<typeof ctx.engram.consolidate>[0]),
  },
  {
    method: 'post',
    path: '/v1/sessions/end',
    operationId: 'endSession',
    tag: 'consolidation',
    summary: 'End a session: runs the mandatory consolidation of the scope, reflection included',
    body: endSessionInputSchema,
    response: consolidationReportSchema,
    conflict: 'Another consolidation cycle of the scope is running (LOCKED): retry when it has finished',
    responseDescription: 'The consolidation report',
    handle: (ctx) => ctx.engram.endSession(authorizeBody(ctx, 'endSession') as Parameters<typeof ctx.engram.endSession>[0]),
  },
];
