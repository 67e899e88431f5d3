/**
 * HTTP request envelopes, composed from the shared core schemas (never re-declaring their fields).
 */
import { z } from 'zod';
import {
  readScopeListSchema,
  recallOptionsSchema,
  recallQuerySchema,
  rememberInputSchema,
  scopeSchema,
  updateInputSchema,
} from '../../core/schemas.js';

/** Most memories accepted in one `POST /v1/memories`. */
export const MAX_BATCH = 1000;

/** `POST /v1/memories`: one memory, or a batch stored atomically. */
export const rememberBatchSchema = z.array(rememberInputSchema).min(1, 'must hold at least one memory').max(MAX_BATCH);
/** As documented: one `RememberInput`, or an array of them (named, so clients get one input type). */
const rememberInputDoc = rememberInputSchema.meta({ id: 'RememberInput' });
export const rememberRequestSchema = z
  .union([rememberInputDoc, z.array(rememberInputDoc).min(1).max(MAX_BATCH)])
  .meta({ id: 'RememberRequest' });

/** `POST /v1/recall`: the query plus every recall option. */
export const recallRequestSchema = recallOptionsSchema.extend({ query: recallQuerySchema }).meta({ id: 'RecallRequest' });

/** The scopes of a read, in a body. */
export const readScopesSchema = z
  .object({ scopes: readScopeListSchema.max(100) })
  .strict()
  .meta({ id: 'ReadScopes' });

/** The one scope of a write by id, in a body. */
export const writeScopeSchema = z.object({ scope: scopeSchema }).strict().meta({ id: 'WriteScope' });

/** `PATCH /v1/memories/:id` as documented: the fields to change plus the scope (body or query). */
export const updateRequestDocSchema = z
  .object({ scope: scopeSchema.optional(), ...updateInputSchema.shape })
  .strict()
  .meta({ id: 'UpdateMemoryRequest' });

/** A memory as returned (the documented core; layer-specific fields may follow). */
export const memoryViewSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    layer: z.string(),
    content: z.string(),
    summary: z.string().nullable(),
    tags: z.array(z.string()),
    entities: z.array(z.string()),
    importance: z.number().nullable(),
    salience: z.number(),
    surprise: z.number(),
    emotion: z
      .object({ valence: z.number(), intensity: z.number(), mood: z.array(z.string()).optional() })
      .loose()
      .meta({ id: 'Emotion' })
      .nullable(),
    confidence: z.number(),
    status: z.string(),
    pinned: z.boolean(),
    mentionCount: z.number(),
    accessCount: z.number(),
    lastAccessedAt: z.string().nullable(),
    provenance: z
      .object({ kind: z.string(), sources: z.array(z.record(z.string(), z.unknown())), derivedFrom: z.array(z.string()) })
      .loose()
      .meta({ id: 'MemoryProvenance' })
      .describe(
        'Where it came from: kind (episodic, statistical, document, user_stated, reflection, hybrid), source refs and the records it was derived from',
      ),
    validFrom: z.string(),
    validTo: z.string().nullable(),
    occurredAt: z.string().nullable(),
    recordedAt: z.string(),
    invalidatedAt: z.string().nullable(),
    updatedAt: z.string(),
    damaged: z.string().optional().describe('Set when a stored value could not be read (the reason); forget or fix the memory'),
  })
  .loose()
  .meta({ id: 'Memory' });

/** What `remember` did with one input. */
export const rememberResultSchema = z
  .object({
    id: z.string(),
    action: z.enum(['created', 'merged', 'superseded', 'unchanged']),
    mergedInto: z.string().optional(),
    superseded: z.array(z.string()).optional(),
    chunks: z.array(z.string()).optional(),
    redacted: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Secrets replaced by [redacted:<kind>] before the input was stored (absent when none)'),
    /** With `capture: true`: what became of each claim read from the turn. */
    claims: z
      .array(
        z
          .object({
            id: z.string(),
            action: z.enum(['created', 'merged', 'superseded', 'unchanged']),
            superseded: z.array(z.string()).optional(),
          })
          .loose()
          .meta({ id: 'CapturedClaim' }),
      )
      .optional(),
    rejected: z
      .array(z.string())
      .optional()
      .describe('For a decision with rejected alternatives: the episodes stored for them (linked REJECTED), in input order'),
  })
  .loose()
  .meta({ id: 'RememberResult' });

/** Every error body. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z
        .string()
        .describe('Machine-readable, e.g. INVALID_INPUT, UNAUTHORIZED, SCOPE_DENIED, NOT_FOUND, CONFLICT, LOCKED, PAYLOAD_TOO_LARGE, BUSY'),
      message: z.string().describe('What was wrong and how to fix it'),
      details: z.record(z.string(), z.unknown()).optional().describe('Structured details, e.g. the field at fault'),
    }),
  })
  .meta({ id: 'Error' });
