/**
 * Seed 001's maintenance endpoints: `POST /v1/surface` (what is worth having in mind, no query),
 * `POST /v1/decay` (the decay phase alone, or its dry run) and `POST /v1/expire` (decayed records past
 * their grace period removed for good, tombstones kept; a dry run unless `dryRun: false`).
 */
import { z } from 'zod';
import { decayInputSchema } from '../../../consolidation/schemas.js';
import { expireInputSchema } from '../../../core/purge/expire.js';
import { parseInput } from '../../../core/schemas.js';
import { surfaceInputSchema } from '../../../core/surface/surface.js';
import { memoryViewSchema } from '../request-schemas.js';
import type { RouteSpec } from '../route.js';
import { phaseReportSchema } from './explore-schemas.js';
import { httpActor } from './browse.js';

const TAG = 'maintenance';

const surfaceHitSchema = memoryViewSchema
  .extend({
    score: z.number().describe('The surfacing score, 0..1'),
    why: z
      .object({
        importance: z.number(),
        activation: z.number().describe('Recency of the last use times how often it was used (1 − 0.5^accessCount), 0..1'),
        relevance: z.number().nullable().describe('Relevance to `context` (null without one)'),
        score: z.number(),
      })
      .meta({ id: 'SurfaceWhy' }),
  })
  .loose()
  .meta({ id: 'SurfaceHit' });

const decayReportSchema = phaseReportSchema
  .extend({
    scope: z.string(),
    dryRun: z.boolean(),
    runId: z.string().nullable().describe('The stored consolidation run (null for a dry run)'),
    counts: z.object({ decayed: z.number(), expired: z.number() }).describe('Totals (the id lists stop at 50)'),
  })
  .meta({ id: 'DecayReport' });

const expireReportSchema = z
  .object({
    scope: z.string(),
    dryRun: z.boolean(),
    expired: z.number().describe('Records turned into tombstones (or due to be, in a dry run)'),
    ids: z.array(z.string()).describe('Their ids (at most 200)'),
    removed: z.object({ derived: z.number(), edges: z.number(), refs: z.number(), history: z.number(), indexEntries: z.number() }),
    auditIds: z.array(z.string()).describe('Audit entries written (none for a dry run)'),
  })
  .meta({ id: 'ExpireReport' });

const expireBodySchema = expireInputSchema.extend({
  dryRun: z.boolean().optional().describe('Default true: only report. Pass false to remove.'),
});

/** The maintenance routes. */
export const maintenanceRoutes: readonly RouteSpec[] = [
  {
    method: 'post',
    path: '/v1/surface',
    operationId: 'surface',
    tag: TAG,
    summary: 'The memories most worth having in mind, without a query',
    description:
      'Current memories of the scopes ranked by importance, activation (recent and frequent use) and, when `context` is given, relevance to it; each hit says why. Surfacing is not counted as an access.',
    body: surfaceInputSchema,
    response: z.object({ hits: z.array(surfaceHitSchema) }),
    responseDescription: 'The surfaced memories, best first',
    async handle(ctx) {
      const input = parseInput(surfaceInputSchema, ctx.body, 'surface');
      ctx.authorize(input.scopes);
      return ctx.engram.surface(input);
    },
  },
  {
    method: 'post',
    path: '/v1/decay',
    operationId: 'decay',
    tag: TAG,
    summary: 'Run only the decay phase on one scope, or report what it would do',
    description:
      'Memories idle past their importance tier (7, 14, 30 days by last access; emotion slows it; a decision chain decays on the tier of its most important member) become decayed, and decayed ones past the grace period are marked expired; pinned never. Runs under the scope lock like /v1/consolidate (409 LOCKED while a cycle runs). `dryRun: true` changes nothing.',
    body: decayInputSchema,
    response: decayReportSchema,
    responseDescription: "The decay phase's report",
    conflict: 'Without `dryRun: true`, while another consolidation cycle of the scope is running (LOCKED): retry when it has finished',
    async handle(ctx) {
      const input = parseInput(decayInputSchema, ctx.body, 'decay');
      ctx.authorize([input.scope]);
      return ctx.engram.decay(input);
    },
  },
  {
    method: 'post',
    path: '/v1/expire',
    operationId: 'expire',
    tag: TAG,
    summary: 'Remove for good the decayed memories of a scope past their grace period (a dry run by default)',
    description:
      'Through the purge path: content, past wordings, edges, concept refs, index entries and records derived from them alone are removed; a tombstone stays (GET /v1/memories/{id} answers it with status `expired`, `expiredAt` and no content) and an audit entry is written. Without `dryRun: false` nothing is removed.',
    body: expireBodySchema,
    response: expireReportSchema,
    responseDescription: 'What was (or would be) expired',
    async handle(ctx) {
      const input = parseInput(expireBodySchema, ctx.body, 'expire');
      ctx.authorize([input.scope]);
      return ctx.engram.expire({ scope: input.scope, dryRun: input.dryRun ?? true }, { actor: httpActor(ctx) });
    },
  },
];
