/**
 * Input schemas of the exploring reads (overview, graph, versions, provenance), shared by the library
 * and HTTP. Every read names the scopes it may see.
 */
import { z } from 'zod';
import { messages } from '../errors.js';
import { readScopeListSchema, scopeSchema } from '../schemas.js';

/** The scopes of a read: one scope or a list of at least one. */
export const exploreScopesSchema = z.union([scopeSchema, readScopeListSchema.max(1000)], {
  error: (issue) => (issue.input === undefined ? messages.noScopes() : undefined),
});

/** Input of `overview`. */
export const overviewInputSchema = z.object({ scopes: exploreScopesSchema }).strict();
export type OverviewInput = z.input<typeof overviewInputSchema>;

/** Most nodes one graph read returns. */
export const MAX_GRAPH_LIMIT = 1000;
export const DEFAULT_GRAPH_LIMIT = 200;

/** Input of `graph`: which scopes, which edge types (`REF` for concept refs), and an optional focus. */
export const graphInputSchema = z
  .object({
    scopes: exploreScopesSchema,
    relationTypes: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
    focus: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(MAX_GRAPH_LIMIT).optional(),
  })
  .strict();
export type GraphInput = z.input<typeof graphInputSchema>;

/** Options of a read by id (`versions`, `provenance`). */
export const byIdReadSchema = z.object({ scopes: exploreScopesSchema }).strict();
export type ByIdReadOptions = z.input<typeof byIdReadSchema>;

/** The scopes of a parsed read, deduplicated. */
export function scopeList(scopes: string | readonly string[]): string[] {
  return typeof scopes === 'string' ? [scopes] : [...new Set(scopes)];
}
