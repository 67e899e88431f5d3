/**
 * Input schemas of the MCP tools as advertised in `tools/list`: lean on purpose (the whole list is
 * read by the model on every session, see docs/mcp.md), so they carry types and short descriptions,
 * not every bound. The library validates every call again with the core schemas (src/core/schemas.ts
 * and friends), whose messages say what to fix; only the scope fields are resolved here (they default
 * to the server's scopes).
 */
import { z } from 'zod';
import { LAYERS, STATUSES } from '../../../core/memory.js';
import { BROWSE_SORTS } from '../../../core/ports/store.js';
import { PHASES } from '../../../consolidation/config.js';
import { scopeProblem } from '../../../core/scope.js';

/** A scope, checked like the core's but without its long description (the server's scopes are in its instructions). */
const scopeText = z.string().superRefine((value, ctx) => {
  const problem = scopeProblem(value);
  // read after the field's name: "scope is not a valid scope (…)"
  if (problem !== null) ctx.addIssue({ code: 'custom', message: `is not a valid scope ("${value.slice(0, 80)}": ${problem})` });
});
const when = (what: string) => z.union([z.string(), z.number()]).describe(`${what} (ISO 8601 or epoch ms)`);
const object = z.record(z.string(), z.unknown());
const strings = z.array(z.string());

/** `scope` of a write: optional, defaults to the first scope this server was started with. */
export const writeScopeField = scopeText.optional().describe("Scope to write (default: the server's first).");

/** `scope` / `scopes` of a read: optional, defaults to every scope this server may use. */
export const readScopeFields = {
  scope: scopeText.optional().describe("One scope to read (default: all the server's)."),
  scopes: z.array(scopeText).min(1).optional().describe('Several scopes to read.'),
};

/** The layer-specific fields of `memory_remember`, grouped as advertised; the old top-level form is accepted too. */
export const REMEMBER_GROUPS = {
  episode: ['perception', 'context', 'decision', 'action', 'outcome', 'rejected', 'ledTo', 'follows'],
  concept: ['name', 'definition', 'category', 'properties'],
  rule: ['priority'],
} as const;

export const rememberShape = {
  scope: writeScopeField,
  content: z.string().describe('What to remember: an observation, a conversation turn, a fact, a rule. Long texts are chunked.'),
  layer: z
    .enum(LAYERS)
    .optional()
    .describe('episodic (default: what happened), semantic (a fact), procedural (a rule, always in context), statistical (a metric).'),
  importance: z.number().optional().describe('0..1: <0.5 minor, >0.7 important; omit to let Engram score it.'),
  tags: strings.optional(),
  pinned: z.boolean().optional().describe('Never decays.'),
  occurredAt: when('When it happened').optional(),
  validFrom: when('True from (default now)').optional(),
  validTo: when('True until').optional(),
  summary: z.string().optional(),
  confidence: z.number().optional().describe('0..1'),
  entities: strings.optional(),
  emotion: object.optional().describe('{valence -1..1, intensity 0..10 (high resists decay), mood?: []}'),
  source: object.optional().describe('{system, conversationId, messageId, uri}; the same conversationId + messageId is stored once.'),
  capture: z
    .boolean()
    .optional()
    .describe('A conversation turn: also store each claim-shaped sentence (preference, decision, owner, schedule…) as a fact.'),
  userScope: scopeText.optional().describe('With capture: where facts the user states go (default: scope).'),
  timeZone: z
    .string()
    .optional()
    .describe('IANA time zone the text\'s relative dates ("yesterday") are read on, e.g. Europe/Lisbon (default: the server machine\'s).'),
  episode: z
    .strictObject({
      perception: object.optional().describe('{objects, people, salience, novelty}'),
      context: object.optional().describe('{goal, location, sessionId, runId}'),
      decision: object.optional().describe('{intent, confidence, rationale}'),
      action: object.optional().describe('{tool, args}'),
      outcome: object.optional().describe('{success, reward, detail}'),
      rejected: strings.optional().describe('Alternatives this decision turned down (each stored, linked REJECTED).'),
      ledTo: strings.optional().describe('Ids this led to (LED_TO).'),
      follows: z.string().optional().describe('Id of the decision this follows (it LED_TO this).'),
    })
    .optional()
    .describe('Structured episode and decision chain.'),
  concept: z
    .strictObject({
      name: z.string().optional(),
      definition: z.string().optional(),
      category: z.string().optional(),
      properties: object.optional(),
    })
    .optional()
    .describe('Semantic layer.'),
  rule: z
    .strictObject({ priority: z.number().int().optional().describe('Higher first.') })
    .optional()
    .describe('Procedural layer.'),
  metric: object.optional().describe('Statistical layer: {name, n, k?, rate?, mean?, std?, …}'),
  provenance: object.optional().describe('{kind, sources, derivedFrom}'),
};

const timeTravel = {
  asOf: when('What was true then').optional(),
  knownAt: when('What we believed then').optional(),
};

/** The user's time zone: "yesterday" is a day of their wall clock. */
const timeZoneField = z
  .string()
  .optional()
  .describe('IANA time zone for dates like "yesterday", e.g. Europe/Lisbon (default: the server machine\'s).');

export const recallShape = {
  ...readScopeFields,
  query: z.string().describe('What to look for; dates like "last week" narrow by time.'),
  k: z.number().int().min(1).max(100).optional().describe('Hits (default 10).'),
  ...timeTravel,
  timeZone: timeZoneField,
  layers: z.array(z.enum(LAYERS)).optional(),
  includeSuperseded: z.boolean().optional().describe('Also superseded and decayed versions.'),
  chains: z.boolean().optional().describe('Add the whole decision chain of each hit in one (hit.chain).'),
  weights: z
    .record(z.string(), z.number())
    .optional()
    .describe('Channel weights, 0 = off: lexical, semantic, entity, temporal, mention, graph, affect, neighbour.'),
};

export const contextShape = {
  ...readScopeFields,
  message: z.string().describe('The user message or task ("" with a percept).'),
  percept: object.optional().describe('{objects, people, goal}: adds live concepts and predictions.'),
  budgetMs: z.number().int().optional().describe('Time budget, ms (default 50).'),
  maxTokens: z.number().int().optional().describe('Token budget (default 2000).'),
  episodes: z.number().int().optional().describe('Past episodes (default 5).'),
  chains: z.boolean().optional().describe('Add the decision chains of what is relevant (parts.chains).'),
  timeZone: timeZoneField,
};

export const idField = z.string().min(1).max(200).describe('Memory id.');

export const getShape = { ...readScopeFields, id: idField };

const inScope = scopeText.optional().describe("The memory's scope (default: the server's first).");

export const updateShape = {
  id: idField,
  scope: inScope,
  content: z.string().optional().describe('Re-embedded; the old wording stays in history.'),
  summary: z.string().nullable().optional(),
  importance: z.number().optional(),
  confidence: z.number().optional(),
  tags: strings.optional(),
  pinned: z.boolean().optional(),
  validFrom: when('').optional(),
  validTo: when('').nullable().optional(),
  occurredAt: when('').nullable().optional(),
  emotion: object.nullable().optional(),
};

export const forgetShape = {
  id: idField,
  scope: inScope,
  restore: z.boolean().optional().describe('Bring back a forgotten or decayed memory instead.'),
};

export const relateShape = {
  scope: writeScopeField,
  from: z.string().describe('Source id.'),
  type: z
    .string()
    .describe(
      'IS_A, HAS_PART, CAUSES, PREDICTS, RELATED_TO, DERIVED_FROM, DECIDED (rationale→decision), REJECTED (decision→alternative), LED_TO (decision→outcome or next decision), … or a registered type.',
    ),
  to: z.string().describe('Target id (same scope).'),
  weight: z.number().optional().describe('Default 1.'),
  validFrom: when('').optional(),
  validTo: when('').optional(),
  metadata: object.optional(),
};

export const consolidateShape = {
  scope: writeScopeField,
  phases: z.array(z.enum(PHASES)).min(1).optional().describe('Only these phases; default all, in order.'),
};

export const predictShape = {
  ...readScopeFields,
  episode: object.describe(
    'The forming episode, before deciding: {perception: {objects, people}, context: {goal}, action?: {tool}, content?}.',
  ),
  limit: z.number().int().optional().describe('Most predictions (default 5).'),
};

export const statsShape = { ...readScopeFields };

export const listShape = {
  ...readScopeFields,
  layers: z.array(z.enum(LAYERS)).optional(),
  statuses: z.array(z.enum(STATUSES)).optional().describe('Default: every status.'),
  tag: z.string().optional(),
  entity: z.string().optional(),
  text: z.string().optional().describe('Plain substring of the content.'),
  validFrom: when('Valid on or after').optional(),
  validTo: when('Valid before').optional(),
  recordedFrom: when('Recorded on or after').optional(),
  recordedTo: when('Recorded before').optional(),
  sort: z.enum(BROWSE_SORTS).optional().describe('Default recordedAt.'),
  order: z.enum(['asc', 'desc']).optional().describe('Default desc.'),
  limit: z.number().int().min(1).max(200).optional().describe('Default 20.'),
  cursor: z.string().optional().describe('nextCursor of the previous page.'),
};

export const surfaceShape = {
  ...readScopeFields,
  context: z.string().optional().describe('Optional text the memories should relate to.'),
  limit: z.number().int().min(1).max(100).optional().describe('Default 10.'),
};

export const decayShape = {
  scope: writeScopeField,
  dryRun: z.boolean().optional().describe('Only report (default false).'),
};

export const expireShape = {
  scope: writeScopeField,
  dryRun: z.boolean().optional().describe('Only report (default true): pass false to remove.'),
};
