/**
 * Importers on the inputs a hostile tester brought: a secret in a value a scope template takes, voice
 * turns of a ChatGPT export, a byte order mark before a JSONL graph, a file in another format than
 * the command names, and a Claude.ai message id the conversation repeats.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/core/redact/redactor.js';
import { readConversation } from '../../src/portability/importers/chatgpt.js';
import { REPEATED_TURN_REASON } from '../../src/portability/importers/conversation-units.js';
import { linesOf } from '../../src/portability/importers/file-shape.js';
import {
  applyImport,
  chatgptUnits,
  claudeAiUnits,
  claudeCodePlaceholders,
  mem0Units,
  parseMcpMemory,
  requireShape,
  resolveScope,
} from '../../src/portability/importers/index.js';
import { withoutBom } from '../../src/portability/without-bom.js';
import { tempEngram } from '../helpers/temp.js';
import { chatgptConversation } from '../helpers/chatgpt.js';

const fixture = (path: string): string => readFileSync(fileURLToPath(new URL(`../fixtures/import/${path}`, import.meta.url)), 'utf8');

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

const scopeOf = (resolution: ReturnType<typeof resolveScope>): string => ('scope' in resolution ? resolution.scope : resolution.problem);

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('scope templates redact the values they take', () => {
  it('a secret in a placeholder value becomes its placeholder, with the redactor of the context (else the built-in one)', () => {
    const context = { scopeTemplates: ['me/chats/{title}'] };
    const title = `Why does ${TOKEN} fail`;
    // the redacted value is not a valid segment: its readable part and a digest of the redacted text
    const hex = '[0-9a-f]{16}';
    expect(scopeOf(resolveScope(context, { title }))).toMatch(new RegExp(`^me/chats/Why-does-redacted-github-token-fail-${hex}$`));
    const unredacted = scopeOf(resolveScope({ ...context, redactor: createRedactor({ enabled: false }) }, { title }));
    expect(unredacted).toMatch(new RegExp(`^me/chats/Why-does-${TOKEN}-fail-${hex}$`));
    const own = createRedactor({ patterns: [{ kind: 'ticket', pattern: 'ACME-\\d+' }] });
    const tickets = scopeOf(
      resolveScope({ scopeTemplates: ['{tenant}/{title}'], values: { tenant: 'ACME-42' }, redactor: own }, { title: 'ACME-7' }),
    );
    expect(tickets).toMatch(new RegExp(`^redacted-ticket-${hex}/redacted-ticket-${hex}$`));
    expect(tickets).not.toContain('ACME');
    // Claude Code's placeholders reach the redactor as found, not already made segments
    const session = claudeCodePlaceholders(`-home-me-${TOKEN}`, 's-1', `/home/me/${TOKEN}`);
    const fromSession = scopeOf(resolveScope({ scopeTemplates: ['me/{dir}/{project}'] }, session));
    expect(fromSession).toMatch(new RegExp(`^me/redacted-github-token-${hex}/home-me-+redacted-github-token-${hex}$`));
    expect(fromSession).not.toContain(TOKEN);
  });

  it('an import through a {title} template stores no secret in any scope', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const parsed = [chatgptConversation('conv-t', `Why does ${TOKEN} fail`, `Why does git push with ${TOKEN} fail?`)];
    const report = await applyImport(
      ctx.engram,
      'chatgpt',
      chatgptUnits(parsed, { scopeTemplates: ['me/chats/{title}'], redactor: ctx.engram.redactor }),
    );
    expect(report.memories.created).toBe(1);
    expect(JSON.stringify(report)).not.toContain(TOKEN);
    const scope = Object.keys(report.scopes)[0] as string;
    expect(scope).toBe(scopeOf(resolveScope({ scopeTemplates: ['me/chats/{title}'] }, { title: `Why does ${TOKEN} fail` })));
    expect(scope).not.toContain(TOKEN);
    const records = await ctx.engram.store.listMemories({ scopes: [scope], limit: 10 });
    expect(records.map((r) => r.scope)).toEqual([scope]);
  });
});

describe('ChatGPT voice-mode turns', () => {
  it('keep the transcript of audio_transcription parts; audio without a transcript is reported', () => {
    const message = (id: string, role: string, parts: unknown[]) => ({
      id,
      author: { role },
      create_time: 1_718_000_000,
      content: { content_type: 'multimodal_text', parts },
      metadata: { voice_mode_message: true },
      recipient: 'all',
    });
    const audio = { content_type: 'audio_asset_pointer', asset_pointer: 'sediment://file_abc', size_bytes: 12345, format: 'wav' };
    const mapping = {
      root: { id: 'root', message: null, parent: null, children: ['v1'] },
      v1: {
        id: 'v1',
        parent: 'root',
        children: ['v2'],
        message: message('v1', 'user', [
          { content_type: 'audio_transcription', text: 'I am allergic to shellfish, please remember that.', direction: 'in' },
          audio,
        ]),
      },
      v2: {
        id: 'v2',
        parent: 'v1',
        children: ['v3'],
        message: message('v2', 'assistant', [
          { content_type: 'audio_transcription', text: "Got it, you're allergic to shellfish." },
          audio,
        ]),
      },
      v3: { id: 'v3', parent: 'v2', children: [], message: message('v3', 'user', [audio]) },
    };
    const conversation = readConversation({ id: 'voice-1', mapping, current_node: 'v3' }, 0);
    expect(conversation.turns.map((t) => [t.id, t.role, t.text])).toEqual([
      ['v1', 'user', 'I am allergic to shellfish, please remember that.'],
      ['v2', 'assistant', "Got it, you're allergic to shellfish."],
    ]);
    expect(conversation.skipped).toHaveLength(1);
    expect(conversation.skipped[0]?.ref).toBe('conversation voice-1, message v3');
    expect(conversation.skipped[0]?.reason).toContain('audio without a transcript');
  });
});

describe('ChatGPT create_time in milliseconds', () => {
  it('is read as milliseconds where it cannot be seconds, at the same instant as in seconds', () => {
    const conversationAt = (createTime: number) => {
      const message = {
        id: 'u1',
        author: { role: 'user' },
        create_time: createTime,
        content: { content_type: 'text', parts: ['hello there'] },
      };
      const mapping = {
        root: { id: 'root', message: null, parent: null, children: ['u1'] },
        u1: { id: 'u1', parent: 'root', children: [], message },
      };
      return readConversation({ id: 'ms-1', create_time: createTime, mapping, current_node: 'u1' }, 0);
    };
    const seconds = conversationAt(1_717_405_210);
    const millis = conversationAt(1_717_405_210_000);
    expect(seconds.turns[0]?.at).toBe(Date.UTC(2024, 5, 3, 9, 0, 10));
    expect(millis.turns.map((t) => t.at)).toEqual(seconds.turns.map((t) => t.at));
    expect(millis.skipped).toEqual([]);
  });
});

describe('a byte order mark before a file', () => {
  it('is dropped: the MCP memory graph keeps its first line', () => {
    expect(withoutBom('\uFEFF{"a":1}')).toBe('{"a":1}');
    expect(withoutBom('{"a":1}')).toBe('{"a":1}');
    const graph = parseMcpMemory(
      '\uFEFF{"type":"entity","name":"Alice","entityType":"person","observations":["Works at Acme"]}\n' +
        '{"type":"entity","name":"Acme","entityType":"organization","observations":[]}\n' +
        '{"type":"relation","from":"Alice","to":"Acme","relationType":"works_at"}\n',
    );
    expect(graph.problems).toEqual([]);
    expect(graph.entities.map((e) => e.name)).toEqual(['Alice', 'Acme']);
    expect(graph.relations).toHaveLength(1);
  });
});

describe('a file in another format than the command names', () => {
  const refusal = (run: () => unknown): { code?: string; message: string } => {
    try {
      run();
    } catch (error) {
      return error as { code?: string; message: string };
    }
    throw new Error('expected a refusal');
  };

  it('is refused as INVALID_INPUT naming the format and what the file looks like', () => {
    const claude: unknown = JSON.parse(fixture('claude-ai/conversations.json'));
    const chatgpt: unknown = JSON.parse(fixture('chatgpt/conversations.json'));
    const asChatgpt = refusal(() => [...chatgptUnits(claude, { scope: 'me/x' })]);
    expect(asChatgpt.code).toBe('INVALID_INPUT');
    expect(asChatgpt.message).toContain('not a ChatGPT export');
    expect(asChatgpt.message).toContain('looks like a Claude.ai export');
    expect(asChatgpt.message).toContain('engram import claude-ai');
    const asClaude = refusal(() => [...claudeAiUnits(chatgpt, { scope: 'me/x' })]);
    expect(asClaude.message).toContain('not a Claude.ai export');
    expect(asClaude.message).toContain('engram import chatgpt');
    const asMem0 = refusal(() => [...mem0Units(chatgpt, { scope: 'me/x' })]);
    expect(asMem0.code).toBe('INVALID_INPUT');
    expect(asMem0.message).toContain('not a mem0 export');
    expect(asMem0.message).toContain('looks like a ChatGPT export');
    const unknown = refusal(() => [...chatgptUnits([{ foo: 1, bar: 2 }, 'x'], { scope: 'me/x' })]);
    expect(unknown.message).toContain('holds objects with the keys "foo", "bar"');
  });

  it('a JSON graph file is checked line by line, a JSON document as a whole', () => {
    const conversations = fixture('chatgpt/conversations.json');
    expect(refusal(() => requireShape(linesOf(conversations), 'mcp-memory')).message).toContain('looks like a ChatGPT export');
    expect(refusal(() => requireShape(linesOf('not json\nat all\n'), 'mcp-memory')).message).toContain('lines that are not JSON');
    expect(() => requireShape(linesOf(fixture('mcp-memory/memory-with-problems.jsonl')), 'mcp-memory')).not.toThrow();
  });

  it('is not refused when some items have the shape (the others are reported), nor when there are none', () => {
    expect([...chatgptUnits([], { scope: 'me/x' })]).toEqual([]);
    const units = [
      ...claudeAiUnits(
        [
          { uuid: 'c-empty', chat_messages: [] },
          { uuid: 'c-odd', mapping: 'x' },
        ],
        { scope: 'me/x' },
      ),
    ];
    expect(units.flatMap((u) => u.skipped.map((s) => s.ref))).toEqual(['conversation c-empty', 'conversation c-odd']);
  });
});

describe('Claude.ai: a message id the conversation repeats', () => {
  it('is kept as <id>#2 when it says something else, and reported when it repeats the first exactly', async () => {
    const message = (text: string, at: string) => ({
      uuid: 'd4',
      sender: 'human',
      text,
      content: [{ type: 'text', text }],
      created_at: at,
      attachments: [],
      files: [],
    });
    const parsed = [
      {
        uuid: 'c9',
        name: 'Dup',
        created_at: '2024-06-04T00:00:00Z',
        chat_messages: [
          message('My flight is on Monday.', '2024-06-04T00:00:04Z'),
          message('My hotel is the Hilton in Oslo.', '2024-06-04T00:00:05Z'),
          message('My flight is on Monday.', '2024-06-04T00:00:06Z'),
        ],
      },
    ];
    const [unit] = [...claudeAiUnits(parsed, { scope: 'me/claude' })];
    expect(unit?.memories.map((m) => [m.input.source?.messageId, m.input.content])).toEqual([
      ['d4', 'user: My flight is on Monday.'],
      ['d4#2', 'user: My hotel is the Hilton in Oslo.'],
    ]);
    expect(unit?.skipped).toEqual([{ ref: 'conversation c9, message d4', reason: REPEATED_TURN_REASON }]);

    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const first = await applyImport(ctx.engram, 'claude-ai', claudeAiUnits(parsed, { scope: 'me/claude' }));
    expect(first.memories).toMatchObject({ created: 2, unchanged: 0 });
    expect(first.skippedByReason).toEqual({ [REPEATED_TURN_REASON]: 1 });
    const again = await applyImport(ctx.engram, 'claude-ai', claudeAiUnits(parsed, { scope: 'me/claude' }));
    expect(again.memories).toMatchObject({ created: 0, unchanged: 2 });
  });

  it('a numbered id never meets an id the export spells the same way', () => {
    const message = (uuid: string, text: string) => ({ uuid, sender: 'human', text, created_at: '2024-06-04T00:00:04Z' });
    const parsed = [{ uuid: 'c9', chat_messages: [message('d4', 'one'), message('d4', 'two'), message('d4#2', 'three')] }];
    const [unit] = [...claudeAiUnits(parsed, { scope: 'me/claude' })];
    expect(unit?.memories.map((m) => m.input.source?.messageId)).toEqual(['d4', 'd4#2', 'd4#2#2']);
  });
});
