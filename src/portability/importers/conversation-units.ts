/**
 * Conversations (ChatGPT, Claude.ai) as import units: one unit per conversation, each turn a captured
 * episode in the conversation's session, exactly as the Claude Code hooks store turns (claims read
 * from it, secrets redacted by the write path), keyed by {system, conversation id, message id} so
 * importing the same export again creates nothing.
 */
import { EngramError } from '../../core/errors.js';
import type { RememberInput } from '../../core/schemas.js';
import { formatName, requireShape } from './file-shape.js';
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
 * without a time takes `--default-time`, else it is skipped. A message id the conversation repeats
 * (see {@link distinctTurns}) is reported or numbered, never written over the first.
 */
export function conversationUnit(system: string, conversation: Conversation, context: ImportContext): ImportUnit {
  const label = conversation.title !== undefined && conversation.title !== '' ? conversation.title : conversation.id;
  const unit = emptyUnit(label);
  unit.skipped.push(...conversation.skipped);
  const turns = distinctTurns(conversation, unit.skipped);
  const resolved = resolveScope(context, { conversation_id: conversation.id, title: conversation.title });
  if ('problem' in resolved) {
    for (const turn of turns) unit.skipped.push({ ref: turnRef(conversation, turn), reason: resolved.problem });
    return unit;
  }
  for (const turn of turns) {
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

/** Why a turn repeating an earlier one (same message id, role and text) is not imported again. */
export const REPEATED_TURN_REASON = 'message repeated in the conversation (same id, sender and text as an earlier message)';

/**
 * The turns of a conversation with each message id once, since the id is the turn's source (a
 * second turn under one id would be taken for the first and left out unreported): a turn repeating an
 * earlier one exactly is skipped and reported; one that says something else under the same id is
 * kept as `<id>#2` (`#3`, …), numbered in the order of the export.
 */
function distinctTurns(conversation: Conversation, skipped: SkippedRecord[]): ConversationTurn[] {
  const said = new Map<string, string[]>();
  const taken = new Set<string>();
  const turns: ConversationTurn[] = [];
  for (const turn of conversation.turns) {
    const versions = said.get(turn.id) ?? [];
    said.set(turn.id, versions);
    const version = `${turn.role}\u0000${turn.text}`;
    if (versions.includes(version)) {
      skipped.push({ ref: turnRef(conversation, turn), reason: REPEATED_TURN_REASON });
      continue;
    }
    versions.push(version);
    let id = versions.length === 1 ? turn.id : `${turn.id}#${versions.length}`;
    // an id the export itself spells `<id>#2` stays apart from a numbered one
    for (let n = versions.length + 1; taken.has(id); n++) id = `${turn.id}#${n}`;
    taken.add(id);
    turns.push(id === turn.id ? turn : { ...turn, id });
  }
  return turns;
}

/**
 * A list of conversations from a parsed `conversations.json` (the array, or an object holding one),
 * refused when none of them has the shape of the format's conversations (the file is another format).
 */
export function conversationList(parsed: unknown, format: 'chatgpt' | 'claude-ai'): unknown[] {
  const list = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { conversations?: unknown }).conversations)
      ? (parsed as { conversations: unknown[] }).conversations
      : undefined;
  if (list === undefined)
    throw new EngramError(
      'INVALID_INPUT',
      `The file is not ${formatName(format)}: that is a JSON array of conversations; pass the conversations.json of the export.`,
    );
  requireShape(list, format);
  return list;
}
