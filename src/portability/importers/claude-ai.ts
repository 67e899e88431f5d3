/**
 * Claude.ai data export (`conversations.json`): an array of conversations {uuid, name, created_at,
 * chat_messages[]}, each message {uuid, sender: human | assistant, text, content[] of blocks
 * ({type: text, text} and tool_use / tool_result / thinking blocks), created_at ISO, attachments,
 * files}; newer exports also carry `parent_message_uuid` and the conversation's
 * `current_leaf_message_uuid`, whose branch is then the conversation. Tool and thinking blocks,
 * attachments and messages without text are reported as skipped.
 */
import type { ImportContext, ImportUnit } from './import-plan.js';
import { conversationList, conversationUnit, type Conversation } from './conversation-units.js';
import { fromIso } from './source-time.js';

export const CLAUDE_AI_SYSTEM = 'claude-ai';

interface Message {
  uuid?: unknown;
  sender?: unknown;
  text?: unknown;
  content?: unknown;
  created_at?: unknown;
  parent_message_uuid?: unknown;
  attachments?: unknown;
  files?: unknown;
}

/** The import units of a parsed Claude.ai `conversations.json`, one per conversation. */
export function* claudeAiUnits(parsed: unknown, context: ImportContext): Generator<ImportUnit> {
  for (const [index, raw] of conversationList(parsed, 'claude-ai').entries()) {
    yield conversationUnit(CLAUDE_AI_SYSTEM, readClaudeConversation(raw, index), context);
  }
}

/** One conversation of a Claude.ai export: its turns in order. */
export function readClaudeConversation(raw: unknown, index: number): Conversation {
  const c = (typeof raw === 'object' && raw !== null ? raw : {}) as {
    uuid?: unknown;
    name?: unknown;
    created_at?: unknown;
    chat_messages?: unknown;
    current_leaf_message_uuid?: unknown;
  };
  const id = typeof c.uuid === 'string' ? c.uuid : `#${index + 1}`;
  const conversation: Conversation = {
    id,
    turns: [],
    skipped: [],
    ...(typeof c.name === 'string' && c.name !== '' ? { title: c.name } : {}),
  };
  const createdAt = fromIso(c.created_at);
  if (createdAt !== undefined) conversation.createdAt = createdAt;
  if (!Array.isArray(c.chat_messages) || c.chat_messages.length === 0) {
    conversation.skipped.push({ ref: `conversation ${id}`, reason: 'conversation without messages (chat_messages)' });
    return conversation;
  }
  const messages = c.chat_messages.filter((m): m is Message => typeof m === 'object' && m !== null);
  const branch = currentBranch(messages, typeof c.current_leaf_message_uuid === 'string' ? c.current_leaf_message_uuid : undefined);
  messages.forEach((message, i) => {
    const messageId = typeof message.uuid === 'string' ? message.uuid : `#${i + 1}`;
    const ref = `conversation ${id}, message ${messageId}`;
    if (branch !== null && !branch.has(messageId)) {
      conversation.skipped.push({ ref, reason: "not on the conversation's current branch (a regenerated or edited-away turn)" });
      return;
    }
    for (const kind of ['attachments', 'files'] as const) {
      const list = message[kind];
      if (Array.isArray(list) && list.length > 0)
        conversation.skipped.push({
          ref,
          reason: `${list.length === 1 ? 'an attached file' : 'attached files'} (${kind}: file contents are not imported)`,
        });
    }
    const role =
      message.sender === 'human' || message.sender === 'user' ? 'user' : message.sender === 'assistant' ? 'assistant' : undefined;
    if (role === undefined) {
      conversation.skipped.push({
        ref,
        reason: `${String(message.sender ?? 'unknown')} message (only human and assistant turns are conversation)`,
      });
      return;
    }
    const text = textOf(message);
    if (text === '') {
      conversation.skipped.push({ ref, reason: 'no text in the message (tool use, tool results and thinking are not imported)' });
      return;
    }
    const at = fromIso(message.created_at);
    conversation.turns.push({ id: messageId, role, text, ...(at !== undefined ? { at } : {}) });
  });
  return conversation;
}

/** The message uuids from the root to the current leaf, or null when the export has no tree. */
function currentBranch(messages: readonly Message[], leaf: string | undefined): Set<string> | null {
  if (leaf === undefined || !messages.some((m) => typeof m.parent_message_uuid === 'string')) return null;
  const byId = new Map(messages.filter((m) => typeof m.uuid === 'string').map((m) => [m.uuid as string, m]));
  if (!byId.has(leaf)) return null;
  const branch = new Set<string>();
  for (let at: string | undefined = leaf; at !== undefined && byId.has(at) && !branch.has(at);) {
    branch.add(at);
    const parent: unknown = byId.get(at)?.parent_message_uuid;
    at = typeof parent === 'string' ? parent : undefined;
  }
  return branch;
}

/** The text blocks of `content` joined, else `text`. */
function textOf(message: Message): string {
  if (Array.isArray(message.content) && message.content.length > 0) {
    const blocks = message.content.filter(
      (b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && b.type === 'text' && typeof b.text === 'string',
    );
    if (blocks.length > 0)
      return blocks
        .map((b) => b.text)
        .join('\n')
        .trim();
    if (message.content.some((b) => typeof b === 'object' && b !== null && b.type !== 'text')) return '';
  }
  return typeof message.text === 'string' ? message.text.trim() : '';
}
