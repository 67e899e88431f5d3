/**
 * What each hook does with an open engine. `engram serve` runs these for a hook that reaches it over
 * HTTP; a hook without a server opens the store and runs them itself, so both paths behave the same.
 */
import type { EngramCore } from '../../core/engine.js';
import type { Scope } from '../../core/scope.js';
import type { RememberInput } from '../../core/schemas.js';
import { callOptional, hasMethod } from '../mcp/engine-access.js';
import type { Turn } from './transcript.js';

/** The `system` of source refs written by the Claude Code hooks. */
export const CLAUDE_CODE_SYSTEM = 'claude-code';

export interface PromptContextRequest {
  scopes: Scope[];
  prompt: string;
  budgetMs?: number;
  maxTokens?: number;
  /** Most memories in the recall-based block (when the engine has no context builder). */
  k?: number;
}

export interface PromptContextResult {
  /** The block to print (empty when nothing is relevant). */
  text: string;
  via: 'context' | 'recall';
}

/** The context block for a prompt: the engine's context builder when present, else recall hits. */
export async function promptContext(engram: EngramCore, request: PromptContextRequest): Promise<PromptContextResult> {
  if (hasMethod(engram, 'context')) {
    const result = (await callOptional(engram, 'context', {
      scopes: request.scopes,
      message: request.prompt,
      ...(request.budgetMs !== undefined ? { budgetMs: request.budgetMs } : {}),
      ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    })) as { markdown?: unknown; parts?: Record<string, { level?: string; items?: unknown[] }> };
    const parts = Object.values(result.parts ?? {});
    // A cold process can spend the whole budget warming up: then recall, which has no deadline, still answers.
    if (parts.length > 0 && parts.every((part) => part?.level === 'skipped')) return recallBlock(engram, request);
    const markdown = typeof result.markdown === 'string' ? result.markdown.trim() : '';
    // Nothing known yet: print nothing rather than an empty frame on every prompt.
    const items = Object.values(result.parts ?? {}).reduce((n, part) => n + (Array.isArray(part?.items) ? part.items.length : 0), 0);
    const empty = markdown.length === 0 || (result.parts !== undefined && items === 0);
    return { text: empty ? '' : `<engram-memory>\n${markdown}\n</engram-memory>`, via: 'context' };
  }
  return recallBlock(engram, request);
}

async function recallBlock(engram: EngramCore, request: PromptContextRequest): Promise<PromptContextResult> {
  const { hits } = await engram.recall(request.prompt, { scopes: request.scopes, k: request.k ?? 5 });
  if (hits.length === 0) return { text: '', via: 'recall' };
  const lines = hits.map((h) => `- [${(h.occurredAt ?? h.validFrom).slice(0, 10)}, ${h.layer}] ${h.content.replace(/\s+/g, ' ').slice(0, 500)}`);
  return { text: `<engram-memory>\n## Relevant memories\n${lines.join('\n')}\n</engram-memory>`, via: 'recall' };
}

export interface IngestRequest {
  scope: Scope;
  sessionId: string;
  turns: Turn[];
}

export interface IngestResult {
  stored: number;
  unchanged: number;
  /** The uuid of the last turn handled: the next cursor. */
  lastUuid?: string;
}

/**
 * Stores conversation turns as episodes with source refs {system: 'claude-code', conversationId:
 * session id, messageId: uuid}; a turn already stored from the same source is left unchanged.
 */
export async function ingestTurns(engram: EngramCore, request: IngestRequest): Promise<IngestResult> {
  if (request.turns.length === 0) return { stored: 0, unchanged: 0 };
  const inputs: RememberInput[] = request.turns.map((turn) => ({
    scope: request.scope,
    layer: 'episodic',
    content: `${turn.role}: ${turn.text}`,
    ...(turn.timestamp !== undefined && Number.isFinite(Date.parse(turn.timestamp)) ? { occurredAt: Date.parse(turn.timestamp) } : {}),
    tags: [CLAUDE_CODE_SYSTEM, turn.role],
    context: { sessionId: request.sessionId },
    source: { system: CLAUDE_CODE_SYSTEM, conversationId: request.sessionId, messageId: turn.uuid },
    provenance: { kind: 'episodic' },
  }));
  const results = await engram.remember(inputs);
  const unchanged = results.filter((r) => r.action === 'unchanged').length;
  const last = request.turns[request.turns.length - 1] as Turn;
  return { stored: results.length - unchanged, unchanged, lastUuid: last.uuid };
}

/** Ends a session: the engine's `endSession` (mandatory consolidation) when this build has it. */
export async function endSession(engram: EngramCore, request: { scope: Scope; sessionId: string }): Promise<Record<string, unknown>> {
  if (!hasMethod(engram, 'endSession')) return { skipped: 'endSession is not available in this build of Engram' };
  const report = await callOptional(engram, 'endSession', { scope: request.scope, sessionId: request.sessionId });
  return { report: report ?? null };
}
