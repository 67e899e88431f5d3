/**
 * What each hook does with an open engine. `engram serve` runs these for a hook that reaches it over
 * HTTP; a hook without a server opens the store and runs them itself, so both paths behave the same.
 */
import { isInstant } from '../../core/instant.js';
import type { Engram } from '../../engram.js';
import type { Scope } from '../../core/scope.js';
import type { RememberInput } from '../../core/schemas.js';
import { promptQuery } from './prompt-query.js';
import type { Turn } from './transcript.js';
import { CONTEXT_PARTS } from '../../serving/types.js';

/** The `system` of source refs written by the Claude Code hooks. */
export const CLAUDE_CODE_SYSTEM = 'claude-code';

export interface PromptContextRequest {
  scopes: Scope[];
  prompt: string;
  budgetMs?: number;
  maxTokens?: number;
  /** Most memories in the recall-based block (when the engine has no context builder). */
  k?: number;
  /** The wall clock of the prompt's dates ("yesterday"): the user's IANA zone, or a fixed offset; default UTC. */
  timeZone?: string;
  timezoneOffsetMinutes?: number;
}

export interface PromptContextResult {
  /** The block to print (empty when nothing is relevant). */
  text: string;
  via: 'context' | 'recall' | 'context+recall';
}

/** The context block for a prompt: the engine's context builder (recall hits when it ran out of time). */
export async function promptContext(engram: Engram, request: PromptContextRequest): Promise<PromptContextResult> {
  // A prompt longer than a query may be is searched by its beginning and end rather than refused.
  const query = { ...request, prompt: promptQuery(request.prompt) };
  if (query.prompt.length === 0) return { text: '', via: 'context' };
  const result = await engram.context({
    scopes: query.scopes,
    message: query.prompt,
    ...(query.budgetMs !== undefined ? { budgetMs: query.budgetMs } : {}),
    ...(query.maxTokens !== undefined ? { maxTokens: query.maxTokens } : {}),
    ...wallClockOf(query),
  });
  const parts = CONTEXT_PARTS.map((name) => result.parts[name]);
  if (parts.every((part) => part.items.length === 0)) {
    // Out of time before anything was found (a cold or busy process): recall has no deadline and still answers.
    if (parts.some((part) => part.level === 'skipped')) return recallBlock(engram, query);
    // Nothing known yet: print nothing rather than an empty frame on every prompt.
    return { text: '', via: 'context' };
  }
  const block = result.markdown.trim();
  if (result.parts.knowledge.level === 'skipped' && result.parts.episodes.level === 'skipped') {
    // Rules and profile came, the search ran out of time: what the prompt is about comes from recall.
    const recalled = await recallSection(engram, query);
    if (recalled !== '') return { text: frame(`${block}\n\n${recalled}`), via: 'context+recall' };
  }
  return { text: frame(block), via: 'context' };
}

async function recallBlock(engram: Engram, request: PromptContextRequest): Promise<PromptContextResult> {
  const section = await recallSection(engram, request);
  return { text: section === '' ? '' : frame(section), via: 'recall' };
}

/** Recall's hits as a Markdown section (empty when there are none). */
async function recallSection(engram: Engram, request: PromptContextRequest): Promise<string> {
  const { hits } = await engram.recall(request.prompt, { scopes: request.scopes, k: request.k ?? 5, ...wallClockOf(request) });
  if (hits.length === 0) return '';
  const lines = hits.map(
    (h) => `- [${(h.occurredAt ?? h.validFrom).slice(0, 10)}, ${h.layer}] ${h.content.replace(/\s+/g, ' ').slice(0, 500)}`,
  );
  return `## Relevant memories\n${lines.join('\n')}`;
}

function wallClockOf(request: PromptContextRequest): { timeZone?: string; timezoneOffsetMinutes?: number } {
  return {
    ...(request.timeZone !== undefined ? { timeZone: request.timeZone } : {}),
    ...(request.timezoneOffsetMinutes !== undefined ? { timezoneOffsetMinutes: request.timezoneOffsetMinutes } : {}),
  };
}

/** The frame Claude Code sees the memory block in. */
function frame(markdown: string): string {
  return `<engram-memory>\n${markdown}\n</engram-memory>`;
}

export interface IngestRequest {
  scope: Scope;
  sessionId: string;
  turns: Turn[];
  /** The user's scope: answers to clarifying questions that are stable facts land here. */
  userScope?: Scope;
  /** The user's wall clock, on which the turns' relative dates ("yesterday") are read (default UTC). */
  timeZone?: string;
  timezoneOffsetMinutes?: number;
}

export interface IngestResult {
  stored: number;
  unchanged: number;
  /** The uuid of the last turn handled: the next cursor. */
  lastUuid?: string;
  /** Secrets replaced by `[redacted:<kind>]` in the stored turns (absent when none). */
  redacted?: number;
  /** What became of the claims read from the stored turns (absent when none were read). */
  claims?: Record<'created' | 'merged' | 'superseded' | 'unchanged', number>;
}

/** The state document holding a session's ingestion cursor. */
export function cursorKey(sessionId: string): string {
  return `claude-code/cursor/${sessionId}`;
}

/** The uuid of the last transcript entry stored for a session, from the scope's state documents. */
export async function readCursor(engram: Engram, request: { scope: Scope; sessionId: string }): Promise<{ lastUuid?: string }> {
  const entry = await engram.store.getState(request.scope, cursorKey(request.sessionId));
  const lastUuid = (entry?.value as { lastUuid?: unknown } | null | undefined)?.lastUuid;
  return typeof lastUuid === 'string' ? { lastUuid } : {};
}

/**
 * Stores conversation turns as episodes with source refs {system: 'claude-code', conversationId:
 * session id, messageId: uuid}, each captured (its claim-shaped sentences become claims), and moves the session's cursor to the last one; a turn already stored
 * from the same source is left unchanged.
 */
export async function ingestTurns(engram: Engram, request: IngestRequest): Promise<IngestResult> {
  if (request.turns.length === 0) return { stored: 0, unchanged: 0 };
  const inputs: RememberInput[] = request.turns.map((turn) => ({
    scope: request.scope,
    layer: 'episodic',
    content: `${turn.role}: ${turn.text}`,
    ...(turn.timestamp !== undefined && isInstant(Date.parse(turn.timestamp)) ? { occurredAt: Date.parse(turn.timestamp) } : {}),
    tags: [CLAUDE_CODE_SYSTEM, turn.role],
    context: { sessionId: request.sessionId },
    source: { system: CLAUDE_CODE_SYSTEM, conversationId: request.sessionId, messageId: turn.uuid },
    provenance: { kind: 'episodic' },
    // the hooks always capture: the claims of a user turn supersede what they change
    capture: true,
    ...(request.userScope !== undefined ? { userScope: request.userScope } : {}),
    ...(request.timeZone !== undefined ? { timeZone: request.timeZone } : {}),
    ...(request.timezoneOffsetMinutes !== undefined ? { timezoneOffsetMinutes: request.timezoneOffsetMinutes } : {}),
  }));
  const results = await engram.remember(inputs);
  const unchanged = results.filter((r) => r.action === 'unchanged').length;
  const last = request.turns[request.turns.length - 1] as Turn;
  // After the turns: a crash in between leaves the cursor behind, and re-ingesting is idempotent.
  const now = engram.clock.now();
  await engram.store.transaction((tx) =>
    tx.setState(request.scope, cursorKey(request.sessionId), { lastUuid: last.uuid, updatedAt: new Date(now).toISOString() }, now),
  );
  const redacted = results.reduce((n, r) => n + (r.action === 'unchanged' ? 0 : (r.redacted ?? 0)), 0);
  const claims = { created: 0, merged: 0, superseded: 0, unchanged: 0 };
  for (const claim of results.flatMap((r) => r.claims ?? [])) claims[claim.action] += 1;
  const anyClaims = Object.values(claims).some((n) => n > 0);
  return {
    stored: results.length - unchanged,
    unchanged,
    lastUuid: last.uuid,
    ...(redacted > 0 ? { redacted } : {}),
    ...(anyClaims ? { claims } : {}),
  };
}

/** Most profile facts in the session-start block. */
const SESSION_PROFILE_LIMIT = 12;

/**
 * The block a session starts with: every current procedural rule of the scopes and the profile facts
 * (the user's scopes, else all), highest priority and importance first; empty when there are none.
 */
export async function sessionContext(
  engram: Engram,
  request: { scopes: Scope[] },
): Promise<{ text: string; rules: number; profile: number }> {
  const [{ readProcedural, readProfileFacts, rankProfile }, { entryLine }] = await Promise.all([
    import('../../serving/parts.js'),
    import('../../serving/render.js'),
  ]);
  const now = engram.clock.now();
  const [{ rules }, facts] = await Promise.all([
    readProcedural(engram.store, request.scopes, now),
    readProfileFacts(engram.store, request.scopes, now),
  ]);
  const profile = rankProfile(facts, '').slice(0, SESSION_PROFILE_LIMIT);
  if (rules.length === 0 && profile.length === 0) return { text: '', rules: 0, profile: 0 };
  const lines = ['<engram-memory>'];
  if (rules.length > 0) lines.push('## Rules', ...rules.map((r) => entryLine('rules', r)));
  if (profile.length > 0)
    lines.push(...(rules.length > 0 ? [''] : []), '## About the user', ...profile.map((p) => entryLine('profile', p)));
  lines.push('</engram-memory>');
  return { text: lines.join('\n'), rules: rules.length, profile: profile.length };
}

/** Ends a session: the engine's `endSession` (the session's consolidation). */
export async function endSession(engram: Engram, request: { scope: Scope; sessionId: string }): Promise<Record<string, unknown>> {
  return { report: await engram.endSession(request) };
}
