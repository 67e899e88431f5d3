/**
 * Input schemas of the MCP tools, derived from the core schemas (src/core/schemas.ts) so every
 * interface validates the same way; only the scope fields differ (they default to the server's scopes).
 */
import { z } from 'zod';
import { LAYERS } from '../../../core/memory.js';
import { channelWeightsSchema, episodeCycleShape, instantSchema, rememberInputSchema, scopeSchema, updateInputSchema } from '../../../core/schemas.js';

const instant = (what: string) => instantSchema.describe(`${what}: ISO 8601 (2024-05-01 or 2024-05-01T12:00:00Z) or epoch milliseconds`);

/** `scope` of a write: optional, defaults to the first scope this server was started with. */
export const writeScopeField = scopeSchema
  .optional()
  .describe('Scope to write to, e.g. "acme/users/alice". Optional: defaults to the first scope this server may use. Must be one of the server\'s scopes.');

/** `scope` / `scopes` of a read: optional, defaults to every scope this server may use. */
export const readScopeFields = {
  scope: scopeSchema.optional().describe('One scope to read. Give `scope` or `scopes`, or neither to read every scope this server may use.'),
  scopes: z.array(scopeSchema).min(1).max(32).optional().describe('Several scopes to read; each must be one of the server\'s scopes.'),
};

const remember = rememberInputSchema.shape;

export const rememberShape = {
  ...remember,
  scope: writeScopeField,
  content: remember.content.describe('The text to remember: an observation, a conversation turn, a fact, a rule. Long texts are chunked.'),
  layer: remember.layer.describe(
    'episodic (default: what happened), semantic (a fact or concept: what is true), procedural (a rule: how to behave; always part of the context), statistical (a metric).',
  ),
  occurredAt: instant('When the event happened (episodes)').optional(),
  validFrom: instant('When the claim became true in the world (default: now)').optional(),
  validTo: instant('When the claim stopped being true').optional(),
  importance: remember.importance.describe('0..1: below 0.5 minor, 0.5-0.7 notable, above 0.7 important. Omit to let Engram score it.'),
  tags: remember.tags.describe('Free labels, e.g. ["project:x", "preference"].'),
  pinned: remember.pinned.describe('Pinned memories never decay.'),
  source: remember.source.describe(
    'Where this came from: {system, conversationId, messageId, uri}. The same conversationId + messageId stored twice is kept once.',
  ),
  priority: remember.priority.describe('Procedural rules: higher comes first.'),
  perception: episodeCycleShape.perception.describe('Structured episode: what was perceived {objects, people, salience, novelty}.'),
  context: episodeCycleShape.context.describe('Structured episode: the situation {goal, location, sessionId, runId}.'),
  decision: episodeCycleShape.decision.describe('Structured episode: what was decided {intent, confidence, rationale}.'),
  action: episodeCycleShape.action.describe('Structured episode: what was done {tool, args}.'),
  outcome: episodeCycleShape.outcome.describe('Structured episode: how it went {success, reward, detail}.'),
};

export const recallShape = {
  ...readScopeFields,
  query: z.string().min(1).max(10_000).describe('What to look for, in natural language; dates like "last week" or "in May" narrow by time.'),
  k: z.number().int().min(1).max(100).optional().describe('How many memories to return (default 10).'),
  asOf: instant('Answer "what was true at this time" (valid time)').optional(),
  knownAt: instant('Answer "what did we believe at this time" (transaction time)').optional(),
  layers: z.array(z.enum(LAYERS)).min(1).optional().describe('Only these layers.'),
  includeSuperseded: z.boolean().optional().describe('Also return superseded and decayed versions (for history questions).'),
  weights: channelWeightsSchema.optional().describe('Channel weights (0 switches a channel off): lexical, semantic, entity, temporal, graph, affect, neighbour.'),
};

export const perceptSchema = z
  .object({
    objects: z.array(z.string().max(2_000)).max(100).optional(),
    people: z.array(z.string().max(2_000)).max(100).optional(),
    goal: z.string().max(2_000).optional(),
  })
  .strict();

export const contextShape = {
  ...readScopeFields,
  message: z.string().max(20_000).describe('The user message or task this turn is about ("" is allowed when a percept is given).'),
  percept: perceptSchema.optional().describe('What the agent perceives now: {objects, people, goal}; adds live concept context and predictions.'),
  budgetMs: z.number().int().min(1).max(10_000).optional().describe('Wall-clock budget in ms (default 50); parts degrade full → cached → minimal to keep it.'),
  maxTokens: z.number().int().min(50).max(100_000).optional().describe('Token budget of the rendered context (default 2000).'),
};

export const idField = z.string().min(1).max(200).describe('The memory id (as returned by memory_remember or memory_recall).');

export const getShape = { ...readScopeFields, id: idField };

export const updateShape = {
  ...updateInputSchema.shape,
  id: idField,
  scope: scopeSchema.optional().describe('The scope the memory lives in (default: the first scope this server may use).'),
  validFrom: instant('When the claim became true').optional(),
};

export const forgetShape = {
  id: idField,
  scope: scopeSchema.optional().describe('The scope the memory lives in (default: the first scope this server may use).'),
  restore: z.boolean().optional().describe('true brings back a forgotten or decayed memory instead of forgetting it.'),
};

export const relateShape = {
  scope: writeScopeField,
  from: idField.describe('Id of the source memory.'),
  type: z
    .string()
    .min(1)
    .max(100)
    .describe('Relation type, e.g. IS_A, HAS_PART, CAUSES, PREDICTS, RELATED_TO, DERIVED_FROM, or a new UPPER_SNAKE type (registered as proposed).'),
  to: idField.describe('Id of the target memory (same scope).'),
  weight: z.number().min(0).max(1).optional().describe('Strength 0..1 (default 1).'),
};

export const consolidateShape = {
  scope: writeScopeField,
  phases: z
    .array(z.string().min(1).max(50))
    .min(1)
    .optional()
    .describe('Only these phases (dedup, supersede, concepts, ground, promote, reflect, decay, compress); default all.'),
};

export const predictShape = {
  ...readScopeFields,
  episode: z
    .object({
      content: z.string().max(20_000).optional(),
      perception: episodeCycleShape.perception,
      context: episodeCycleShape.context,
      action: z.object({ tool: z.string().max(2_000).optional() }).strict().optional(),
    })
    .strict()
    .describe('The forming episode, before a decision: {perception: {objects, people}, context: {goal}, content?}.'),
  limit: z.number().int().min(1).max(50).optional().describe('Most predictions to return (default 5).'),
};

export const statsShape = { ...readScopeFields };
