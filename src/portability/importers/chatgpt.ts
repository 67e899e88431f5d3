/**
 * ChatGPT data export (`conversations.json`): an array of conversations, each with a `mapping` tree
 * of nodes {id, message, parent, children} and `current_node`, the leaf of the branch the user last
 * saw. Messages carry `author.role`, `content` ({content_type, parts[]} or {text}; a voice-mode
 * turn's parts hold `{content_type: audio_transcription, text}`) and `create_time` in epoch seconds.
 * The branch that ends at `current_node` is the conversation; turns on branches the user regenerated
 * or edited away, system and tool messages, and messages without text are skipped and reported.
 */
import type { ImportContext, ImportUnit, SkippedRecord } from './import-plan.js';
import { conversationList, conversationUnit, type Conversation, type ConversationTurn } from './conversation-units.js';
import { fromEpochSeconds } from './source-time.js';

export const CHATGPT_SYSTEM = 'chatgpt';

interface Node {
  id?: unknown;
  parent?: unknown;
  children?: unknown;
  message?: {
    id?: unknown;
    author?: { role?: unknown };
    create_time?: unknown;
    content?: { content_type?: unknown; parts?: unknown; text?: unknown };
    metadata?: { is_visually_hidden_from_conversation?: unknown; is_user_system_message?: unknown };
    recipient?: unknown;
  } | null;
}

/** The import units of a parsed ChatGPT `conversations.json`, one per conversation. */
export function* chatgptUnits(parsed: unknown, context: ImportContext): Generator<ImportUnit> {
  for (const [index, raw] of conversationList(parsed, 'chatgpt').entries()) {
    yield conversationUnit(CHATGPT_SYSTEM, readConversation(raw, index), context);
  }
}

/** One conversation of the export: the turns of the current branch, root first. */
export function readConversation(raw: unknown, index: number): Conversation {
  const c = (typeof raw === 'object' && raw !== null ? raw : {}) as {
    id?: unknown;
    conversation_id?: unknown;
    title?: unknown;
    create_time?: unknown;
    mapping?: unknown;
    current_node?: unknown;
  };
  const id = typeof c.id === 'string' ? c.id : typeof c.conversation_id === 'string' ? c.conversation_id : `#${index + 1}`;
  const conversation: Conversation = { id, turns: [], skipped: [], ...(typeof c.title === 'string' ? { title: c.title } : {}) };
  const createdAt = fromEpochSeconds(c.create_time);
  if (createdAt !== undefined) conversation.createdAt = createdAt;
  const mapping = (typeof c.mapping === 'object' && c.mapping !== null ? c.mapping : {}) as Record<string, Node>;
  if (Object.keys(mapping).length === 0) {
    conversation.skipped.push({ ref: `conversation ${id}`, reason: 'conversation without a message mapping' });
    return conversation;
  }
  const branch = currentBranch(mapping, typeof c.current_node === 'string' ? c.current_node : undefined);
  const onBranch = new Set(branch);
  for (const nodeId of branch) {
    const turn = turnOf(mapping[nodeId], nodeId, id, conversation.skipped);
    if (turn !== null) conversation.turns.push(turn);
  }
  for (const [nodeId, node] of Object.entries(mapping)) {
    if (onBranch.has(nodeId) || node?.message === null || node?.message === undefined) continue;
    const role = node.message.author?.role;
    if (role === 'user' || role === 'assistant') {
      conversation.skipped.push({
        ref: `conversation ${id}, message ${messageId(node, nodeId)}`,
        reason: "not on the conversation's current branch (a regenerated or edited-away turn)",
      });
    }
  }
  return conversation;
}

/** Node ids from the root to `current_node` (or, without one, to the last leaf following the last child). */
function currentBranch(mapping: Record<string, Node>, current: string | undefined): string[] {
  if (current !== undefined && mapping[current] !== undefined) {
    const path: string[] = [];
    const seen = new Set<string>();
    for (let at: string | undefined = current; at !== undefined && mapping[at] !== undefined && !seen.has(at);) {
      seen.add(at);
      path.push(at);
      const parent: unknown = mapping[at]?.parent;
      at = typeof parent === 'string' ? parent : undefined;
    }
    return path.reverse();
  }
  const root = Object.keys(mapping).find(
    (key) => typeof mapping[key]?.parent !== 'string' || mapping[mapping[key]?.parent as string] === undefined,
  );
  const path: string[] = [];
  const seen = new Set<string>();
  for (let at = root; at !== undefined && !seen.has(at);) {
    seen.add(at);
    path.push(at);
    const children = mapping[at]?.children;
    const last = Array.isArray(children) ? children[children.length - 1] : undefined;
    at = typeof last === 'string' && mapping[last] !== undefined ? last : undefined;
  }
  return path;
}

function messageId(node: Node, nodeId: string): string {
  return typeof node.message?.id === 'string' ? node.message.id : nodeId;
}

function turnOf(node: Node | undefined, nodeId: string, conversationId: string, skipped: SkippedRecord[]): ConversationTurn | null {
  const message = node?.message;
  if (message === null || message === undefined) return null; // the tree's empty root placeholder
  const id = messageId(node as Node, nodeId);
  const ref = `conversation ${conversationId}, message ${id}`;
  const role = message.author?.role;
  if (role !== 'user' && role !== 'assistant') {
    const text = textOf(message.content);
    // the root system placeholder is empty: not a record worth reporting
    if (text !== '' || message.metadata?.is_user_system_message === true)
      skipped.push({ ref, reason: `${String(role ?? 'unknown')} message (only user and assistant turns are conversation)` });
    return null;
  }
  if (typeof message.recipient === 'string' && message.recipient !== 'all') {
    skipped.push({ ref, reason: `a call to the ${message.recipient} tool (tool traffic is not conversation)` });
    return null;
  }
  if (message.metadata?.is_visually_hidden_from_conversation === true) {
    skipped.push({ ref, reason: 'hidden from the conversation (context ChatGPT added, not a turn)' });
    return null;
  }
  const text = textOf(message.content);
  if (text === '') {
    const type = typeof message.content?.content_type === 'string' ? message.content.content_type : 'unknown';
    skipped.push({
      ref,
      reason: `no text in the message (content type ${type}: images, files, audio without a transcript and tool payloads are not imported)`,
    });
    return null;
  }
  const at = fromEpochSeconds(message.create_time);
  return { id, role, text, ...(at !== undefined ? { at } : {}) };
}

/**
 * The text of a message: its text parts joined, or its `text`. A text part is a string, or an object
 * with a `text` (what was said in voice mode: `{"content_type": "audio_transcription", "text": …}`);
 * image, file and audio parts carry none and are left out.
 */
function textOf(content: NonNullable<Node['message']>['content']): string {
  if (content === undefined || content === null) return '';
  const type = content.content_type;
  if (type === 'thoughts' || type === 'reasoning_recap' || type === 'user_editable_context') return '';
  if (Array.isArray(content.parts))
    return content.parts
      .map((p: unknown) => (typeof p === 'string' ? p : typeof p === 'object' && p !== null && 'text' in p ? p.text : undefined))
      .filter((p): p is string => typeof p === 'string')
      .join('\n')
      .trim();
  return typeof content.text === 'string' ? content.text.trim() : '';
}
