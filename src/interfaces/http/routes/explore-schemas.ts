/**
 * Response schemas of the exploring routes, named (`meta({ id })`) so the OpenAPI document lists them
 * under `components.schemas` and clients can generate types from them.
 */
import { z } from 'zod';

const iso = z.string().describe('ISO 8601 instant');
const counts = z.record(z.string(), z.number());

export const phaseReportSchema = z
  .object({
    name: z.string(),
    examined: z.number(),
    created: z.number(),
    updated: z.number(),
    durationMs: z.number(),
    note: z.string(),
    ids: z.array(z.string()).optional().describe('Ids of the records the phase created (at most 50)'),
    superseded: z.array(z.string()).optional().describe('Ids of the claims the phase superseded (at most 50)'),
    merged: z.array(z.string()).optional().describe('Ids of the duplicates the phase merged away (at most 50)'),
    decayed: z.array(z.string()).optional().describe('Ids of the records the phase decayed (at most 50)'),
    expired: z.array(z.string()).optional().describe('Ids of the decayed records the phase expired (at most 50)'),
    bridges: z.number().optional().describe('recombine: BRIDGES edges created'),
    insights: z.number().optional().describe('insight: insights created'),
    cautions: z.number().optional().describe('affect: cautions raised'),
  })
  .loose()
  .meta({ id: 'PhaseReport' });

export const consolidationReportSchema = z
  .object({
    id: z.string().describe('The run id (a ULID: sorts by start)'),
    scope: z.string(),
    trigger: z.enum(['on-demand', 'session-end', 'threshold', 'schedule']),
    sessionId: z.string().optional(),
    startedAt: iso,
    finishedAt: iso,
    resumed: z.boolean().describe('This run continued a cycle that was interrupted'),
    bridges: z.number().optional().describe('BRIDGES edges created by the run (absent in reports from before the dream phases)'),
    insights: z.number().optional().describe('Insights created by the run'),
    cautions: z.number().optional().describe('Cautions raised by the run'),
    phases: z.array(phaseReportSchema),
  })
  .loose()
  .meta({ id: 'ConsolidationReport' });

export const consolidationRunsSchema = z
  .object({ items: z.array(consolidationReportSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'ConsolidationRunsPage' });

export const decayCandidateSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    layer: z.string(),
    content: z.string().describe('At most 200 characters'),
    salience: z.number(),
    importance: z.number().nullable(),
    accessCount: z.number(),
    accessedAt: iso.nullable().describe('Last access; null when never accessed (decay then counts from recordedAt)'),
    recordedAt: iso,
    dueAt: iso.describe('When decay reaches it (may be past: the next decay phase decays it)'),
  })
  .meta({ id: 'DecayCandidate' });

export const overviewSchema = z
  .object({
    totals: z.object({ total: z.number(), byLayer: counts, byStatus: counts }),
    growth: z
      .array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), byLayer: counts, total: z.number() }))
      .describe('Records recorded per day, the 365 most recent days that have any, oldest first'),
    decayCandidates: z.array(decayCandidateSchema).describe('Up to 20, soonest first'),
    pendingJobs: z.object({ total: z.number().describe('Pending and running'), byKind: counts, failed: z.number() }),
    lastRun: z.object({ id: z.string(), scope: z.string(), finishedAt: iso }).nullable(),
  })
  .meta({ id: 'Overview' });

export const graphNodeSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    label: z.string(),
    layer: z.string(),
    kind: z.enum(['concept', 'record']),
    salience: z.number(),
  })
  .meta({ id: 'GraphNode' });

export const graphEdgeSchema = z
  .object({
    id: z.string(),
    from: z.string(),
    to: z.string(),
    type: z.string().describe('A relation type, or REF: a concept ref from the record to the concept'),
    weight: z.number(),
  })
  .meta({ id: 'GraphEdge' });

export const graphSchema = z
  .object({
    nodes: z.array(graphNodeSchema),
    edges: z.array(graphEdgeSchema),
    truncated: z.boolean().describe('More nodes were there than limit allowed'),
  })
  .meta({ id: 'Graph' });

export const chainVersionSchema = z
  .object({
    id: z.string(),
    content: z.string(),
    status: z.string(),
    validFrom: iso,
    validTo: iso.nullable(),
    recordedAt: iso,
    supersededAt: iso.nullable().describe('When the store recorded its supersession (transaction time); null while current'),
    supersedes: z.array(z.string()),
    supersededBy: z.array(z.string()),
  })
  .meta({ id: 'ChainVersion' });

export const versionsSchema = z.object({ chain: z.array(chainVersionSchema).describe('Oldest first') }).meta({ id: 'VersionChain' });

export const recordSummarySchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    layer: z.string(),
    content: z.string().describe('At most 200 characters'),
    status: z.string(),
    recordedAt: iso,
    link: z.enum(['derivedFrom', 'chunk']),
  })
  .meta({ id: 'RecordSummary' });

export const provenanceSchema = z
  .object({
    id: z.string(),
    kind: z.string().nullable(),
    sources: z.array(recordSummarySchema).describe('Records it was derived from, and the document a chunk belongs to'),
    messages: z
      .array(z.object({}).loose())
      .describe('Where the raw material came from: { system?, conversationId?, messageId?, messageRange?, uri? }'),
    derived: z.array(recordSummarySchema).describe('Records derived from it'),
    concepts: z.array(
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        content: z.string(),
        salience: z.number(),
        refLayer: z.string(),
        statistics: z.array(z.object({ id: z.string(), content: z.string(), metric: z.record(z.string(), z.unknown()).nullable() })),
      }),
    ),
  })
  .meta({ id: 'Provenance' });

export const activationSchema = z
  .object({
    seeds: z.array(z.string()),
    steps: z
      .array(z.object({ hop: z.number(), activated: z.array(z.object({ id: z.string(), activation: z.number() })) }))
      .describe('Each wave of the spreading in order: the records a hop reached first, strongest first'),
    ranked: z.array(z.object({}).loose()),
    layers: z.record(z.string(), z.array(z.object({}).loose())),
  })
  .loose()
  .meta({ id: 'Activation' });
