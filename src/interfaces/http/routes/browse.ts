/**
 * Browse and purge: `GET /v1/memories` (filtered keyset pages), `GET /v1/scopes` (the
 * visible scopes with counts) and `POST /v1/purge` (the only hard delete).
 *
 * Visible scopes: an API key sees its tenant's existing scopes; a keyless (loopback) caller sees the
 * server's `--scope` list when it has one, else every scope. Named scopes must be among them.
 */
import { z } from 'zod';
import { EngramError } from '../../../core/errors.js';
import { instantFromText } from '../../../core/instant.js';
import { LAYERS, STATUSES } from '../../../core/memory.js';
import { BROWSE_SORTS } from '../../../core/ports/store.js';
import { browseFilterSchema, purgeInputSchema, type ListInput, type ScopesInput } from '../../../core/browse/schemas.js';
import { CONFIRM_MESSAGE } from '../../../core/purge/purge.js';
import { parseInput } from '../../../core/schemas.js';
import { assertReadScopes, tenantOf, type Scope } from '../../../core/scope.js';
import { memoryViewSchema } from '../request-schemas.js';
import type { QueryParam, RouteContext, RouteSpec } from '../route.js';
import { isObject, numberParam, oneParam } from './params.js';

const TAG = 'browse';

/** The scopes a request may browse, or names: the selection handed to the engine. */
export function selection(ctx: RouteContext, named: readonly Scope[]): Pick<ListInput, 'scopes' | 'tenant' | 'allScopes'> {
  ctx.authorize(named);
  if (named.length > 0) return { scopes: [...named] };
  if (ctx.principal !== null) {
    if (ctx.serverScopes.length === 0) return { tenant: ctx.principal.tenant };
    // a --scope server: the key's tenant's scopes of its list
    const own = ctx.serverScopes.filter((scope) => tenantOf(scope) === ctx.principal?.tenant);
    if (own.length === 0) {
      throw new EngramError(
        'SCOPE_DENIED',
        `This server serves no scope of tenant "${ctx.principal.tenant}": it serves ${ctx.serverScopes.map((s) => `"${s}"`).join(', ')} (--scope).`,
        { details: { tenant: ctx.principal.tenant } },
      );
    }
    return { scopes: own };
  }
  return ctx.serverScopes.length === 0 ? { allScopes: true } : { scopes: [...ctx.serverScopes] };
}

/** Values of a repeatable (or comma-separated) parameter. */
function many(query: URLSearchParams, ...names: string[]): string[] {
  return names
    .flatMap((name) => query.getAll(name))
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** Checks each value of a repeatable enum parameter, naming the parameter as the client wrote it. */
function members<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T[] | undefined {
  const values = many(query, name);
  if (values.length === 0) return undefined;
  for (const value of values) {
    if (!allowed.includes(value as T)) {
      throw new EngramError('INVALID_INPUT', `Invalid input: ${name} "${value.slice(0, 40)}" is not one of ${allowed.join(', ')}.`, {
        details: { field: name },
      });
    }
  }
  return values as T[];
}

const INSTANT = 'ISO 8601 (2024-05-01, 2024-05-01T12:00:00Z) or epoch milliseconds';

const LIST_PARAMS: readonly QueryParam[] = [
  {
    name: 'scope',
    description:
      "Scopes to list (repeatable or comma-separated; default: every scope this request may see: its key's tenant, or the server's --scope list)",
    list: true,
    example: 'acme/users/alice',
    aliases: ['scopes'],
  },
  {
    name: 'layer',
    description: `Only these layers (repeatable): ${LAYERS.join(', ')}`,
    list: true,
    schema: { type: 'string', enum: [...LAYERS] },
  },
  {
    name: 'status',
    description: `Only these statuses (repeatable; default every status): ${STATUSES.join(', ')}`,
    list: true,
    schema: { type: 'string', enum: [...STATUSES] },
  },
  { name: 'tag', description: 'Records carrying this tag (ASCII case-insensitive)' },
  { name: 'entity', description: 'Records naming this entity (ASCII case-insensitive)' },
  { name: 'text', description: 'Records whose content contains this text: a plain substring (ASCII case-insensitive), not ranked recall' },
  { name: 'validFrom', description: `Valid time overlaps [validFrom, validTo): ${INSTANT}` },
  { name: 'validTo', description: `Valid time overlaps [validFrom, validTo): ${INSTANT}` },
  { name: 'recordedFrom', description: `recordedAt ≥ recordedFrom: ${INSTANT}` },
  { name: 'recordedTo', description: `recordedAt < recordedTo: ${INSTANT}` },
  {
    name: 'asOf',
    description: `Only what was true at this instant (valid time), as believed at knownAt (default now): the visibility rule of recall. ${INSTANT}`,
  },
  { name: 'knownAt', description: `Only what the store believed at this instant (transaction time). ${INSTANT}` },
  {
    name: 'sort',
    description: 'recordedAt (default), validFrom, importance (pending counts as 1) or accessedAt (never accessed first ascending)',
    schema: { type: 'string', enum: [...BROWSE_SORTS] },
  },
  { name: 'order', description: 'desc (default) or asc', schema: { type: 'string', enum: ['desc', 'asc'] } },
  { name: 'limit', description: 'Records per page, 1-200 (default 50)', schema: { type: 'integer', minimum: 1, maximum: 200 } },
  { name: 'cursor', description: 'nextCursor of the previous page (opaque; only valid with the same filters, sort and order)' },
];

const list: RouteSpec = {
  method: 'get',
  path: '/v1/memories',
  operationId: 'listMemories',
  tag: TAG,
  summary: 'Browse stored memories: filtered pages in a stable order (keyset pagination), any status unless filtered',
  description:
    'Not ranked recall: lists what is stored, newest first by default. Pages are keyset-paginated on (sort key, id), so writes between pages never repeat or skip a record that existed before. Pass `nextCursor` back as `cursor` (with the same filters) for the next page; it is null on the last page.',
  query: LIST_PARAMS,
  response: z
    .object({
      items: z.array(memoryViewSchema),
      nextCursor: z.string().nullable().describe('Pass back as cursor for the next page; null on the last page'),
    })
    .meta({ id: 'MemoryPage' }),
  responseDescription: 'One page of memories and the cursor of the next',
  async handle(ctx) {
    const { query } = ctx;
    const named = assertNamed(many(query, 'scope', 'scopes'));
    const input: Record<string, unknown> = {
      ...selection(ctx, named),
      layers: members(query, 'layer', LAYERS),
      statuses: members(query, 'status', STATUSES),
      tag: oneParam(query, 'tag'),
      entity: oneParam(query, 'entity'),
      text: oneParam(query, 'text'),
      validFrom: instantFromText(oneParam(query, 'validFrom')),
      validTo: instantFromText(oneParam(query, 'validTo')),
      recordedFrom: instantFromText(oneParam(query, 'recordedFrom')),
      recordedTo: instantFromText(oneParam(query, 'recordedTo')),
      asOf: instantFromText(oneParam(query, 'asOf')),
      knownAt: instantFromText(oneParam(query, 'knownAt')),
      sort: oneParam(query, 'sort'),
      order: oneParam(query, 'order'),
      limit: numberParam(query, 'limit'),
      cursor: oneParam(query, 'cursor'),
    };
    for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
    return ctx.engram.list(input as ListInput);
  },
};

const scopeSummarySchema = z
  .object({
    scope: z.string(),
    total: z.number(),
    byLayer: z.record(z.string(), z.number()),
    byStatus: z.record(z.string(), z.number()),
  })
  .meta({ id: 'ScopeSummary' });

const scopes: RouteSpec = {
  method: 'get',
  path: '/v1/scopes',
  operationId: 'listScopes',
  tag: TAG,
  summary: 'The scopes this request may see that hold memories, with counts by layer and status',
  response: z.object({ scopes: z.array(scopeSummarySchema) }).meta({ id: 'ScopeList' }),
  responseDescription: 'Scopes in code-point order',
  async handle(ctx) {
    return { scopes: await ctx.engram.scopes(selection(ctx, []) as ScopesInput) };
  },
};

/** `POST /v1/purge` as documented. */
const purgeBodySchema = z
  .object({
    scope: purgeInputSchema.shape.scope.describe('The one scope to purge in'),
    ids: purgeInputSchema.shape.ids.describe('Records to purge; give ids or filter, or neither to purge the whole scope'),
    filter: browseFilterSchema
      .optional()
      .describe('Purge every record of the scope matching these browse filters (any status unless statuses is given)'),
    confirm: z.literal(true).describe('Must be true: a purge cannot be undone'),
  })
  .strict()
  .meta({ id: 'PurgeRequest' });

const purge: RouteSpec = {
  method: 'post',
  path: '/v1/purge',
  operationId: 'purge',
  tag: TAG,
  summary: 'Delete for good (the only hard delete): records of one scope by ids, by filter, or the whole scope',
  description:
    'Removes the records and what was derived from them alone (chunks, concepts left without refs, statistics, edges, concept refs, past wordings, lexical and vector index entries) and leaves an audit entry without content. A purged correction returns the claim it superseded to active (`restored`). Without `confirm: true` nothing is removed (400). Forget (DELETE /v1/memories/{id}) is the soft delete.',
  body: purgeBodySchema,
  response: z
    .object({
      purged: z.number(),
      removed: z
        .object({
          records: z.number(),
          chunks: z.number(),
          edges: z.number(),
          refs: z.number(),
          statistics: z.number(),
          history: z.number(),
          indexEntries: z.number(),
          states: z.number(),
        })
        .meta({ id: 'PurgeRemoved' }),
      restored: z.array(z.string()),
      auditId: z.string(),
    })
    .meta({ id: 'PurgeResult' }),
  responseDescription: 'What was removed, which predecessors are current again, and the audit entry',
  async handle(ctx) {
    if (!isObject(ctx.body) || ctx.body.confirm !== true)
      throw new EngramError('INVALID_INPUT', CONFIRM_MESSAGE, { details: { field: 'confirm' } });
    const input = parseInput(purgeInputSchema, ctx.body, 'purge');
    selection(ctx, [input.scope]);
    return ctx.engram.purge(input, { actor: httpActor(ctx) });
  },
};

/** Who an audit entry names for a request: its API key and tenant, or a keyless loopback caller. */
export function httpActor(ctx: RouteContext): string {
  return ctx.principal !== null ? `api-key ${ctx.principal.keyId} (tenant ${ctx.principal.tenant})` : 'http (keyless, loopback)';
}

function assertNamed(values: string[]): readonly Scope[] {
  return values.length === 0 ? [] : assertReadScopes(values);
}

/** The browse routes. */
export const browseRoutes: readonly RouteSpec[] = [list, scopes, purge];
