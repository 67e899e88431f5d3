/**
 * Response schemas of the routes whose engine result had no schema yet, named (`meta({ id })`) so the
 * OpenAPI document lists them under `components.schemas` and generated clients get real types.
 * Documentation only: the engine's TypeScript types are the source; objects stay open (`loose`) so a
 * field added later does not break a client generated today.
 */
import { z } from 'zod';
import { memoryViewSchema } from './request-schemas.js';

const iso = z.string().describe('ISO 8601 instant');
const unit = z.number().min(0).max(1);

export const edgeSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    from: z.string(),
    type: z.string().describe('A relation type, e.g. RELATED_TO'),
    to: z.string(),
    weight: z.number(),
    validFrom: iso,
    validTo: iso.nullable(),
    recordedAt: iso,
    invalidatedAt: iso.nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .loose()
  .meta({ id: 'Edge' });

export const memoryHistorySchema = z
  .object({
    versions: z.array(memoryViewSchema).describe('Oldest first'),
    edges: z.array(edgeSchema).describe('The SUPERSEDES edges between the versions'),
  })
  .loose()
  .meta({ id: 'MemoryHistory' });

export const relateResultSchema = z
  .object({ action: z.enum(['created', 'updated']), edge: edgeSchema, symmetric: z.boolean() })
  .loose()
  .meta({ id: 'RelateResult' });

export const relationTypeSchema = z
  .object({
    name: z.string().describe('UPPER_SNAKE_CASE, e.g. IS_A'),
    symmetric: z.boolean(),
    builtIn: z.boolean(),
    proposedBy: z.string().nullable(),
    description: z.string().nullable(),
    registeredAt: z.number().describe('Epoch ms (0 for built-ins)'),
    tenant: z.string().nullable().describe('The tenant a registered type belongs to; null for built-ins'),
  })
  .loose()
  .meta({ id: 'RelationType' });

export const relationTypesSchema = z.object({ types: z.array(relationTypeSchema) }).meta({ id: 'RelationTypes' });

export const recordEdgeSchema = z
  .object({
    direction: z.enum(['out', 'in', 'both']),
    type: z.string(),
    other: z.string().describe('The id at the other end'),
    weight: z.number(),
    edge: edgeSchema,
  })
  .loose()
  .meta({ id: 'RecordEdge' });

export const memoryEdgesSchema = z.object({ edges: z.array(recordEdgeSchema) }).meta({ id: 'MemoryEdges' });

const skippedSchema = z
  .array(z.object({ id: z.string(), reason: z.string() }).meta({ id: 'SkippedRecord' }))
  .optional()
  .describe('Damaged stored records left out; forget or fix them by id');

export const recallHitSchema = memoryViewSchema
  .extend({
    score: z.number().describe('Ranks the hits: relevance blended with recency and importance; unbounded, may be negative'),
    relevance: unit.describe("How strongly the hit's own evidence matches the query, 0..1; not relative to other hits (docs/relevance.md)"),
    why: z
      .object({
        channels: z
          .record(z.string(), z.object({}).loose())
          .describe('Per channel (lexical, semantic, entity, temporal, mention, graph, affect): its rank and score'),
        fused: z.number(),
        relevance: z.number(),
        recency: z.number(),
        importance: z.number(),
        activation: z.number(),
        neighbourhood: z.number(),
        sameAs: z
          .array(z.string())
          .optional()
          .describe('Records saying the same left out for this hit: the captured turn of a claim, or the claims captured from a turn'),
      })
      .loose()
      .meta({ id: 'HitExplanation' }),
    correctedBy: z
      .object({ id: z.string(), content: z.string() })
      .optional()
      .describe('A captured turn whose claim was superseded since: the claim that holds now; such hits rank after the others'),
  })
  .loose()
  .meta({ id: 'RecallHit' });

export const recallResultSchema = z
  .object({ hits: z.array(recallHitSchema), skipped: skippedSchema })
  .loose()
  .meta({ id: 'RecallResult' });

export const predictionSchema = z
  .object({
    action: z.string(),
    outcome: z.enum(['success', 'failure']),
    successProbability: unit,
    confidence: unit,
    supportingEpisodeIds: z.array(z.string()),
    support: z.number(),
    meanReward: z.number().optional(),
  })
  .loose()
  .meta({ id: 'Prediction' });

export const predictResultSchema = z
  .object({
    predictions: z.array(predictionSchema),
    matched: z.object({ tokens: z.array(z.string()), concepts: z.array(z.object({ id: z.string(), name: z.string() })) }),
    considered: z.number().describe('Past episodes considered'),
  })
  .loose()
  .meta({ id: 'PredictResult' });

/** One part of a context: its entries and the level the time budget let it reach. */
const part = (entry: z.ZodType) => z.object({ level: z.enum(['full', 'cached', 'minimal', 'skipped']), items: z.array(entry) }).loose();

const entry = (id: string, shape: z.ZodRawShape) =>
  z
    .object({ id: z.string(), scope: z.string(), content: z.string(), ...shape })
    .loose()
    .meta({ id });

const claimSlotSchema = z
  .object({ subject: z.string(), attribute: z.string(), value: z.string(), negated: z.boolean().optional() })
  .loose()
  .meta({ id: 'ClaimSlot' });

const sourceRefSchema = z.record(z.string(), z.unknown()).describe('system, conversationId, messageId, messageRange, uri');

const chainMemberSchema = z
  .object({
    id: z.string(),
    scope: z.string(),
    role: z.enum(['rationale', 'decision', 'rejected', 'outcome', 'follow-up']),
    content: z.string(),
    layer: z.string(),
    status: z.string(),
    importance: z.number().nullable(),
    occurredAt: iso.nullable(),
    recordedAt: iso,
    rationale: z.string().optional().describe("A decision's own rationale, when the episode recorded one"),
    via: z
      .object({ type: z.string(), from: z.string() })
      .loose()
      .optional()
      .describe('The chain edge that reached this member from an earlier one (absent for the first)'),
  })
  .loose()
  .meta({ id: 'ChainMember' });

export const structuredContextSchema = z
  .object({
    scopes: z.array(z.string()),
    message: z.string(),
    budgetMs: z.number(),
    elapsedMs: z.number(),
    maxTokens: z.number(),
    tokens: z.number().describe('Approximate tokens (characters / 4) of markdown'),
    parts: z
      .object({
        rules: part(entry('RuleEntry', { priority: z.number() })),
        profile: part(
          entry('ProfileEntry', { claim: claimSlotSchema.optional(), confidence: z.number(), importance: z.number().nullable() }),
        ),
        knowledge: part(
          entry('KnowledgeEntry', {
            layer: z.string(),
            name: z.string().optional(),
            score: z.number(),
            relevance: unit.optional(),
            via: z.enum(['recall', 'activation']),
          }),
        ),
        concepts: part(
          z
            .object({
              id: z.string(),
              scope: z.string(),
              name: z.string(),
              category: z.string().nullable(),
              episodeCount: z.number(),
              level: z.string(),
              matchedBy: z.array(z.string()),
              relations: z
                .array(
                  z
                    .object({ type: z.string(), direction: z.enum(['out', 'in']), id: z.string(), name: z.string(), weight: z.number() })
                    .loose(),
                )
                .optional(),
              statistics: z.array(z.object({ id: z.string().optional(), verbal: z.string(), fresh: z.boolean() }).loose()).optional(),
              grounding: z.object({ episodes: z.number() }).loose().optional(),
            })
            .loose()
            .meta({ id: 'ConceptEntry' }),
        ),
        predictions: part(predictionSchema),
        episodes: part(
          entry('EpisodeEntry', {
            occurredAt: iso.nullable(),
            score: z.number(),
            relevance: unit,
            sources: z.array(sourceRefSchema),
            sessionId: z.string().optional(),
            outcome: z
              .object({ success: z.boolean().optional(), reward: z.number().optional(), detail: z.string().optional() })
              .loose()
              .optional(),
          }),
        ),
        cautions: part(
          entry('CautionEntry', {
            concept: z.string().describe("The concept's name, e.g. orders_db"),
            negatives: z.number().describe('Negative outcomes of all those with a known outcome'),
            outcomes: z.number(),
            since: iso,
          }),
        ).describe('Cautions the sleep cycle raised on concepts this turn names'),
        mood: part(
          entry('MoodEntry', {
            period: z.string(),
            tone: z.string(),
            valence: z.number(),
            intensity: z.number(),
            moods: z.array(z.string()),
          }),
        ).describe('The latest mood summary, when its period ended in the last 14 days (at most one)'),
        profileFields: z
          .object({
            level: z.enum(['full', 'cached', 'minimal', 'skipped']),
            known: z.array(z.object({ field: z.string(), value: z.string(), since: iso, id: z.string() }).loose()),
            missing: z.array(z.string()),
          })
          .loose()
          .optional()
          .describe('When the scopes have a profile schema: the fields the facts answer and those still missing'),
        chains: part(
          z
            .object({ id: z.string(), scope: z.string(), members: z.array(chainMemberSchema) })
            .loose()
            .meta({ id: 'ChainEntry' }),
        )
          .optional()
          .describe('Only with chains: true: the decision chains of the hits, whole'),
      })
      .loose()
      .meta({ id: 'ContextParts' }),
    trimmed: z.record(z.string(), z.number()).describe('Entries dropped per part to fit maxTokens'),
    markdown: z.string().describe('The context rendered for a prompt'),
    skipped: skippedSchema,
  })
  .loose()
  .meta({ id: 'StructuredContext' });

export const healthSchema = z
  .object({ status: z.literal('ok'), version: z.string(), auth: z.enum(['auto', 'required', 'open']) })
  .meta({ id: 'Health' });
