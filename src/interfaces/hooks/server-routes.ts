/**
 * The hook operations `engram serve` answers at `POST /hooks/<operation>`, so a hook process does not
 * have to load the engine: session-context, prompt-context, cursor, ingest, session-end. Bodies are validated here; the caller
 * (serve) authorises the scopes before anything runs.
 */
import { z } from 'zod';
import type { Engram } from '../../engram.js';
import { EngramError } from '../../core/errors.js';
import { oneWallClockIssue, oneWallClock, parseInput, scopeSchema, timeZoneSchema, timezoneOffsetSchema } from '../../core/schemas.js';
import type { Scope } from '../../core/scope.js';
import { endSession, ingestTurns, promptContext, readCursor, sessionContext } from './handlers.js';

const turnSchema = z
  .object({
    uuid: z.string().min(1).max(500),
    role: z.enum(['user', 'assistant']),
    text: z.string().min(1).max(200_000),
    timestamp: z.string().max(100).optional(),
  })
  .strict();

const promptContextSchema = z
  .object({
    scopes: z.array(scopeSchema).min(1).max(32),
    prompt: z.string().max(200_000),
    budgetMs: z.number().int().min(1).max(10_000).optional(),
    maxTokens: z.number().int().min(50).max(100_000).optional(),
    k: z.number().int().min(1).max(50).optional(),
    timeZone: timeZoneSchema.optional(),
    timezoneOffsetMinutes: timezoneOffsetSchema.optional(),
  })
  .strict()
  .refine(oneWallClock, oneWallClockIssue());
const ingestSchema = z
  .object({
    scope: scopeSchema,
    sessionId: z.string().min(1).max(500),
    turns: z.array(turnSchema).max(5_000),
    userScope: scopeSchema.optional(),
    // the user's wall clock: relative dates in the turns ("yesterday") are days of it
    timeZone: timeZoneSchema.optional(),
    timezoneOffsetMinutes: timezoneOffsetSchema.optional(),
  })
  .strict()
  .refine(oneWallClock, oneWallClockIssue());
const sessionContextSchema = z.object({ scopes: z.array(scopeSchema).min(1).max(32) }).strict();
const sessionEndSchema = z.object({ scope: scopeSchema, sessionId: z.string().min(1).max(500) }).strict();

export const HOOK_OPERATIONS = ['session-context', 'prompt-context', 'cursor', 'ingest', 'session-end'] as const;
export type HookOperation = (typeof HOOK_OPERATIONS)[number];

/**
 * Runs one hook operation. `authorize` receives every scope the body names and throws when one is
 * not allowed.
 */
export async function runHookOperation(
  engram: Engram,
  operation: string,
  body: unknown,
  authorize: (scopes: readonly Scope[]) => void,
): Promise<Record<string, unknown>> {
  switch (operation) {
    case 'prompt-context': {
      const input = parseInput(promptContextSchema, body, 'prompt-context');
      authorize(input.scopes);
      return { ...(await promptContext(engram, input)) };
    }
    case 'session-context': {
      const input = parseInput(sessionContextSchema, body, 'session-context');
      authorize(input.scopes);
      return { ...(await sessionContext(engram, input)) };
    }
    case 'ingest': {
      const input = parseInput(ingestSchema, body, 'ingest');
      authorize(input.userScope !== undefined ? [input.scope, input.userScope] : [input.scope]);
      return { ...(await ingestTurns(engram, input)) };
    }
    case 'cursor': {
      const input = parseInput(sessionEndSchema, body, 'cursor');
      authorize([input.scope]);
      return readCursor(engram, input);
    }
    case 'session-end': {
      const input = parseInput(sessionEndSchema, body, 'session-end');
      authorize([input.scope]);
      return endSession(engram, input);
    }
    default:
      throw new EngramError('NOT_FOUND', `Unknown hook operation "${operation.slice(0, 40)}": use one of ${HOOK_OPERATIONS.join(', ')}.`);
  }
}
