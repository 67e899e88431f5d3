/**
 * Input schemas shared by every interface (library, CLI, MCP, HTTP). One schema per input; interfaces
 * never re-validate by hand.
 */
import { z } from 'zod';
import { messages } from './errors.js';
import { describeValue } from './parse-input.js';
import { LAYERS, PROVENANCE_KINDS, STATUSES } from './memory.js';
import { isInstant, MAX_INSTANT_MS, MIN_INSTANT_MS, parseIsoInstant } from './instant.js';
import { MAX_READ_SCOPES, scopeProblem } from './scope.js';
import { isTimeZone } from './text/time-zone.js';
import { cutText } from './text/cut-text.js';
import { personaSchema } from './persona/persona.js';
import { layerFieldProblems } from './layers/layer-rules.js';
import { statisticalMetricSchema } from './layers/statistical.js';
import type { Clock } from './ports/clock.js';
import type { Scheduler } from './ports/scheduler.js';

/** A fixed UTC offset in whole minutes east of UTC (-240 is New York in summer), from UTC-14:00 to UTC+14:00. */
export const timezoneOffsetSchema = z.number().int().min(-840).max(840);

/** An IANA time zone name ("Europe/Lisbon", "America/New_York", "UTC"), as the runtime's tz data knows it. */
export const timeZoneSchema = z
  .string()
  .refine(isTimeZone, {
    error: (issue) =>
      `${JSON.stringify(cutText(String(issue.input), 60))} is not a known IANA time zone: give a name such as "Europe/Lisbon", "America/New_York" or "UTC", or a fixed offset in timezoneOffsetMinutes`,
  })
  .describe(
    'IANA time zone of the caller\'s wall clock, e.g. "Europe/Lisbon"; each boundary of a date window takes the offset the zone has then (daylight saving)',
  );

/** Whether a read names at most one wall clock: `timeZone` and `timezoneOffsetMinutes` together are refused. */
export function oneWallClock(input: { timeZone?: string | undefined; timezoneOffsetMinutes?: number | undefined }): boolean {
  return input.timeZone === undefined || input.timezoneOffsetMinutes === undefined;
}

/**
 * The issue `oneWallClock` raises, a new object each call: zod's `refine(check, params)` rewrites `params`
 * in place (its message becomes an error function), so one object shared by several schemas lost its words.
 */
export function oneWallClockIssue(): { message: string; path: string[] } {
  return {
    message:
      'cannot be given with timezoneOffsetMinutes: give one of the two (timeZone, e.g. "Europe/Lisbon", follows daylight-saving changes; timezoneOffsetMinutes is one fixed offset)',
    path: ['timeZone'],
  };
}

/** Longest accepted `content` (characters). Longer texts are rejected; long-but-valid ones are chunked. */
export const MAX_CONTENT_CHARS = 200_000;

export const scopeSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = scopeProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `invalid scope "${cutText(value, 80)}": ${problem}` });
  })
  .describe('A scope path whose first segment is the tenant, e.g. "acme/users/alice"; segments match [A-Za-z0-9_-][A-Za-z0-9_.-]*');

/** The scopes a read may see: at least one; a missing list says how to pass one. */
export const readScopeListSchema = z
  .array(scopeSchema, { error: (issue) => (issue.input === undefined ? messages.noScopes() : undefined) })
  .min(1, messages.noScopes())
  // as browse and list: a read naming 40,000 scopes took 9 s and answered a refusal listing all of them
  .max(MAX_READ_SCOPES);

/**
 * A point in time, the one date schema of every input: ISO 8601 text or integer epoch milliseconds,
 * a real calendar date in years 0001-9999 (2024-02-30 is refused, not rolled over); parsed to epoch ms.
 */
export const instantSchema = z
  .union([z.string(), z.number()], {
    error: (issue) =>
      `must be a date: ISO 8601 text like 2024-05-01T12:00:00Z or epoch milliseconds, not ${describeValue(issue.input)}${issue.input instanceof Date ? ' (pass date.toISOString())' : ''}`,
  })
  .transform((value, ctx) => {
    const ms = typeof value === 'number' ? value : parseIsoInstant(value);
    if (!isInstant(ms)) {
      ctx.addIssue({ code: 'custom', message: instantProblem(value) });
      return z.NEVER;
    }
    return ms;
  });

function instantProblem(value: string | number): string {
  if (typeof value === 'number') {
    return Number.isInteger(value)
      ? `${String(value).slice(0, 40)} is outside years 0001-9999: epoch milliseconds must be from ${MIN_INSTANT_MS} to ${MAX_INSTANT_MS}`
      : `${String(value).slice(0, 40)} is not whole epoch milliseconds: round it, or pass ISO 8601 like 2024-05-01T12:00:00Z`;
  }
  return `"${cutText(value, 40)}" is not a date: use ISO 8601 like 2024-05-01 or 2024-05-01T12:00:00Z (a real calendar date, years 0001-9999)`;
}

/** Deepest nesting accepted in free-form JSON (properties, action args, edge metadata); SQLite's JSON functions stop at 1000. */
export const MAX_JSON_DEPTH = 64;

/** How deeply `value` nests arrays and objects (a scalar is 0), counting no further than `limit + 1`. */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  // iterative, so a hostile depth cannot overflow the stack
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A free-form JSON object of named fields, nested at most `MAX_JSON_DEPTH` levels. */
export const jsonObjectSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  if (jsonDepth(value) > MAX_JSON_DEPTH)
    ctx.addIssue({ code: 'custom', message: `nests more than ${MAX_JSON_DEPTH} levels deep: flatten it` });
});

const unit = z.number().min(0).max(1);
const shortText = z.string().max(2_000);

const sourceRefSchema = z
  .object({
    system: shortText.optional(),
    conversationId: shortText.optional(),
    messageId: shortText.optional(),
    messageRange: z.tuple([shortText, shortText]).optional(),
    uri: shortText.optional(),
  })
  .strict();

export const emotionSchema = z
  .object({ valence: z.number().min(-1).max(1), intensity: z.number().min(0).max(10), mood: z.array(shortText).max(16).optional() })
  .strict();

export const episodeCycleShape = {
  perception: z
    .object({
      objects: z.array(shortText).max(100).optional(),
      people: z.array(shortText).max(100).optional(),
      salience: unit.optional(),
      novelty: unit.optional(),
    })
    .strict()
    .optional(),
  context: z
    .object({
      goal: shortText.optional(),
      location: shortText.optional(),
      sessionId: shortText.optional(),
      runId: shortText.optional(),
      question: shortText.optional(),
    })
    .strict()
    .optional(),
  decision: z
    .object({ intent: shortText.optional(), confidence: unit.optional(), rationale: z.string().max(20_000).optional() })
    .strict()
    .optional(),
  action: z.object({ tool: shortText.optional(), args: jsonObjectSchema.optional() }).strict().optional(),
  outcome: z
    .object({ success: z.boolean().optional(), reward: z.number().optional(), detail: z.string().max(20_000).optional() })
    .strict()
    .optional(),
};

/** Input of `remember` (one memory). */
export const rememberInputSchema = z
  .object({
    scope: scopeSchema,
    content: z
      .string()
      .refine((s) => s.trim().length > 0, 'must not be empty')
      .refine((s) => s.length <= MAX_CONTENT_CHARS, `is longer than ${MAX_CONTENT_CHARS} characters; split it or store a summary`),
    layer: z.enum(LAYERS).optional(),
    summary: z.string().max(20_000).optional(),
    occurredAt: instantSchema.optional(),
    validFrom: instantSchema.optional(),
    validTo: instantSchema.optional(),
    importance: unit.optional(),
    confidence: unit.optional(),
    tags: z.array(z.string().min(1).max(100)).max(100).optional(),
    entities: z.array(z.string().min(1).max(200)).max(200).optional(),
    pinned: z.boolean().optional(),
    emotion: emotionSchema.optional(),
    provenance: z
      .object({
        kind: z.enum(PROVENANCE_KINDS),
        sources: z.array(sourceRefSchema).max(100).optional(),
        derivedFrom: z.array(z.string()).max(1000).optional(),
      })
      .strict()
      .optional(),
    /** Where this came from; `conversationId` + `messageId` make re-ingest idempotent. */
    source: sourceRefSchema.optional(),
    name: shortText.optional(),
    definition: z.string().max(20_000).optional(),
    category: shortText.optional(),
    properties: jsonObjectSchema.optional(),
    priority: z.number().int().min(-1000).max(1000).optional(),
    /** Statistical layer: the numbers; see `verbalForm`. */
    metric: statisticalMetricSchema.optional(),
    /** A conversation turn whose claim-shaped sentences also become semantic claims (the episode keeps the turn). */
    capture: z.boolean().optional(),
    /** With `capture`: where a stable fact the user states about themselves goes (default: `scope`). */
    userScope: scopeSchema.optional(),
    ...episodeCycleShape,
    /** Decision chains: alternatives this decision turned down, each stored as an episode linked `REJECTED`. */
    rejected: z
      .array(
        z
          .string()
          .refine((s) => s.trim().length > 0, 'must not be empty')
          .refine((s) => s.length <= 20_000, 'is longer than 20000 characters'),
      )
      .max(20)
      .optional(),
    /** Decision chains: ids of memories of the same scope this one led to (`LED_TO`). */
    ledTo: z.array(z.string().min(1).max(100)).max(50).optional(),
    /** Decision chains: the id of the decision this memory follows from (that decision `LED_TO` this one). */
    follows: z.string().min(1).max(100).optional(),
    /** IANA time zone of the writer's wall clock: relative dates in the text ("yesterday") are read on it (default UTC). */
    timeZone: timeZoneSchema
      .optional()
      .describe(
        'IANA time zone of the writer\'s wall clock, e.g. "Europe/Lisbon": relative dates in the text ("yesterday", "on Friday") are read on it; default UTC',
      ),
    /** Minutes east of UTC of the writer's wall clock, instead of timeZone. */
    timezoneOffsetMinutes: timezoneOffsetSchema.optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (!oneWallClock(input)) ctx.addIssue({ code: 'custom', ...oneWallClockIssue() });
    for (const [field, message] of layerFieldProblems(input)) ctx.addIssue({ code: 'custom', path: [field], message });
    if (input.capture === true && input.layer !== undefined && input.layer !== 'episodic') {
      ctx.addIssue({
        code: 'custom',
        path: ['capture'],
        message: `captures conversation turns, which are episodes: drop "layer" or set it to "episodic" (got "${input.layer}")`,
      });
    }
    if (input.validFrom !== undefined && input.validTo !== undefined && input.validTo <= input.validFrom) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'must be after validFrom' });
    } else if (
      input.validFrom === undefined &&
      input.occurredAt !== undefined &&
      input.validTo !== undefined &&
      input.validTo <= input.occurredAt
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['validTo'],
        message: 'must be after validFrom, which defaults to occurredAt: give an earlier validFrom or a later validTo',
      });
    }
  });
export type RememberInput = z.input<typeof rememberInputSchema>;
export type ParsedRememberInput = z.output<typeof rememberInputSchema>;

/** Channel weights of recall; 0 switches a channel off. */
export const channelWeightsSchema = z
  .object({
    lexical: z.number().min(0).max(10).optional(),
    semantic: z.number().min(0).max(10).optional(),
    entity: z.number().min(0).max(10).optional(),
    temporal: z.number().min(0).max(10).optional(),
    mention: z.number().min(0).max(10).optional(),
    graph: z.number().min(0).max(10).optional(),
    affect: z.number().min(0).max(10).optional(),
    neighbour: z.number().min(0).max(10).optional(),
  })
  .strict();

/** Options of `recall`. */
export const recallOptionsSchema = z
  .object({
    scopes: readScopeListSchema,
    k: z.number().int().min(1).max(1000).optional(),
    layers: z.array(z.enum(LAYERS)).min(1).optional(),
    asOf: instantSchema.optional(),
    knownAt: instantSchema.optional(),
    includeSuperseded: z.boolean().optional(),
    weights: channelWeightsSchema.optional(),
    /** "Now" for date expressions in the query ("last May"); default: asOf, else the current time. */
    referenceTime: instantSchema.optional(),
    /** Minutes east of UTC of the caller's wall clock, for the query's dates ("on May 1" is that local day); default 0, UTC. */
    timezoneOffsetMinutes: timezoneOffsetSchema.optional(),
    /** IANA time zone of the caller's wall clock for the query's dates, daylight saving included; instead of timezoneOffsetMinutes. */
    timeZone: timeZoneSchema.optional(),
    /** Do not record this read as an access (benchmarks, previews). */
    trackAccess: z.boolean().optional(),
    /** Re-rank by a persona: true = the stored persona of the scopes, false = off, or a persona to use. Default: the engine's `recall.persona` (off). */
    persona: z.union([z.boolean(), personaSchema]).optional(),
    /** Return the whole decision chain of each hit that belongs to one (`hit.chain`). */
    chains: z.boolean().optional(),
  })
  .strict()
  .refine(oneWallClock, oneWallClockIssue());
export type RecallOptions = z.input<typeof recallOptionsSchema>;

export const recallQuerySchema = z
  .string()
  .refine((s) => s.trim().length > 0, 'must not be empty: pass the text to search for')
  .refine((s) => s.length <= 10_000, 'is longer than 10000 characters');

/** Fields `update` may change. */
export const updateInputSchema = z
  .object({
    content: z
      .string()
      .refine((s) => s.trim().length > 0, 'must not be empty')
      .refine((s) => s.length <= MAX_CONTENT_CHARS, `is longer than ${MAX_CONTENT_CHARS} characters`)
      .optional(),
    summary: z.string().max(20_000).nullable().optional(),
    importance: unit.optional(),
    confidence: unit.optional(),
    tags: z.array(z.string().min(1).max(100)).max(100).optional(),
    pinned: z.boolean().optional(),
    validFrom: instantSchema.optional(),
    validTo: instantSchema.nullable().optional(),
    occurredAt: instantSchema.nullable().optional(),
    emotion: emotionSchema.nullable().optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change');
export type UpdateInput = z.input<typeof updateInputSchema>;

export const statusSchema = z.enum(STATUSES);

export { describeValue, idSchema, parseChunkSource, parseId, parseIds, parseInput, parseOptions } from './parse-input.js';

/** Secret redaction of the write path: on unless `enabled: false`; `patterns` add kinds of your own. */
export const redactionOptionsSchema = z
  .object({
    enabled: z.boolean().optional(),
    patterns: z
      .array(
        z
          .object({
            kind: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be lower-case letters, digits and dashes, e.g. "internal-token"'),
            pattern: z.string().min(1).max(2_000),
          })
          .strict(),
      )
      .max(100)
      .optional(),
  })
  .strict();

// --- options of the library's methods (parsed with parseOptions: left out is {}, null is refused) ---

/** A callback option: any function. */
const callbackSchema = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function');

/** Options of `purge` and `expire`: who the audit entry names (default `library`). */
export const auditOptionsSchema = z.object({ actor: z.string().min(1).max(200).optional() }).strict();

/** Options of `rememberBatches`. */
export const rememberBatchesOptionsSchema = z.object({ batchSize: z.number().int().min(1).optional() }).strict();

/** Options of `edges` besides its scopes and time filter (parsed on their own): the relation types to keep. */
export const edgeTypesOptionsSchema = z.object({ types: z.array(z.string().min(1).max(100)).max(100).optional() });

/** Options of `importJsonl`. */
export const importDumpOptionsSchema = z
  .object({
    permitScope: callbackSchema.optional(),
    permitTenant: callbackSchema.optional(),
    batchSize: z.number().int().min(1).max(10_000).optional(),
    onProgress: callbackSchema.optional(),
  })
  .strict();

/** The files of `importMarkdown`: file name → text. */
export const markdownFilesSchema = z.record(z.string(), z.string());

/**
 * The longest lease a job claim may take (a day): a crashed worker's jobs wait that long before
 * another process takes them over. Both stores refuse a longer one alike.
 */
export const MAX_LEASE_MS = 86_400_000;

/** Options of `processJobs` (`DrainOptions`). */
export const drainOptionsSchema = z
  .object({
    limit: z.number().int().min(0).optional(),
    maxMs: z.number().min(0).optional(),
    batch: z.number().int().min(1).max(1_000).optional(),
    owner: z.string().min(1).max(200).optional(),
    scopes: z.union([z.literal('all'), readScopeListSchema]).optional(),
    /** Whole milliseconds from 1 to `MAX_LEASE_MS`. */
    leaseMs: z.number().int().min(1).max(MAX_LEASE_MS).optional(),
  })
  .strict();

/** The longest delay a timer takes (about 24.8 days): Node fires a longer `setTimeout` at once. */
export const MAX_TIMER_MS = 2_147_483_647;
const timerMsSchema = z.number().gt(0).max(MAX_TIMER_MS);

/** Options of `startBackground` (and the object form of `Engram.open`'s `background`). */
export const backgroundOptionsSchema = z.object({ idleMs: timerMsSchema.optional(), duty: z.number().gt(0).max(1).optional() }).strict();

/** Options of `startIdleReflection`. */
export const idleReflectionOptionsSchema = z
  .object({
    idleMs: timerMsSchema,
    threshold: z.number().gt(0).optional(),
    clock: z
      .custom<Clock>((value) => typeof (value as Partial<Clock> | null)?.now === 'function', 'must be a clock: an object with now()')
      .optional(),
    scheduler: z
      .custom<Scheduler>(
        (value) =>
          typeof (value as Partial<Scheduler> | null)?.after === 'function' && typeof (value as Partial<Scheduler>).nextTurn === 'function',
        'must be a scheduler: an object with after() and nextTurn()',
      )
      .optional(),
    onEvent: callbackSchema.optional(),
  })
  .strict();
