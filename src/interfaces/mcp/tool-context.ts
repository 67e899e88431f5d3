/**
 * What every tool handler receives: the engine and the scopes this server may use, with the rules
 * that keep a tool call inside them (a call cannot widen them).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Engram } from '../../engram.js';
import { EngramError } from '../../core/errors.js';
import type { Scope } from '../../core/scope.js';
import { toToolError } from './error-mapping.js';
import { machineWallClock, type MachineWallClock } from '../machine-wall-clock.js';

export interface ToolContext {
  engram: Engram;
  /** The scopes this server may use, in the order given; the first is the default for writes. */
  scopes: readonly Scope[];
}

/** The scope a write goes to: the one named (if allowed), else the first allowed scope. */
export function writeScope(context: ToolContext, scope: string | undefined): Scope {
  if (scope === undefined) return context.scopes[0] as Scope;
  assertAllowed(context, [scope]);
  return scope;
}

/** The scopes a read sees: `scope` or `scopes` (each allowed), else every allowed scope. */
export function readScopes(context: ToolContext, input: { scope?: string | undefined; scopes?: string[] | undefined }): Scope[] {
  if (input.scope !== undefined && input.scopes !== undefined) {
    throw new EngramError('INVALID_INPUT', 'Give either `scope` or `scopes`, not both.');
  }
  const named = input.scopes ?? (input.scope !== undefined ? [input.scope] : undefined);
  if (named === undefined) return [...context.scopes];
  assertAllowed(context, named);
  return [...new Set(named)];
}

function assertAllowed(context: ToolContext, scopes: readonly string[]): void {
  const denied = scopes.filter((s) => !context.scopes.includes(s));
  if (denied.length > 0) {
    throw new EngramError(
      'SCOPE_DENIED',
      `Scope ${denied.map((s) => `"${s}"`).join(', ')} is not open to this server. It may use: ${context.scopes.map((s) => `"${s}"`).join(', ')}. Omit scope to use the default, or start the server with --scope for the one you need.`,
      { details: { denied } },
    );
  }
}

/**
 * The wall clock of a read's dates ("yesterday"): the zone the call names, else the zone of the
 * machine this server runs on (the user's own over stdio).
 */
export function wallClock(timeZone: string | undefined): MachineWallClock {
  return timeZone !== undefined ? { timeZone } : machineWallClock();
}

/** A successful result: structured content plus a text rendering for clients that only read text. */
export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Runs a handler and turns any failure into a tool error. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toToolError(error);
  }
}
