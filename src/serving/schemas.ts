/**
 * Input schemas of the context builder and pattern completion, shared by the library, CLI, MCP and HTTP.
 */
import { z } from 'zod';
import {
  episodeCycleShape,
  oneWallClockIssue,
  oneWallClock,
  readScopeListSchema,
  timeZoneSchema,
  timezoneOffsetSchema,
} from '../core/schemas.js';

const shortText = z.string().max(2_000);

/** What the agent perceives this turn: objects, people and its goal. */
export const perceptSchema = z
  .object({
    objects: z.array(shortText).max(100).optional(),
    people: z.array(shortText).max(100).optional(),
    goal: shortText.optional(),
  })
  .strict();

/** Default wall-clock budget of `context`. */
export const DEFAULT_CONTEXT_BUDGET_MS = 50;
/** Default token budget of `context` (approximate tokens: characters / 4). */
export const DEFAULT_CONTEXT_MAX_TOKENS = 2_000;

/** Input of `context`. */
export const contextInputSchema = z
  .object({
    scopes: readScopeListSchema,
    message: z.string().max(10_000, 'is longer than 10000 characters').default(''),
    percept: perceptSchema.optional(),
    budgetMs: z.number().int().min(1).max(60_000).default(DEFAULT_CONTEXT_BUDGET_MS),
    maxTokens: z.number().int().min(50).max(200_000).default(DEFAULT_CONTEXT_MAX_TOKENS),
    /** How many relevant episodes to include (before the token budget). */
    episodes: z.number().int().min(0).max(50).default(5),
    /** Re-rank knowledge and episodes by the scopes' stored persona (true) or not (false); default: the engine's `recall.persona`. */
    persona: z.boolean().optional(),
    /** Add the decision chains the relevant memories belong to, whole (`parts.chains`). */
    chains: z.boolean().optional(),
    /** Minutes east of UTC of the caller's wall clock, for dates in the message ("yesterday"); default 0, UTC. */
    timezoneOffsetMinutes: timezoneOffsetSchema.optional(),
    /** IANA time zone of the caller's wall clock for dates in the message, daylight saving included; instead of timezoneOffsetMinutes. */
    timeZone: timeZoneSchema.optional(),
  })
  .strict()
  .refine(oneWallClock, oneWallClockIssue())
  .refine((input) => input.message.trim().length > 0 || hasPercept(input.percept), {
    message: 'needs a message, or a percept with objects, people or a goal',
    path: ['message'],
  });
export type ContextInput = z.input<typeof contextInputSchema>;
export type ParsedContextInput = z.output<typeof contextInputSchema>;

function hasPercept(percept: z.output<typeof perceptSchema> | undefined): boolean {
  if (percept === undefined) return false;
  return (percept.objects?.length ?? 0) > 0 || (percept.people?.length ?? 0) > 0 || (percept.goal?.trim().length ?? 0) > 0;
}

/** A forming episode: perception and context, no decision yet (extra fields are accepted and ignored). */
export const formingEpisodeSchema = z
  .object({
    content: z.string().max(20_000).optional(),
    perception: episodeCycleShape.perception,
    context: episodeCycleShape.context,
    action: episodeCycleShape.action,
    decision: episodeCycleShape.decision,
  })
  .passthrough()
  .refine(
    (e) =>
      (e.content?.trim().length ?? 0) > 0 ||
      (e.perception?.objects?.length ?? 0) > 0 ||
      (e.perception?.people?.length ?? 0) > 0 ||
      (e.context?.goal?.trim().length ?? 0) > 0 ||
      (e.action?.tool?.trim().length ?? 0) > 0,
    'needs something to match: perception.objects, perception.people, context.goal, action.tool or content',
  );

/** Input of `predict`. */
export const predictInputSchema = z
  .object({
    scopes: readScopeListSchema,
    episode: formingEpisodeSchema,
    /** At most this many predictions, best first. */
    limit: z.number().int().min(1).max(50).default(5),
  })
  .strict();
export type PredictInput = z.input<typeof predictInputSchema>;
export type ParsedPredictInput = z.output<typeof predictInputSchema>;
