/**
 * Input schemas of browsing (`list`, `scopes`) and of `purge`, shared by the library, CLI, MCP and HTTP.
 */
import { z } from 'zod';
import { LAYERS, STATUSES } from '../memory.js';
import { BROWSE_SORTS } from '../ports/store.js';
import { instantSchema, scopeSchema } from '../schemas.js';
import { messages } from '../errors.js';
import { scopeProblem } from '../scope.js';
import { cutText } from '../text/cut-text.js';

/** Most records one page of a browse returns. */
export const MAX_LIST_LIMIT = 200;
/** Records per page when no limit is given. */
export const DEFAULT_LIST_LIMIT = 50;

/** A tenant: the first segment of a scope. */
export const tenantSchema = z.string().superRefine((value, ctx) => {
  const problem = value.includes('/') ? 'a tenant is one segment, without "/"' : scopeProblem(value);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: `invalid tenant "${cutText(value, 80)}": ${problem}` });
});

/** The filters of a browse, also used by a purge by filter. */
export const browseFilterShape = {
  layers: z.array(z.enum(LAYERS)).min(1).max(16).optional(),
  statuses: z.array(z.enum(STATUSES)).min(1).max(16).optional(),
  tag: z.string().min(1).max(100).optional(),
  entity: z.string().min(1).max(200).optional(),
  text: z.string().min(1).max(1000).optional(),
  validFrom: instantSchema.optional(),
  validTo: instantSchema.optional(),
  recordedFrom: instantSchema.optional(),
  recordedTo: instantSchema.optional(),
};

function checkRanges(
  input: {
    validFrom?: number | undefined;
    validTo?: number | undefined;
    recordedFrom?: number | undefined;
    recordedTo?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (input.validFrom !== undefined && input.validTo !== undefined && input.validTo <= input.validFrom) {
    ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'must be after validFrom' });
  }
  if (input.recordedFrom !== undefined && input.recordedTo !== undefined && input.recordedTo <= input.recordedFrom) {
    ctx.addIssue({ code: 'custom', path: ['recordedTo'], message: 'must be after recordedFrom' });
  }
}

/** `filter` of a purge: the browse filters without paging. */
export const browseFilterSchema = z.object(browseFilterShape).strict().superRefine(checkRanges);
export type BrowseFilterInput = z.input<typeof browseFilterSchema>;

/**
 * Which scopes a browse sees: the `scopes` named, every existing scope of one `tenant`, or
 * `allScopes: true` (every scope of the store: for its owner, e.g. the CLI on a local file).
 */
const selectionShape = {
  scopes: z.union([scopeSchema, z.array(scopeSchema).min(1).max(1000)]).optional(),
  tenant: tenantSchema.optional(),
  allScopes: z.literal(true).optional(),
};

function checkSelection(input: { scopes?: unknown; tenant?: unknown; allScopes?: unknown }, ctx: z.RefinementCtx): void {
  const given = [input.scopes, input.tenant, input.allScopes].filter((v) => v !== undefined).length;
  if (given === 0)
    ctx.addIssue({
      code: 'custom',
      path: ['scopes'],
      message: `is missing. ${messages.noScopes()} For a browse, tenant or allScopes: true also select scopes.`,
    });
  if (given > 1) ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'give one of scopes, tenant or allScopes, not several' });
}

/** Input of `list`: which scopes, the filters, the order and the page. */
export const listInputSchema = z
  .object({
    ...selectionShape,
    ...browseFilterShape,
    /** Only what was true at this instant (valid time), as believed at `knownAt` (default now), as recall reads it. */
    asOf: instantSchema.optional(),
    /** Only what the store believed at this instant (transaction time). */
    knownAt: instantSchema.optional(),
    sort: z.enum(BROWSE_SORTS).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional(),
    cursor: z.string().min(1).max(2000).optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    checkSelection(input, ctx);
    checkRanges(input, ctx);
  });
export type ListInput = z.input<typeof listInputSchema>;
export type ParsedListInput = z.output<typeof listInputSchema>;

/** Input of `scopes`: which scopes to count (one of scopes, tenant, allScopes). */
export const scopesInputSchema = z.object(selectionShape).strict().superRefine(checkSelection);
export type ScopesInput = z.input<typeof scopesInputSchema>;

/** Input of `purge`: one scope and what in it (ids, a filter, or, with neither, the whole scope). */
export const purgeInputSchema = z
  .object({
    scope: scopeSchema,
    ids: z.array(z.string().min(1).max(200)).min(1).max(10_000).optional(),
    filter: browseFilterSchema.optional(),
    confirm: z.literal(true),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.ids !== undefined && input.filter !== undefined)
      ctx.addIssue({ code: 'custom', path: ['ids'], message: 'give ids or filter, not both' });
  });
export type PurgeInput = z.input<typeof purgeInputSchema>;
