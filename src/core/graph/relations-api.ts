/**
 * The relation API over the registry: relate two records with a registered type, list and
 * register types, read a record's edges with symmetric types the same from both ends.
 */
import { z } from 'zod';
import { EngramError, messages } from '../errors.js';
import type { Edge, TimeFilter } from '../memory.js';
import { toEdgeView, type EdgeView } from '../memory-view.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import { redactValue } from '../redact/redact-values.js';
import type { Redactor } from '../redact/redactor.js';
import {
  normalizeRedactedRelationName,
  normalizeRelationName,
  redactRelationName,
  symmetryOf,
  withBuiltInRelations,
  type RelationType,
} from '../relations.js';
import { instantSchema, jsonObjectSchema, parseInput, scopeSchema } from '../schemas.js';
import { tenantOf, type Scope } from '../scope.js';
import { isTombstone } from '../purge/expire.js';
import { newId } from '../write/new-record.js';
import { isEdgeVisible } from './edge-visibility.js';

/** Input of `relate`. */
export const relateInputSchema = z
  .object({
    scope: scopeSchema,
    from: z.string().min(1).max(100),
    type: z.string().min(1).max(64),
    to: z.string().min(1).max(100),
    /** Default 1. */
    weight: z.number().min(0).max(1_000_000).refine(Number.isFinite, 'must be a finite number').optional(),
    validFrom: instantSchema.optional(),
    validTo: instantSchema.optional(),
    metadata: jsonObjectSchema.optional(),
  })
  .strict();
export type RelateInput = z.input<typeof relateInputSchema>;

/** Input of `registerRelation`. */
export const registerRelationInputSchema = z
  .object({
    /** The type belongs to this scope's tenant: only that tenant's scopes see and use it. */
    scope: scopeSchema,
    name: z.string().min(1).max(64),
    symmetric: z.boolean().optional(),
    proposedBy: z.string().min(1).max(200).optional(),
    description: z.string().max(2_000).optional(),
  })
  .strict();
export type RegisterRelationInput = z.input<typeof registerRelationInputSchema>;

/** What `relate` did. */
export interface RelateResult {
  action: 'created' | 'updated';
  edge: EdgeView;
  symmetric: boolean;
}

/** One edge as seen from a record: `out` (it points away), `in` (towards it), `both` (symmetric type). */
export interface RecordEdge {
  direction: 'out' | 'in' | 'both';
  type: string;
  other: string;
  weight: number;
  edge: EdgeView;
}

interface Deps {
  store: Store;
  clock: Clock;
}

/** Relates two records of one scope; an existing current edge of the same type and ends is updated instead. */
export async function relate(deps: Deps, input: RelateInput): Promise<RelateResult> {
  const parsed = parseInput(relateInputSchema, input, 'relate');
  const type = normalizeRelationName(parsed.type);
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const registry = withBuiltInRelations(await tx.getRelationTypes([parsed.scope]));
    const known = registry.find((t) => t.name === type);
    if (known === undefined) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(
          `relation type ${type} is not registered; use one of ${registry.map((t) => t.name).join(', ')} or register it first (engram relations register ${type})`,
        ),
        { details: { type } },
      );
    }
    if (parsed.from === parsed.to)
      throw new EngramError('INVALID_INPUT', messages.invalidInput('a record cannot be related to itself'), {
        details: { id: parsed.from },
      });
    const found = await tx.getMemories([parsed.from, parsed.to], [parsed.scope]);
    for (const id of [parsed.from, parsed.to]) {
      const record = found.find((r) => r.id === id);
      if (record === undefined) throw new EngramError('NOT_FOUND', messages.notFound(id), { details: { id, scope: parsed.scope } });
      if (isTombstone(record))
        throw new EngramError('CONFLICT', `Memory ${id} was expired for good (a tombstone without content): it cannot be related.`, {
          details: { id },
        });
    }
    const existing = (await tx.getEdges({ scopes: [parsed.scope], ids: [parsed.from], types: [type] })).find(
      (e) =>
        e.invalidatedAt === null &&
        ((e.fromId === parsed.from && e.toId === parsed.to) || (known.symmetric && e.fromId === parsed.to && e.toId === parsed.from)),
    );
    if (existing !== undefined) {
      const weight = parsed.weight ?? existing.weight;
      const metadata = parsed.metadata ?? existing.metadata;
      await tx.updateEdge(existing.id, parsed.scope, { weight, metadata });
      return { action: 'updated', edge: toEdgeView({ ...existing, weight, metadata }), symmetric: known.symmetric };
    }
    if (parsed.validTo !== undefined && parsed.validTo <= (parsed.validFrom ?? now)) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(
          parsed.validFrom !== undefined
            ? 'validTo must be after validFrom'
            : `validTo (${new Date(parsed.validTo).toISOString()}) must be after validFrom, which defaults to now (${new Date(now).toISOString()}): give validFrom too`,
        ),
      );
    }
    const edge: Edge = {
      id: newId(now),
      scope: parsed.scope,
      fromId: parsed.from,
      type,
      toId: parsed.to,
      weight: parsed.weight ?? 1,
      validFrom: parsed.validFrom ?? now,
      validTo: parsed.validTo ?? null,
      recordedAt: now,
      invalidatedAt: null,
      metadata: parsed.metadata ?? {},
    };
    await tx.insertEdges([edge]);
    return { action: 'created', edge: toEdgeView(edge), symmetric: known.symmetric };
  });
}

/**
 * Registers a run-time relation type for the tenant of `scope` (recorded as proposed, with who proposed it). Idempotent.
 * The engine's redactor replaces the secrets of the description and the proposer; a name holding one
 * is refused (edges and callers use the name as given, so it cannot be renamed on the way in).
 */
export async function registerRelation(deps: Deps & { redactor: Redactor }, input: RegisterRelationInput): Promise<RelationType> {
  const given = parseInput(registerRelationInputSchema, input, 'relation type');
  const held = redactRelationName(given.name, deps.redactor, [given.description ?? null, given.proposedBy ?? null]);
  if (held.kinds.length > 0) {
    let instead = '';
    try {
      instead = `, e.g. ${normalizeRedactedRelationName(held.name)}`;
    } catch {
      // no valid name to suggest
    }
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`the relation type name holds a secret (${held.kinds.join(', ')}); register a name without it${instead}`),
      { details: { field: 'name' } },
    );
  }
  const parsed = redactValue(given, deps.redactor, ['scope']).value;
  const type: RelationType = {
    name: normalizeRelationName(parsed.name),
    symmetric: parsed.symmetric ?? false,
    builtIn: false,
    proposedBy: parsed.proposedBy ?? 'unknown',
    description: parsed.description ?? null,
    registeredAt: deps.clock.now(),
    tenant: tenantOf(parsed.scope),
  };
  return deps.store.transaction((tx) => tx.registerRelationType(type));
}

/**
 * The edges of one record visible under the time filter, each from the record's point of view:
 * a symmetric edge reads `both`, the same whichever end it was written from.
 */
export async function recordEdges(
  deps: Deps,
  id: string,
  options: { scopes: readonly Scope[]; types?: readonly string[] } & TimeFilter,
): Promise<RecordEdge[]> {
  const [registry, edges] = await Promise.all([
    deps.store.getRelationTypes(options.scopes),
    deps.store.getEdges({
      scopes: options.scopes,
      ids: [id],
      ...(options.types !== undefined ? { types: options.types.map(normalizeRelationName) } : {}),
    }),
  ]);
  const isSymmetric = symmetryOf(registry);
  const now = deps.clock.now();
  return edges
    .filter((e) => isEdgeVisible(e, options, now))
    .map((e) => ({
      direction: isSymmetric(e.scope, e.type) ? 'both' : e.fromId === id ? 'out' : 'in',
      type: e.type,
      other: e.fromId === id ? e.toId : e.fromId,
      weight: e.weight,
      edge: toEdgeView(e),
    }));
}
