/**
 * A LangChain.js chat history kept in Engram: each message is an episode of one session (in one scope),
 * so the conversation is also long-term memory that recall, context and consolidation see. Messages come
 * back in the order they were added, also from another process or after a restart.
 */
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Engram, MemoryView, RememberInput, Scope } from '../../index.js';
import { engramOption, optionsObject, parseAdapterOptions, scopeOption } from '../adapter-options.js';

/** Longest session id: it is kept in a tag (at most 100 characters) as `session:<id>`. */
const MAX_SESSION_ID_CHARS = 90;
const PAGE = 200;

/** Options of {@link EngramChatMessageHistory}. */
export interface EngramChatMessageHistoryInput {
  /** The open store the conversation is kept in. */
  engram: Engram;
  /** The scope of the conversation's episodes, e.g. `"acme/users/alice"`. */
  scope: Scope;
  /** The conversation: one history per session id (1-90 characters). */
  sessionId: string;
  /**
   * Also read stable facts the user states about themselves out of human messages, as semantic claims
   * (Engram's `capture`; default false).
   */
  capture?: boolean;
  /** With `capture`: where those facts go (default: `scope`). */
  userScope?: Scope;
}

const sessionIdMessage = `must be 1-${MAX_SESSION_ID_CHARS} characters: pass a shorter conversation id (a hash of a long one works)`;

const historyOptionsSchema = optionsObject(
  {
    engram: engramOption,
    scope: scopeOption('the conversation is kept in'),
    sessionId: z
      .string({ error: sessionIdMessage })
      .min(1, { error: sessionIdMessage })
      .max(MAX_SESSION_ID_CHARS, { error: sessionIdMessage }),
    capture: z.boolean({ error: 'must be true or false' }).optional(),
    userScope: scopeOption('captured facts go to').optional(),
  },
  "{ engram, scope: 'acme/users/alice', sessionId }",
);

/** What the stored episode keeps beside the text, so a message comes back as it went in. */
interface StoredParts {
  role: string;
  toolCalls?: unknown;
  toolCallId?: string;
  name?: string;
  textless?: boolean;
}

/**
 * The chat history of one session, stored as episodes tagged `chat`, `session:<id>` and `role:<type>`.
 *
 * @example
 * ```ts
 * import { RunnableWithMessageHistory } from '@langchain/core/runnables';
 * import { EngramChatMessageHistory } from 'engram/langchain';
 *
 * const chat = new RunnableWithMessageHistory({
 *   runnable: prompt.pipe(model),
 *   getMessageHistory: (sessionId) => new EngramChatMessageHistory({ engram, scope: 'acme/users/alice', sessionId }),
 *   inputMessagesKey: 'input',
 *   historyMessagesKey: 'history',
 * });
 * ```
 */
export class EngramChatMessageHistory extends BaseListChatMessageHistory {
  override lc_namespace = ['engram', 'chat_history'];

  readonly #engram: Engram;
  readonly #scope: Scope;
  readonly #sessionId: string;
  readonly #capture: boolean;
  readonly #userScope: Scope | undefined;

  constructor(fields: EngramChatMessageHistoryInput) {
    parseAdapterOptions(historyOptionsSchema, fields, 'EngramChatMessageHistory');
    super(fields);
    this.#engram = fields.engram;
    this.#scope = fields.scope;
    this.#sessionId = fields.sessionId;
    this.#capture = fields.capture ?? false;
    this.#userScope = fields.userScope;
  }

  /** The session's messages, oldest first. */
  async getMessages(): Promise<BaseMessage[]> {
    const messages: BaseMessage[] = [];
    for await (const item of this.#episodes()) messages.push(toMessage(item));
    return messages;
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.#engram.remember(this.#episode(message));
  }

  /** Adds the messages in one write, in order. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.#engram.remember(messages.map((message) => this.#episode(message)));
  }

  /** Forgets the session's messages (Engram's reversible `forget`: they leave the history, recall and context). */
  override async clear(): Promise<void> {
    const ids: string[] = [];
    for await (const item of this.#episodes()) ids.push(item.id);
    for (const id of ids) await this.#engram.forget(id, { scope: this.#scope });
  }

  async *#episodes(): AsyncGenerator<MemoryView> {
    let cursor: string | undefined;
    do {
      const page = await this.#engram.list({
        scopes: [this.#scope],
        tag: sessionTag(this.#sessionId),
        layers: ['episodic'],
        statuses: ['active'],
        sort: 'recordedAt',
        order: 'asc',
        limit: PAGE,
        ...(cursor !== undefined ? { cursor } : {}),
      });
      // the tag filter ignores case; the session id is compared exactly
      for (const item of page.items) if ((item.context as { sessionId?: string } | undefined)?.sessionId === this.#sessionId) yield item;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  #episode(message: BaseMessage): RememberInput {
    const parts = storedParts(message);
    const text = message.text;
    const human = parts.role === 'human';
    return {
      scope: this.#scope,
      layer: 'episodic',
      content: text.trim() !== '' ? text : `(${parts.role} message without text${parts.name !== undefined ? `: ${parts.name}` : ''})`,
      tags: ['chat', sessionTag(this.#sessionId), `role:${parts.role}`],
      context: { sessionId: this.#sessionId },
      action: { tool: 'chat', args: { ...parts, ...(text.trim() === '' ? { textless: true } : {}) } },
      source: {
        system: 'langchain',
        conversationId: this.#sessionId,
        ...(typeof message.id === 'string' && message.id !== '' ? { messageId: message.id } : {}),
      },
      ...(human && this.#capture ? { capture: true, ...(this.#userScope !== undefined ? { userScope: this.#userScope } : {}) } : {}),
    };
  }
}

function sessionTag(sessionId: string): string {
  return `session:${sessionId}`;
}

function storedParts(message: BaseMessage): StoredParts {
  const role = message.type === 'generic' ? `generic:${(message as ChatMessage).role}` : message.type;
  const parts: StoredParts = { role };
  if (typeof message.name === 'string') parts.name = message.name;
  if (AIMessage.isInstance(message) && (message.tool_calls?.length ?? 0) > 0) parts.toolCalls = message.tool_calls;
  if (ToolMessage.isInstance(message)) parts.toolCallId = message.tool_call_id;
  return parts;
}

/** The LangChain message an episode stores. */
function toMessage(item: MemoryView): BaseMessage {
  const parts = ((item.action as { args?: StoredParts } | undefined)?.args ?? { role: 'human' }) as StoredParts;
  const content = parts.textless === true ? '' : item.content;
  const name = parts.name !== undefined ? { name: parts.name } : {};
  const id = { id: item.id };
  if (parts.role === 'ai')
    return new AIMessage({ content, ...name, ...id, ...(Array.isArray(parts.toolCalls) ? { tool_calls: parts.toolCalls } : {}) });
  if (parts.role === 'system') return new SystemMessage({ content, ...name, ...id });
  if (parts.role === 'tool') return new ToolMessage({ content, tool_call_id: parts.toolCallId ?? '', ...name, ...id });
  if (parts.role.startsWith('generic:')) return new ChatMessage({ content, role: parts.role.slice('generic:'.length), ...name, ...id });
  return new HumanMessage({ content, ...name, ...id });
}
