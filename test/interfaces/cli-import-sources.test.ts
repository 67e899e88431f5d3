/**
 * The importers from other systems and the MCP memory exporter, by spawning the built bin on the
 * fixtures in test/fixtures/import (each made from the format's public documentation or source):
 * counts, scopes, timestamps and relations of what each import wrote, every left-out record reported
 * with its reason, a second import creating nothing, and the MCP memory graph surviving
 * export → import → export into a fresh store.
 */
import { cpSync, existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Engram, type MemoryRecord } from '../../src/index.js';
import type { Edge } from '../../src/core/memory.js';
import { valueSegment, type ImportReport } from '../../src/portability/importers/index.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { chatgptConversation } from '../helpers/chatgpt.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const fixture = (path: string): string => join(FIXTURES, path);

async function readStore(
  db: string,
  scopes: string[],
): Promise<{ records: MemoryRecord[]; edges: Edge[]; relationTypes: Awaited<ReturnType<Engram['relations']>> }> {
  const engram = await Engram.open({ path: db });
  try {
    const records = await engram.store.listMemories({ scopes, limit: 10_000 });
    const edges = records.length === 0 ? [] : await engram.store.getEdges({ scopes, ids: records.map((r) => r.id) });
    const unique = [...new Map(edges.map((e) => [e.id, e])).values()];
    return { records, edges: unique, relationTypes: await engram.relations({ scopes }) };
  } finally {
    await engram.close();
  }
}

describe.skipIf(!binBuilt)('engram import <source> and export mcp-memory (skipped when dist/ is missing: run npm run build)', () => {
  const tmp = tempDir('engram-cli-import-');
  afterAll(() => tmp.cleanup());
  let n = 0;
  const freshDb = (): string => join(tmp.dir, `store-${++n}.db`);

  const run = (db: string, args: string[]): ImportReport => {
    const result = runCli([...args, '--db', db, '--embedder', 'hash', '--json']);
    expect(result.status, result.stderr).toBe(0);
    return json<ImportReport>(result);
  };
  const createsNothing = (report: ImportReport): void => {
    expect(report.memories.created + report.memories.merged + report.memories.superseded).toBe(0);
    expect(report.claims.created + report.claims.merged + report.claims.superseded).toBe(0);
    expect(report.edges.created).toBe(0);
    expect(report.registeredTypes).toEqual([]);
    expect(report.scopes).toEqual({});
  };
  const reasons = (report: ImportReport): string[] => Object.keys(report.skippedByReason);

  it('chatgpt: the current branch of each conversation as captured turns; tool, image and off-branch messages reported; idempotent', async () => {
    const db = freshDb();
    const args = ['import', 'chatgpt', fixture('chatgpt/conversations.json'), '--scope', 'me/chats'];
    const first = run(db, args);
    expect(first.units).toBe(2);
    expect(first.memories).toEqual({ created: 6, merged: 0, superseded: 0, unchanged: 0 });
    expect(first.claims.created).toBeGreaterThan(0);
    expect(first.scopes).toEqual({ 'me/chats': 6 });
    expect(first.skipped).toHaveLength(5);
    expect(reasons(first).join('\n')).toMatch(/current branch[\s\S]*python tool|python tool[\s\S]*current branch/);
    expect(first.skipped.find((s) => s.ref.endsWith('message a-1'))?.reason).toContain('current branch');
    expect(first.skipped.find((s) => s.ref.endsWith('message v-2'))?.reason).toContain('--default-time');

    const { records } = await readStore(db, ['me/chats']);
    const episodes = records.filter((r) => r.layer === 'episodic');
    expect(episodes).toHaveLength(6);
    const warmUp = episodes.find((r) => r.content.includes('15 to 20 minutes'));
    expect(warmUp?.content.startsWith('assistant: ')).toBe(true);
    expect(warmUp?.occurredAt).toBe(Math.round((1717405200.5 + 25) * 1000));
    expect(warmUp?.provenance.sources).toEqual([
      { system: 'chatgpt', conversationId: 'c0ffee00-0000-4000-8000-000000000001', messageId: 'a-1b' },
    ]);
    expect(episodes.some((r) => r.content.includes('Give it about 5 minutes'))).toBe(false);
    expect(new Set(episodes.map((r) => (r.data.context as { sessionId?: string } | undefined)?.sessionId))).toEqual(
      new Set(['c0ffee00-0000-4000-8000-000000000001', 'c0ffee00-0000-4000-8000-000000000002']),
    );
    expect(records.filter((r) => r.layer === 'semantic').length).toBe(first.claims.created);

    createsNothing(run(db, args));
    const withTime = run(db, [...args, '--default-time', '2024-07-03T08:10:00Z']);
    expect(withTime.memories.created).toBe(1);
    const sardines = (await readStore(db, ['me/chats'])).records.find((r) => r.content.includes('grilled sardines'));
    expect(sardines?.occurredAt).toBe(Date.parse('2024-07-03T08:10:00Z'));
  });

  it('claude-ai: text blocks of human and assistant messages on the current branch; attachments, tool use and off-branch turns reported', async () => {
    const db = freshDb();
    const args = ['import', 'claude-ai', fixture('claude-ai/conversations.json'), '--scope-template', 'me/claude/{conversation_id}'];
    const first = run(db, args);
    expect(first.memories.created).toBe(6);
    expect(first.scopes).toEqual({
      'me/claude/11111111-aaaa-4bbb-8ccc-000000000001': 3,
      'me/claude/11111111-aaaa-4bbb-8ccc-000000000002': 3,
    });
    expect(first.skipped.map((s) => s.ref.split(', ')[1]).sort()).toEqual(['message m-3', 'message m-4', 'message n-2']);
    const { records } = await readStore(db, Object.keys(first.scopes));
    const balcony = records.find((r) => r.layer === 'episodic' && r.content.startsWith('user: I grow tomatoes'));
    expect(balcony?.occurredAt).toBe(Date.parse('2024-04-02T07:00:01Z'));
    const reply = records.find((r) => r.layer === 'episodic' && r.content.startsWith('assistant: South-facing'));
    expect(reply?.content).not.toContain('plan watering');
    expect((reply?.data.context as { sessionId?: string } | undefined)?.sessionId).toBe('11111111-aaaa-4bbb-8ccc-000000000001');
    expect(records.some((r) => r.content.includes('consider a rain jacket'))).toBe(false);
    createsNothing(run(db, args));
  });

  it('claude-ai: a conversation without messages is reported skipped, not passed over in silence', () => {
    const file = join(tmp.dir, 'claude-ai-empty.json');
    writeFileSync(
      file,
      JSON.stringify([
        { uuid: 'c-empty', name: 'nothing said', chat_messages: [] },
        { uuid: 'c-odd', mapping: 'x' },
      ]),
    );
    const report = run(freshDb(), ['import', 'claude-ai', file, '--scope', 'me/claude']);
    createsNothing(report);
    expect(report.skipped.map((s) => s.ref).sort()).toEqual(['conversation c-empty', 'conversation c-odd']);
    expect(reasons(report)).toEqual(['conversation without messages (chat_messages)']);
  });

  it('mem0: a rewrite of one memory leaves another that said the same thing current (the two were one record)', async () => {
    const db = freshDb();
    const memory = (id: string, text: string, created: string, updated: string | null) => ({
      id,
      memory: text,
      hash: `${id}-${text}`,
      created_at: created,
      updated_at: updated,
      user_id: 'alice',
    });
    const v1 = join(tmp.dir, 'mem0-shared-v1.json');
    const v2 = join(tmp.dir, 'mem0-shared-v2.json');
    writeFileSync(
      v1,
      JSON.stringify({
        results: [memory('m-a', 'Likes pizza', '2024-07-20T00:00:00Z', null), memory('m-b', 'Likes pizza', '2024-07-21T00:00:00Z', null)],
      }),
    );
    writeFileSync(
      v2,
      JSON.stringify({
        results: [
          memory('m-a', 'Likes pizza', '2024-07-20T00:00:00Z', null),
          memory('m-b', 'Has a sister named Eva', '2024-07-21T00:00:00Z', '2024-09-01T00:00:00Z'),
        ],
      }),
    );
    const args = ['--scope-template', 'acme/users/{user_id}'];
    run(db, ['import', 'mem0', v1, ...args]);
    run(db, ['import', 'mem0', v2, ...args]);
    const { records } = await readStore(db, ['acme/users/alice']);
    expect(records.find((r) => r.content === 'Likes pizza')).toMatchObject({ status: 'active', validTo: null });
    expect(records.find((r) => r.content === 'Has a sister named Eva')?.validFrom).toBe(Date.parse('2024-09-01T00:00:00Z'));
    // and once m-a is rewritten too, nothing says it any more: it ends
    const v3 = join(tmp.dir, 'mem0-shared-v3.json');
    writeFileSync(
      v3,
      JSON.stringify({
        results: [
          memory('m-a', 'Likes sushi', '2024-07-20T00:00:00Z', '2024-10-01T00:00:00Z'),
          memory('m-b', 'Has a sister named Eva', '2024-07-21T00:00:00Z', '2024-09-01T00:00:00Z'),
        ],
      }),
    );
    run(db, ['import', 'mem0', v3, ...args]);
    const after = (await readStore(db, ['acme/users/alice'])).records;
    expect(after.find((r) => r.content === 'Likes pizza')?.validTo).toBe(Date.parse('2024-10-01T00:00:00Z'));
  });

  it('mem0: memories become claims in the scopes their ids map to, valid from updated_at, else created_at', async () => {
    const db = freshDb();
    const args = [
      'import',
      'mem0',
      fixture('mem0/memories.json'),
      '--scope-template',
      '{tenant}/users/{user_id}',
      '--scope-template',
      '{tenant}/agents/{agent_id}',
      '--tenant',
      'acme',
    ];
    const first = run(db, args);
    expect(first.memories.created).toBe(4);
    const bobScope = `acme/users/${valueSegment('bob@example.com')}`;
    expect(first.scopes).toEqual({ 'acme/users/alice': 2, 'acme/agents/coder': 1, [bobScope]: 1 });
    expect(first.skippedByReason).toEqual({
      'no timestamp in the source (pass --default-time ISO to import it with that time)': 1,
      'memory without text': 1,
      'no --scope-template matched ({tenant}/users/{user_id} lacks {user_id}; {tenant}/agents/{agent_id} lacks {agent_id}) and no --scope was given': 1,
    });
    const { records } = await readStore(db, Object.keys(first.scopes));
    expect(records.every((r) => r.layer === 'semantic')).toBe(true);
    const peanuts = records.find((r) => r.content === 'Allergic to peanuts');
    expect(peanuts?.validFrom).toBe(Date.parse('2024-08-01T17:00:00Z'));
    expect(peanuts?.tags).toEqual(expect.arrayContaining(['mem0', 'health']));
    expect(records.find((r) => r.content === 'Is a vegetarian')?.validFrom).toBe(Date.parse('2024-07-20T09:12:34.123Z'));
    expect(records.find((r) => r.content.startsWith('Prefers answers'))?.tags).toContain('preferences');
    createsNothing(run(db, args));
    // a later export where mem0 rewrote one memory: the new version supersedes the old from its updated_at
    const later = run(db, ['import', 'mem0', fixture('mem0/memories-later.json'), ...args.slice(3)]);
    expect(later.memories).toEqual({ created: 0, merged: 0, superseded: 1, unchanged: 3 });
    const bob = (await readStore(db, [bobScope])).records;
    expect(bob.find((r) => r.content === 'Lives in Porto')?.validTo).toBe(Date.parse('2024-09-01T00:00:00Z'));
    expect(bob.find((r) => r.content === 'Moved to Lisbon')).toMatchObject({
      validFrom: Date.parse('2024-09-01T00:00:00Z'),
      validTo: null,
    });
    createsNothing(run(db, ['import', 'mem0', fixture('mem0/memories-later.json'), ...args.slice(3)]));
    // with a fallback scope and a default time, the two left-out memories with text come in
    const rest = run(db, [...args, '--scope', 'acme/shared', '--default-time', '2024-07-25']);
    expect(rest.memories.created).toBe(2);
    expect(rest.scopes).toEqual({ 'acme/users/alice': 1, 'acme/shared': 1 });
    expect(rest.skipped).toHaveLength(1); // only the memory without text
  });

  it('mcp-memory: entities, observations with MENTIONS edges, relations as edges of registered types; problems reported', async () => {
    const db = freshDb();
    const args = [
      'import',
      'mcp-memory',
      fixture('mcp-memory/memory-with-problems.jsonl'),
      '--scope',
      'acme/graph',
      '--default-time',
      '2024-01-01',
    ];
    const missingTime = runCli([
      'import',
      'mcp-memory',
      fixture('mcp-memory/memory.jsonl'),
      '--scope',
      'acme/graph',
      '--db',
      db,
      '--embedder',
      'hash',
    ]);
    expect(missingTime.status).not.toBe(0);
    expect(missingTime.stderr).toContain('--default-time');
    const first = run(db, args);
    expect(first.memories.created).toBe(10);
    expect(first.edges.created).toBe(10);
    expect(first.registeredTypes.sort()).toEqual(['LEADS', 'REPORTS_TO', 'WORKS_AT']);
    expect(first.skipped.map((s) => s.ref)).toEqual(['line 10', 'line 11', 'relation John_Smith knows Nobody']);
    const { records, edges, relationTypes } = await readStore(db, ['acme/graph']);
    const john = records.find((r) => r.data.name === 'John_Smith');
    expect(john).toMatchObject({ layer: 'semantic', validFrom: Date.parse('2024-01-01'), data: { category: 'person' } });
    const spanish = records.find((r) => r.content === 'Speaks fluent Spanish');
    expect(edges.some((e) => e.type === 'MENTIONS' && e.fromId === spanish?.id && e.toId === john?.id)).toBe(true);
    const anthropic = records.find((r) => r.data.name === 'Anthropic');
    expect(edges.find((e) => e.type === 'WORKS_AT')).toMatchObject({
      fromId: john?.id,
      toId: anthropic?.id,
      metadata: { relationType: 'works_at' },
    });
    expect(edges.filter((e) => e.type === 'IS_A')).toHaveLength(1);
    expect(relationTypes.find((t) => t.name === 'WORKS_AT')).toMatchObject({
      builtIn: false,
      proposedBy: 'import:mcp-memory',
      tenant: 'acme',
    });
    createsNothing(run(db, args));
  });

  it('export mcp-memory then import mcp-memory into a fresh store gives the same entities, relations and observations', () => {
    const original = readFileSync(fixture('mcp-memory/memory.jsonl'), 'utf8');
    const graphOf = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map((o) => JSON.stringify(o))
        .sort();
    const first = freshDb();
    run(first, ['import', 'mcp-memory', fixture('mcp-memory/memory.jsonl'), '--scope', 'acme/graph', '--default-time', '2024-01-01']);
    const exported = join(tmp.dir, 'graph-1.jsonl');
    const report = runCli(['export', 'mcp-memory', '--scope', 'acme/graph', exported, '--db', first, '--json']);
    expect(report.status, report.stderr).toBe(0);
    expect(json(report)).toMatchObject({ entities: 4, observations: 6, relations: 4, leftOut: {} });
    expect(graphOf(readFileSync(exported, 'utf8'))).toEqual(graphOf(original));

    const second = freshDb();
    run(second, ['import', 'mcp-memory', exported, '--scope', 'other/graph', '--default-time', 'now']);
    const again = join(tmp.dir, 'graph-2.jsonl');
    expect(runCli(['export', 'mcp-memory', '--scope', 'other/graph', again, '--db', second]).status).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(exported, 'utf8'));
  });

  it('vault --style basic-memory: notes, observations as facts, relation lines and links as edges; missing targets reported', async () => {
    const db = freshDb();
    const args = ['import', 'vault', fixture('vault-basic-memory'), '--style', 'basic-memory', '--scope', 'acme/notes'];
    const first = run(db, args);
    expect(first.memories.created).toBe(8);
    expect(first.edges.created).toBe(9);
    expect(first.registeredTypes.sort()).toEqual(['LINKS_TO', 'OWNED_BY', 'PAIRS_WITH', 'RELATES_TO']);
    expect(first.skipped.map((s) => s.ref).sort()).toEqual([
      'note projects/coffee-bean-origins.md, link [[Farmers Union]]',
      'note projects/coffee-brewing-methods.md, link [[Grinder Settings]]',
    ]);
    const { records, edges } = await readStore(db, ['acme/notes']);
    const brewing = records.find((r) => r.data.name === 'Coffee Brewing Methods');
    expect(brewing).toMatchObject({ validFrom: Date.parse('2024-03-01T10:00:00Z'), data: { category: 'note' } });
    expect(brewing?.tags).toEqual(expect.arrayContaining(['coffee', 'brewing']));
    expect(brewing?.content).not.toContain('[method]');
    expect(records.find((r) => r.data.name === 'Dana Fischer')?.data.category).toBe('person');
    const water = records.find((r) => r.content.startsWith('Water temperature'));
    expect(water).toMatchObject({ data: { category: 'technique', properties: { context: 'measured with a probe' } } });
    expect(records.some((r) => r.content.includes('buy a new kettle') && r.data.name === undefined)).toBe(false);
    const origins = records.find((r) => r.data.name === 'Coffee Bean Origins');
    expect(edges.find((e) => e.type === 'RELATES_TO')).toMatchObject({ fromId: brewing?.id, toId: origins?.id });
    expect(edges.filter((e) => e.type === 'MENTIONS')).toHaveLength(5);
    createsNothing(run(db, args));
  });

  it('vault --style obsidian: front matter, tags, [[links]] with aliases and headings; folders as scopes or as tags', async () => {
    const vault = join(tmp.dir, 'obsidian');
    cpSync(fixture('vault-obsidian'), vault, { recursive: true });
    const mtime = new Date('2024-06-01T12:00:00Z');
    for (const file of ['People/Lena Park.md', 'Projects/Tech Stack.md', 'Projects/Website Redesign.md'])
      utimesSync(join(vault, file), mtime, mtime);

    const scoped = freshDb();
    const byFolder = run(scoped, ['import', 'vault', vault, '--style', 'obsidian', '--scope', 'acme/obs', '--folders', 'scopes']);
    expect(byFolder.scopes).toEqual({ 'acme/obs/Projects': 2, 'acme/obs/People': 1 });
    expect(byFolder.edges.created).toBe(2);
    expect(byFolder.skippedByReason['relation across scopes (edges connect records of one scope)']).toBe(2);

    const db = freshDb();
    const args = ['import', 'vault', vault, '--style', 'obsidian', '--scope', 'acme/obs'];
    const first = run(db, args);
    expect(first.memories.created).toBe(3);
    expect(first.edges.created).toBe(4);
    expect(first.skipped.map((s) => s.ref).sort()).toEqual([
      'note Projects/Website Redesign.md, link [[Backlog]]',
      'note Projects/Website Redesign.md, link [[mockup.png]]',
    ]);
    const { records, edges } = await readStore(db, ['acme/obs']);
    const redesign = records.find((r) => r.data.name === 'Website Redesign');
    const lena = records.find((r) => r.data.name === 'Lena Park');
    const stack = records.find((r) => r.data.name === 'Tech Stack');
    expect(redesign?.validFrom).toBe(Date.parse('2024-05-06'));
    expect(lena?.validFrom).toBe(mtime.getTime());
    expect(redesign?.tags).toEqual(expect.arrayContaining(['obsidian', 'project', 'web', 'status/active', 'folder:Projects']));
    expect(stack?.tags).not.toContain('notatag');
    expect(edges.find((e) => e.type === 'RELATED' && e.fromId === redesign?.id)?.toId).toBe(lena?.id);
    expect(
      edges
        .filter((e) => e.type === 'LINKS_TO')
        .map((e) => [e.fromId, e.toId])
        .sort(),
    ).toEqual(
      [
        [redesign?.id, lena?.id],
        [redesign?.id, stack?.id],
        [stack?.id, redesign?.id],
      ].sort(),
    );
    createsNothing(run(db, args));
  });

  it("claude-code: sessions through the hooks' capture path (claims, redaction, same sources), scopes from project folders", async () => {
    const db = freshDb();
    const args = ['import', 'claude-code', fixture('claude-code'), '--scope-template', 'me/projects/{dir}'];
    const first = run(db, args);
    expect(first.units).toBe(2);
    expect(first.memories.created).toBe(5);
    expect(first.scopes).toEqual({ 'me/projects/shop': 3, 'me/projects/blog': 2 });
    expect(first.claims.created).toBeGreaterThan(0);
    expect(first.redacted).toBe(1);
    expect(first.skippedByReason['no timestamp in the source (pass --default-time ISO to import it with that time)']).toBe(1);
    expect(Object.entries(first.skippedByReason).find(([reason]) => reason.startsWith('transcript entries'))?.[1]).toBe(8);
    const { records } = await readStore(db, ['me/projects/shop', 'me/projects/blog']);
    const token = records.find((r) => r.layer === 'episodic' && r.content.includes('Netlify'));
    expect(token?.content).toContain('[redacted:');
    expect(records.some((r) => r.content.includes('ghp_abcdefghijklmnop'))).toBe(false);
    expect(token?.provenance.sources).toEqual([
      { system: 'claude-code', conversationId: '0d2b7c1e-1111-4a2b-9c3d-aaaaaaaaaaaa', messageId: 'b0000000-0000-4000-8000-000000000001' },
    ]);
    expect(token?.occurredAt).toBe(Date.parse('2025-10-03T08:00:00Z'));
    expect(records.filter((r) => r.scope === 'me/projects/shop' && r.layer === 'episodic').map((r) => r.content.slice(0, 30))).toHaveLength(
      3,
    );
    createsNothing(run(db, args));
    const project = run(db, ['import', 'claude-code', fixture('claude-code/-home-dev-shop'), '--scope-template', 'me/projects/{dir}']);
    createsNothing(project);

    // without DIR: ~/.claude/projects
    const home = join(tmp.dir, 'home');
    cpSync(fixture('claude-code'), join(home, '.claude', 'projects'), { recursive: true });
    const byDefault = runCli(
      ['import', 'claude-code', '--scope-template', 'me/{project}', '--db', freshDb(), '--embedder', 'hash', '--json'],
      { env: { HOME: home } },
    );
    expect(byDefault.status, byDefault.stderr).toBe(0);
    expect(json<ImportReport>(byDefault).scopes).toEqual({ 'me/home-dev-shop': 3, 'me/home-dev-blog': 2 });
  });

  it('refuses an import that names no scope, an unknown placeholder or a bad --default-time, writing nothing', () => {
    const db = freshDb();
    const cases: [string[], string][] = [
      [['import', 'chatgpt', fixture('chatgpt/conversations.json')], '--scope'],
      [['import', 'mem0', fixture('mem0/memories.json'), '--scope-template', 'acme/{user}'], '{user}'],
      [['import', 'mem0', fixture('mem0/memories.json'), '--scope', 'acme/x', '--default-time', 'yesterday'], '--default-time'],
      [['import', 'vault', fixture('vault-obsidian'), '--scope', 'acme/x'], '--style'],
      [['import', 'chatgpt', fixture('mem0/memories.json'), '--scope', 'acme/x'], 'conversations'],
    ];
    for (const [args, message] of cases) {
      const result = runCli([...args, '--db', db, '--embedder', 'hash']);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a file in another format than the one named, before a database is created', () => {
    const db = freshDb();
    const cases: [string[], RegExp][] = [
      [['import', 'chatgpt', fixture('claude-ai/conversations.json')], /not a ChatGPT export.*looks like a Claude\.ai export/],
      [['import', 'claude-ai', fixture('chatgpt/conversations.json')], /not a Claude\.ai export.*looks like a ChatGPT export/],
      [['import', 'mem0', fixture('chatgpt/conversations.json')], /not a mem0 export.*looks like a ChatGPT export/],
      [
        ['import', 'mcp-memory', fixture('chatgpt/conversations.json'), '--default-time', 'now'],
        /not an MCP memory graph.*looks like a ChatGPT export/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = runCli([...args, '--scope', 'me/x', '--db', db, '--embedder', 'hash']);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync(db)).toBe(false);
  });

  it('reads files that begin with a byte order mark: the MCP memory graph keeps its first line, remember --file its inputs', async () => {
    const db = freshDb();
    const graph = join(tmp.dir, 'memory-bom.jsonl');
    writeFileSync(
      graph,
      '\uFEFF{"type":"entity","name":"Alice","entityType":"person","observations":["Works at Acme"]}\n' +
        '{"type":"entity","name":"Acme","entityType":"organization","observations":[]}\n' +
        '{"type":"relation","from":"Alice","to":"Acme","relationType":"works_at"}\n',
    );
    const report = run(db, ['import', 'mcp-memory', graph, '--scope', 'me/graph', '--default-time', '2024-01-01']);
    expect(report.skipped).toEqual([]);
    expect(report.memories.created).toBe(3);
    expect(report.edges.created).toBe(2);
    const inputs = join(tmp.dir, 'inputs-bom.jsonl');
    writeFileSync(inputs, '\uFEFF{"content":"Alice prefers window seats","layer":"semantic"}\n{"content":"Bob likes aisle seats"}\n');
    const remembered = runCli(['remember', '--scope', 'me/notes', '--file', inputs, '--db', db, '--embedder', 'hash']);
    expect(remembered.status, remembered.stderr).toBe(0);
    const { records } = await readStore(db, ['me/notes']);
    expect(records.map((r) => r.content).sort()).toEqual(['Alice prefers window seats', 'Bob likes aisle seats']);
  });

  it('refuses a file that is not UTF-8 (a Latin-1 é), naming the file, byte and line, before a database is created', async () => {
    const db = freshDb();
    /** `source` with "café " in Latin-1 put at the start of its first string value. */
    const withLatin1 = (source: string, name: string): { file: string; offset: number; line: number } => {
      const text = readFileSync(source, 'utf8');
      const value = /":\s*"/.exec(text);
      const at = value === null ? 0 : value.index + value[0].length;
      const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from('café ', 'latin1'), Buffer.from(text.slice(at))]);
      const file = join(tmp.dir, name);
      writeFileSync(file, bytes);
      const offset = bytes.indexOf(0xe9);
      return { file, offset, line: bytes.subarray(0, offset).toString('latin1').split('\n').length };
    };
    const cases: [string[], ReturnType<typeof withLatin1>][] = [
      [['import', 'chatgpt'], withLatin1(fixture('chatgpt/conversations.json'), 'chatgpt-latin1.json')],
      [['import', 'claude-ai'], withLatin1(fixture('claude-ai/conversations.json'), 'claude-latin1.json')],
      [['import', 'mem0'], withLatin1(fixture('mem0/memories.json'), 'mem0-latin1.json')],
      [['import', 'mcp-memory', '--default-time', 'now'], withLatin1(fixture('mcp-memory/memory.jsonl'), 'graph-latin1.jsonl')],
    ];
    for (const [args, { file, offset, line }] of cases) {
      const result = runCli([...args, file, '--scope', 'me/x', '--db', db, '--embedder', 'hash']);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(
        `${file} is not valid UTF-8: byte ${offset} (0xe9), on line ${line}, is not part of a UTF-8 character`,
      );
      expect(result.stderr).toContain('Save it as UTF-8');
    }
    const vault = join(tmp.dir, 'vault-latin1');
    cpSync(fixture('vault-obsidian'), vault, { recursive: true });
    const note = join(vault, 'People', 'Lena Park.md');
    writeFileSync(note, Buffer.concat([readFileSync(note), Buffer.from('\nMet her at the café.\n', 'latin1')]));
    const fromVault = runCli(['import', 'vault', vault, '--style', 'obsidian', '--scope', 'me/x', '--db', db, '--embedder', 'hash']);
    expect(fromVault.status).toBe(2);
    expect(fromVault.stderr).toMatch(/Lena Park\.md is not valid UTF-8: byte \d+ \(0xe9\)/);
    expect(existsSync(db)).toBe(false);
    // remember --file reads its inputs whole before writing any
    const inputs = join(tmp.dir, 'inputs-latin1.jsonl');
    writeFileSync(inputs, Buffer.from('{"content":"Lunch at noon"}\n{"content":"Tea at the café"}\n', 'latin1'));
    const remembered = runCli(['remember', '--scope', 'me/notes', '--file', inputs, '--db', db, '--embedder', 'hash']);
    expect(remembered.status).toBe(2);
    expect(remembered.stderr).toMatch(/--file .*inputs-latin1\.jsonl is not valid UTF-8: byte \d+ \(0xe9\), on line 2,/);
    if (existsSync(db)) expect((await readStore(db, ['me/notes'])).records).toEqual([]);
  });

  it('a secret in a conversation title that a scope template takes is redacted in the scope, and nowhere in the database', () => {
    const db = freshDb();
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const file = join(tmp.dir, 'title-secret.json');
    writeFileSync(file, JSON.stringify([chatgptConversation('conv-t', `Why does ${token} fail`, 'Why?')]));
    const report = run(db, ['import', 'chatgpt', file, '--scope-template', 'me/chats/{title}']);
    expect(Object.keys(report.scopes)).toEqual([expect.stringMatching(/^me\/chats\/Why-does-redacted-github-token-fail-[0-9a-f]{16}$/)]);
    for (const path of [db, `${db}-wal`]) if (existsSync(path)) expect(readFileSync(path).includes(token)).toBe(false);
  });
});
