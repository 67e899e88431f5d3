/**
 * Conversations (ChatGPT, Claude.ai) as import units: one unit per conversation, each turn a captured
 * episode in the conversation's session, exactly as the Claude Code hooks store turns (claims read
 * from it, secrets redacted by the write path), keyed by {system, conversation id, message id} so
 * importing the same export again creates nothing.
 */
import { EngramError } from '../../core/errors.js';
import type { RememberInput } from '../../core/schemas.js';
import { emptyUnit, type ImportContext, type ImportUnit, type SkippedRecord } from './import-plan.js';
import { resolveScope } from './scope-template.js';
import { NO_TIME_REASON, timeOr } from './source-time.js';

/** The longest turn kept (the write path's limit, with room for the role prefix). */
const MAX_TURN_CHARS = 199_900;

/** One turn of a conversation, as read from an export. */
export interface ConversationTurn {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  /** Epoch ms, when the export records it. */
  at?: number;
}

/** A conversation read from an export: its turns in order and what was left out of it. */
export interface Conversation {
  id: string;
  title?: string;
  /** Epoch ms the conversation started, when recorded (a placeholder value for scope templates only). */
  createdAt?: number;
  turns: ConversationTurn[];
  skipped: SkippedRecord[];
}

/**
 * The import unit of one conversation. Scope placeholders: `{conversation_id}`, `{title}`. A turn
 * without a time takes `--default-time`, else it is skipped.
 */
export function conversationUnit(system: string, conversation: Conversation, context: ImportContext): ImportUnit {
  const label = conversation.title !== undefined && conversation.title !== '' ? conversation.title : conversation.id;
  const unit = emptyUnit(label);
  unit.skipped.push(...conversation.skipped);
  const resolved = resolveScope(context, { conversation_id: conversation.id, title: conversation.title });
  if ('problem' in resolved) {
    for (const turn of conversation.turns) unit.skipped.push({ ref: turnRef(conversation, turn), reason: resolved.problem });
    return unit;
  }
  for (const turn of conversation.turns) {
    const at = timeOr(turn.at, context.defaultTime);
    if (at === undefined) {
      unit.skipped.push({ ref: turnRef(conversation, turn), reason: NO_TIME_REASON });
      continue;
    }
    const text = turn.text.replaceAll('\u0000', '').trim();
    const input: RememberInput = {
      scope: resolved.scope,
      layer: 'episodic',
      content: `${turn.role}: ${text.length > MAX_TURN_CHARS ? `${text.slice(0, MAX_TURN_CHARS - 1)}…` : text}`,
      occurredAt: at,
      tags: [system, turn.role],
      context: { sessionId: conversation.id },
      source: { system, conversationId: conversation.id, messageId: turn.id },
      provenance: { kind: 'episodic' },
      capture: true,
    };
    unit.memories.push({ key: `${conversation.id}/${turn.id}`, input, ref: turnRef(conversation, turn) });
  }
  return unit;
}

function turnRef(conversation: Conversation, turn: ConversationTurn): string {
  return `conversation ${conversation.id}, message ${turn.id}`;
}

/** A list of conversations from a parsed `conversations.json`: the array, or an object holding one. */
export function conversationList(parsed: unknown, what: string): unknown[] {
  if (Array.isArray(parsed)) return parsed;
  if (typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { conversations?: unknown }).conversations)) {
    return (parsed as { conversations: unknown[] }).conversations;
  }
  throw new EngramError('INVALID_INPUT', `${what} must be a JSON array of conversations: pass the conversations.json of the export.`);
}
