/**
 * The pure parts of the importers: scope templates, front matter, the ChatGPT tree walk, the MCP
 * memory graph parser, and the application of units to a real store (hash embedder) with relations
 * resolved by key.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../src/portability/importers/front-matter.js';
import { readConversation } from '../../src/portability/importers/chatgpt.js';
import {
  applyImport,
  chatgptUnits,
  emptyUnit,
  mem0Units,
  parseMcpMemory,
  resolveScope,
  valueSegment,
  vaultUnits,
} from '../../src/portability/importers/index.js';
import { scopeProblem } from '../../src/core/scope.js';
import { stableHash } from '../../src/portability/importers/stable-hash.js';
import { tempEngram } from '../helpers/temp.js';

const fixture = (path: string): string => readFileSync(fileURLToPath(new URL(`../fixtures/import/${path}`, import.meta.url)), 'utf8');

describe('scope templates', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('fill placeholders as scope segments, try templates in order, fall back to --scope, and say what was missing', () => {
    const context = { scopeTemplates: ['{tenant}/users/{user_id}', '{tenant}/agents/{agent_id}'], values: { tenant: 'acme' } };
    expect(resolveScope(context, { user_id: 'bob smith' })).toEqual({ scope: `acme/users/${valueSegment('bob smith')}` });
    expect(resolveScope(context, { agent_id: 'coder' })).toEqual({ scope: 'acme/agents/coder' });
    expect(resolveScope({ ...context, scope: 'acme/shared' }, {})).toEqual({ scope: 'acme/shared' });
    const none = resolveScope(context, {});
    expect('problem' in none && none.problem).toContain('lacks {user_id}');
    const dots = resolveScope({ scopeTemplates: ['acme/{x}'] }, { x: '..' });
    expect('scope' in dots && scopeProblem(dots.scope)).toBeNull();
    const invalid = resolveScope({ scopeTemplates: ['acme//{x}'] }, { x: 'y' });
    expect('problem' in invalid && invalid.problem).toContain('invalid');
  });

  it('a value that is a valid segment already keeps it, so a re-import lands where earlier imports did', () => {
    for (const id of ['alice', 'bob_example.com', 'user-42', 'web_app-2.0', 'bob-', '-x', 'v1.', 'a'.repeat(300)]) {
      expect(valueSegment(id)).toBe(id);
      expect(resolveScope({ scopeTemplates: ['acme/users/{user_id}'] }, { user_id: id })).toEqual({ scope: `acme/users/${id}` });
    }
  });

  it('different values never share a segment, and one name in NFC or NFD is one segment', () => {
    const groups = [
      ['josé', 'josè', 'jose'],
      ['张伟', '李娜', 'default'],
      ['bob@example.com', 'bob_example.com', 'bob example.com', 'bob-example.com'],
      ['日记', '工作'],
      ['.hidden', '_hidden', 'hidden'],
      ['..', '_.', '.'],
      [' bob', 'bob', 'bob '],
      ['a/b', 'a_b', 'a-b'],
      [`${'é'.repeat(120)}1`, `${'é'.repeat(120)}2`],
    ];
    for (const values of groups) {
      const segments = values.map((value) => valueSegment(value));
      expect(new Set(segments).size, values.join(' | ')).toBe(values.length);
      for (const segment of segments) {
        expect(scopeProblem(`acme/${segment}`)).toBeNull();
        expect(segment.length).toBeLessThanOrEqual(300);
      }
    }
    for (const name of ['Été', 'josé', 'Ñandú 日记']) expect(valueSegment(name.normalize('NFD'))).toBe(valueSegment(name.normalize('NFC')));
  });

  it('mem0 users whose ids differ only outside [A-Za-z0-9_.-] land in scopes of their own (real store)', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const users = ['josé', 'josè', '张伟', '李娜', 'bob@example.com', 'bob_example.com'];
    const parsed = users.map((user_id, i) => ({
      id: `m${i}`,
      memory: `Fact number ${i} about this user`,
      created_at: '2024-07-20T02:12:34Z',
      user_id,
    }));
    const report = await applyImport(
      ctx.engram,
      'mem0',
      mem0Units(parsed, { scopeTemplates: ['{tenant}/users/{user_id}'], values: { tenant: 'acme' } }),
    );
    expect(report.memories.created).toBe(users.length);
    expect(Object.keys(report.scopes)).toHaveLength(users.length);
    for (const scope of Object.keys(report.scopes)) {
      const records = await ctx.engram.store.listMemories({ scopes: [scope], limit: 10 });
      expect(records).toHaveLength(1);
      const owner = users[Number(/Fact number (\d+)/.exec(records[0]?.content ?? '')?.[1])] as string;
      expect(scope).toBe(`acme/users/${valueSegment(owner)}`);
    }
  });

  it('vault folders as scopes: two folders never share one, one folder written composed or decomposed is one (real store)', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const files = [
      { path: '日记/health.md', text: 'Went to the doctor.' },
      { path: '工作/plan.md', text: 'Quarterly plan.' },
      { path: `${'Été'.normalize('NFC')}/a.md`, text: 'Summer notes, composed.' },
      { path: `${'Été'.normalize('NFD')}/b.md`, text: 'Summer notes, decomposed.' },
      { path: 'Projects/web.md', text: 'A folder that is a valid segment.' },
    ];
    const units = vaultUnits(files, { scope: 'me/notes', defaultTime: Date.parse('2024-01-01') }, { style: 'obsidian', folders: 'scopes' });
    const report = await applyImport(ctx.engram, 'obsidian', units);
    expect(report.memories.created).toBe(files.length);
    expect(report.scopes).toEqual({
      [`me/notes/${valueSegment('日记')}`]: 1,
      [`me/notes/${valueSegment('工作')}`]: 1,
      [`me/notes/${valueSegment('Été')}`]: 2,
      'me/notes/Projects': 1,
    });
  });
});

describe('vault folders and links written composed or decomposed (macOS file names may be NFD)', () => {
  const files = [
    { path: `${'Été'.normalize('NFC')}/a.md`, text: 'Summer notes, composed. See [[Réunion]].' },
    { path: `${'Été'.normalize('NFD')}/b.md`, text: 'Summer notes, decomposed.' },
    { path: `${'Réunion'.normalize('NFD')}.md`, text: 'The meeting note, its file name decomposed.' },
  ];
  const units = vaultUnits(files, { scope: 'me/notes', defaultTime: Date.parse('2024-01-01') }, { style: 'obsidian' });
  const memories = units.flatMap((unit) => unit.memories);

  it('tags one folder with one tag', () => {
    const folderTags = (path: string) => memories.find((m) => m.ref === `note ${path}`)?.input.tags?.filter((t) => t.startsWith('folder:'));
    expect(folderTags(files[0]!.path)).toEqual(['folder:Été'.normalize('NFC')]);
    expect(folderTags(files[1]!.path)).toEqual(['folder:Été'.normalize('NFC')]);
  });

  it('resolves a link typed composed to a note whose file name is decomposed', () => {
    expect(units.flatMap((unit) => unit.relations)).toHaveLength(1);
    expect(units.flatMap((unit) => unit.skipped).filter((s) => /link|Réunion/i.test(`${s.ref} ${s.reason}`))).toEqual([]);
  });
});

describe('front matter', () => {
  it('reads scalars, quoted text, inline and block lists, and leaves the body', () => {
    const note = splitFrontMatter(
      '---\ntitle: "A: B"\ntags:\n  - x\n  - \'y z\'\naliases: [One, "Two"]\ncreated: 2024-05-06\n---\n# Body\ntext',
    );
    expect(note.frontMatter).toEqual({ title: 'A: B', tags: ['x', 'y z'], aliases: ['One', 'Two'], created: '2024-05-06' });
    expect(note.body).toBe('# Body\ntext');
    expect(splitFrontMatter('no front matter\n---\n').frontMatter).toEqual({});
  });

  it('reads the keys of a note whose front matter also holds a line of 40,000 spaces, and skips that line', () => {
    const note = splitFrontMatter(`---\ntitle: Long\n${' '.repeat(40_000)}x\na${' '.repeat(40_000)}: y\ntags: [one]\n---\nbody`);
    expect(note.frontMatter).toEqual({ title: 'Long', tags: ['one'] });
    expect(note.body).toBe('body');
  });
});

describe('ChatGPT conversations', () => {
  it('without current_node, follow the last child from the root', () => {
    const mapping = {
      r: { id: 'r', message: null, parent: null, children: ['u'] },
      u: {
        id: 'u',
        parent: 'r',
        children: ['a1', 'a2'],
        message: { id: 'u', author: { role: 'user' }, create_time: 1, content: { content_type: 'text', parts: ['hi'] } },
      },
      a1: {
        id: 'a1',
        parent: 'u',
        children: [],
        message: { id: 'a1', author: { role: 'assistant' }, create_time: 2, content: { content_type: 'text', parts: ['first'] } },
      },
      a2: {
        id: 'a2',
        parent: 'u',
        children: [],
        message: { id: 'a2', author: { role: 'assistant' }, create_time: 3, content: { content_type: 'text', parts: ['second'] } },
      },
    };
    const conversation = readConversation({ id: 'c', mapping }, 0);
    expect(conversation.turns.map((t) => [t.id, t.text, t.at])).toEqual([
      ['u', 'hi', 1000],
      ['a2', 'second', 3000],
    ]);
    expect(conversation.skipped).toEqual([
      { ref: 'conversation c, message a1', reason: "not on the conversation's current branch (a regenerated or edited-away turn)" },
    ]);
  });
});

describe('MCP memory graph', () => {
  it('parses entities and relations, joins a repeated entity, and reports other lines', () => {
    const graph = parseMcpMemory(
      fixture('mcp-memory/memory-with-problems.jsonl') +
        '{"type":"entity","name":"Anthropic","entityType":"organization","observations":["Based in San Francisco"]}\n',
    );
    expect(graph.entities.map((e) => e.name)).toEqual(['John_Smith', 'Anthropic', 'Project_Atlas', 'Mary_Jones']);
    expect(graph.entities[1]?.observations).toEqual(['Builds the Claude family of models', 'Based in San Francisco']);
    expect(graph.relations).toHaveLength(5);
    expect(graph.problems.map((p) => p.line)).toEqual([10, 11]);
  });

  it('source ids are stable digests', () => {
    expect(stableHash('hello')).toBe(stableHash('hello'));
    expect(stableHash('hello')).not.toBe(stableHash('hellp'));
    expect(stableHash('hello')).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('applyImport', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('writes units in order, resolves relations by key, reports relations it cannot write, and is idempotent', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const unit = emptyUnit('u');
    const source = (id: string) => ({ system: 'test', messageId: id });
    unit.memories.push(
      { key: 'a', ref: 'a', input: { scope: 'acme/x', layer: 'semantic', content: 'Kettle', name: 'Kettle', source: source('a') } },
      { key: 'b', ref: 'b', input: { scope: 'acme/x', layer: 'semantic', content: 'Teapot', name: 'Teapot', source: source('b') } },
      { key: 'c', ref: 'c', input: { scope: 'acme/y', layer: 'semantic', content: 'Cup', source: source('c') } },
      { key: 'bad', ref: 'bad', input: { scope: 'acme/x', content: '   ' } },
    );
    unit.relations.push(
      { from: 'a', to: 'b', type: 'boils water for', register: { description: 'test' }, ref: 'a→b' },
      { from: 'a', to: 'c', type: 'RELATED_TO', ref: 'a→c' },
      { from: 'a', to: 'missing', type: 'RELATED_TO', ref: 'a→missing' },
      { from: 'b', to: 'a', type: 'UNKNOWN_TYPE', ref: 'b→a' },
    );
    const first = await applyImport(ctx.engram, 'test', [unit]);
    expect(first.memories.created).toBe(3);
    expect(first.edges).toEqual({ created: 1, existing: 0 });
    expect(first.registeredTypes).toEqual(['BOILS_WATER_FOR']);
    expect(first.skipped.map((s) => s.ref)).toEqual(['bad', 'a→c', 'a→missing', 'b→a']);
    expect(first.skipped[0]?.reason).toContain('invalid for Engram');
    const second = await applyImport(ctx.engram, 'test', [unit]);
    expect(second.memories).toEqual({ created: 0, merged: 0, superseded: 0, unchanged: 3 });
    expect(second.edges).toEqual({ created: 0, existing: 1 });
    expect(second.registeredTypes).toEqual([]);
  });

  it('versions of one source identity: a newer one ends the older, an older one arriving late ends at the newer', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const ledger = new Map<string, { id: string; at: number }>();
    const versions = {
      latest: async (scope: string, identity: string) => ledger.get(`${scope}|${identity}`),
      remember: async (scope: string, identity: string, version: { id: string; at: number }) =>
        void ledger.set(`${scope}|${identity}`, version),
    };
    const JULY = Date.parse('2024-07-01');
    const SEPT = Date.parse('2024-09-01');
    const version = (content: string, hash: string, at: number) => {
      const unit = emptyUnit('v');
      unit.memories.push({
        key: hash,
        ref: hash,
        version: { identity: 'm/1', at },
        input: { scope: 'acme/x', layer: 'semantic', content, validFrom: at, source: { system: 'mem0', messageId: `1@${hash}` } },
      });
      return unit;
    };
    const newer = await applyImport(ctx.engram, 'mem0', [version('Moved to Lisbon', 'b', SEPT)], { versions });
    expect(newer.memories.created).toBe(1);
    const older = await applyImport(ctx.engram, 'mem0', [version('Lives in Porto', 'a', JULY)], { versions });
    expect(older.memories.created).toBe(1);
    const records = await ctx.engram.store.listMemories({ scopes: ['acme/x'], limit: 10 });
    expect(records.find((r) => r.content === 'Lives in Porto')?.validTo).toBe(SEPT);
    expect(records.find((r) => r.content === 'Moved to Lisbon')?.validTo).toBeNull();
    const again = await applyImport(ctx.engram, 'mem0', [version('Moved to Lisbon', 'b', SEPT), version('Lives in Porto', 'a', JULY)], {
      versions,
    });
    expect(again.memories.unchanged).toBe(2);
    expect(again.skipped).toEqual([]);
  });

  it('a ChatGPT export applied twice through the library creates nothing the second time', async () => {
    const ctx = await tempEngram();
    cleanup = ctx.cleanup;
    const parsed: unknown = JSON.parse(fixture('chatgpt/conversations.json'));
    const first = await applyImport(ctx.engram, 'chatgpt', chatgptUnits(parsed, { scope: 'me/chats' }));
    const second = await applyImport(ctx.engram, 'chatgpt', chatgptUnits(parsed, { scope: 'me/chats' }));
    expect(first.memories.created).toBe(6);
    expect(second.memories.unchanged).toBe(6);
    expect(second.claims).toEqual({ created: 0, merged: 0, superseded: 0, unchanged: 0 });
  });
});
