/**
 * Input schemas of the MCP tools, derived from the core schemas (src/core/schemas.ts) so every
 * interface validates the same way; only the scope fields differ (they default to the server's scopes).
 */
import { z } from 'zod';
import { LAYERS, STATUSES } from '../../../core/memory.js';
import { BROWSE_SORTS } from '../../../core/ports/store.js';
import { MAX_LIST_LIMIT } from '../../../core/browse/schemas.js';
import { PHASES } from '../../../consolidation/config.js';
import { consolidateInputSchema } from '../../../consolidation/schemas.js';
import { contextInputSchema, predictInputSchema } from '../../../serving/schemas.js';
import { relateInputSchema } from '../../../core/graph/relations-api.js';
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
  capture: remember.capture.describe(
    'For a conversation turn: also store each claim-shaped sentence (a preference, decision, tool choice, change, owner, schedule, constraint) as a semantic claim that supersedes or merges with what is known. Questions, plans, quotes, code and assistant suggestions are not claims.',
  ),
  userScope: remember.userScope.describe('With capture: the scope of the user, where a fact they state in answer to a question goes (default: scope). Must be one of the server\'s scopes.'),
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

const context = contextInputSchema.shape;

export const contextShape = {
  ...readScopeFields,
  message: context.message.describe('The user message or task this turn is about ("" is allowed when a percept is given).'),
  percept: context.percept.describe('What the agent perceives now: {objects, people, goal}; adds live concept context and predictions.'),
  budgetMs: context.budgetMs.describe('Wall-clock budget in ms (default 50); parts degrade full → cached → minimal → skipped to keep it.'),
  maxTokens: context.maxTokens.describe('Token budget of the rendered context (default 2000).'),
  episodes: context.episodes.describe('How many relevant past episodes to include (default 5).'),
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

const relate = relateInputSchema.shape;

export const relateShape = {
  ...relate,
  scope: writeScopeField,
  from: relate.from.describe('Id of the source memory.'),
  type: relate.type.describe(
    'Relation type: IS_A, HAS_PART, CAUSES, PREDICTS, PHASE_LOCKED_TO, RELATED_TO, TRENDS_WITH, CORRELATES_WITH, DERIVED_FROM, SUPERSEDES, STATISTICALLY_CONFIRMS, MENTIONS, or one registered later.',
  ),
  to: relate.to.describe('Id of the target memory (same scope).'),
  weight: relate.weight.describe('Strength (default 1).'),
};

export const consolidateShape = {
  scope: writeScopeField,
  phases: consolidateInputSchema.shape.phases.describe(`Only these phases (${PHASES.join(', ')}); default all, in that order.`),
};

const predict = predictInputSchema.shape;

export const predictShape = {
  ...readScopeFields,
  episode: predict.episode.describe('The forming episode, before a decision: {perception: {objects, people}, context: {goal}, action?: {tool}, content?}.'),
  limit: predict.limit.describe('Most predictions to return (default 5).'),
};

export const statsShape = { ...readScopeFields };

export const listShape = {
  ...readScopeFields,
  layers: z.array(z.enum(LAYERS)).min(1).max(16).optional().describe('Only these layers.'),
  statuses: z.array(z.enum(STATUSES)).min(1).max(16).optional().describe('Only these statuses (default every status: active, superseded, decayed, expired, deleted).'),
  tag: z.string().min(1).max(100).optional().describe('Only memories with this tag.'),
  entity: z.string().min(1).max(200).optional().describe('Only memories naming this entity.'),
  text: z.string().min(1).max(1000).optional().describe('Only memories whose content contains this text (a plain substring, not a search).'),
  validFrom: instant('Valid at some point on or after this time').optional(),
  validTo: instant('Valid at some point before this time').optional(),
  recordedFrom: instant('Recorded at or after this time').optional(),
  recordedTo: instant('Recorded before this time').optional(),
  sort: z.enum(BROWSE_SORTS).optional().describe('recordedAt (default), validFrom, importance or accessedAt.'),
  order: z.enum(['asc', 'desc']).optional().describe('desc (default) or asc.'),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe('Memories per page (default 20).'),
  cursor: z.string().min(1).max(2000).optional().describe('nextCursor of the previous page, with the same filters.'),
};
