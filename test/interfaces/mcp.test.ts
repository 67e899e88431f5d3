/**
 * The MCP server through the SDK's own Client over InMemoryTransport: every tool, its bad input, the
 * scope limit, and the rules/profile resources.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MCP_TOOL_NAMES } from '../../src/interfaces/mcp/index.js';
import { call, callOk, inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/users/alice';
const SHARED = 'acme/shared';

let env: Awaited<ReturnType<typeof tempEngram>>;
let client: Client;
let close: () => Promise<void>;

beforeEach(async () => {
  env = await tempEngram();
  ({ client, close } = await inMemoryClient(env.engram, [SCOPE, SHARED]));
});
afterEach(async () => {
  await close();
  await env.cleanup();
});

describe('tool list', () => {
  it('offers exactly the contract tools, each documented, with the contract fields', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(60);
    const remember = tools.find((t) => t.name === 'memory_remember');
    expect(Object.keys(remember?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['scope', 'content', 'layer', 'occurredAt', 'validFrom', 'importance', 'tags', 'episode', 'concept', 'rule']),
    );
    // layer-specific fields are advertised nested (the flat form is still accepted: mcp-maple.test.ts)
    expect(Object.keys((remember?.inputSchema.properties?.episode as { properties?: object } | undefined)?.properties ?? {})).toEqual(
      expect.arrayContaining(['perception', 'context', 'decision', 'action', 'outcome']),
    );
    expect(remember?.inputSchema.required).toEqual(['content']);
    const recall = tools.find((t) => t.name === 'memory_recall');
    expect(Object.keys(recall?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['scope', 'scopes', 'query', 'k', 'asOf', 'knownAt']),
    );
    expect(recall?.inputSchema.required).toEqual(['query']);
  });
});

describe('memory_remember and memory_recall', () => {
  it('stores in the first allowed scope by default and finds it again, as structured content and text', async () => {
    const stored = await callOk<{ id: string; action: string; scope: string }>(client, 'memory_remember', {
      content: 'Alice prefers window seats on long flights.',
      layer: 'semantic',
      tags: ['travel'],
      importance: 0.8,
    });
    expect(stored).toMatchObject({ action: 'created', scope: SCOPE });
    const result = await call(client, 'memory_recall', { query: 'which seat does Alice like?' });
    expect(result.isError).toBeFalsy();
    const hits = (result.structuredContent as { hits: { id: string; scope: string; tags: string[] }[] }).hits;
    expect(hits[0]).toMatchObject({ id: stored.id, scope: SCOPE, tags: ['travel'] });
    expect(textOf(result)).toContain('window seats');
  });

  it('accepts structured episodes and explicit scopes', async () => {
    const stored = await callOk<{ id: string }>(client, 'memory_remember', {
      scope: SHARED,
      content: 'Grasped the red mug on the second try.',
      occurredAt: '2024-05-01T10:00:00Z',
      perception: { objects: ['mug'], salience: 0.7 },
      context: { goal: 'grasp mug' },
      action: { tool: 'grasp', args: { force: 2 } },
      outcome: { success: true, reward: 1 },
    });
    const memory = (await callOk<{ memory: Record<string, unknown> }>(client, 'memory_get', { id: stored.id, scope: SHARED })).memory;
    expect(memory).toMatchObject({
      scope: SHARED,
      layer: 'episodic',
      occurredAt: '2024-05-01T10:00:00.000Z',
      outcome: { success: true, reward: 1 },
    });
    const onlyShared = await callOk<{ hits: { id: string }[] }>(client, 'memory_recall', { scopes: [SHARED], query: 'red mug' });
    expect(onlyShared.hits.map((h) => h.id)).toEqual([stored.id]);
    const onlyAlice = await callOk<{ hits: unknown[] }>(client, 'memory_recall', { scope: SCOPE, query: 'red mug' });
    expect(onlyAlice.hits).toEqual([]);
  });

  it('answers asOf and knownAt: what was true then, what was believed then', async () => {
    const old = await callOk<{ id: string }>(client, 'memory_remember', {
      content: 'The deploy target is staging.',
      layer: 'semantic',
      validFrom: '2024-01-01',
    });
    const beforeCorrection = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    const correction = await callOk<{ id: string; superseded?: string[] }>(client, 'memory_remember', {
      content: 'The deploy target is production.',
      layer: 'semantic',
      validFrom: '2024-06-01',
    });
    expect(correction.superseded).toEqual([old.id]);
    const now = await callOk<{ hits: { id: string }[] }>(client, 'memory_recall', { query: 'deploy target' });
    expect(now.hits.map((h) => h.id)).toEqual([correction.id]);
    const then = await callOk<{ hits: { id: string }[] }>(client, 'memory_recall', { query: 'deploy target', asOf: '2024-03-01' });
    expect(then.hits.map((h) => h.id)).toEqual([old.id]);
    const believed = await callOk<{ hits: { id: string }[] }>(client, 'memory_recall', {
      query: 'deploy target',
      knownAt: beforeCorrection,
    });
    expect(believed.hits.map((h) => h.id)).toEqual([old.id]);
  });
});

describe('memory_get, memory_update, memory_forget, memory_stats', () => {
  it('reads, changes, forgets and restores one memory, and counts', async () => {
    const { id } = await callOk<{ id: string }>(client, 'memory_remember', { content: 'Bob owns a green bicycle.', layer: 'semantic' });
    const updated = await callOk<{ memory: { content: string; pinned: boolean; tags: string[] } }>(client, 'memory_update', {
      id,
      content: 'Bob owns a blue bicycle.',
      pinned: true,
      tags: ['bob'],
    });
    expect(updated.memory).toMatchObject({ content: 'Bob owns a blue bicycle.', pinned: true, tags: ['bob'] });
    const forgotten = await callOk<{ memory: { status: string } }>(client, 'memory_forget', { id });
    expect(forgotten.memory.status).toBe('deleted');
    expect((await callOk<{ hits: unknown[] }>(client, 'memory_recall', { query: 'bicycle' })).hits).toEqual([]);
    const restored = await callOk<{ memory: { status: string } }>(client, 'memory_forget', { id, restore: true });
    expect(restored.memory.status).toBe('active');
    const stats = await callOk<{ total: number; byLayer: Record<string, number>; scopes: string[] }>(client, 'memory_stats', {});
    expect(stats).toMatchObject({ total: 1, byLayer: { semantic: 1 }, scopes: [SCOPE, SHARED] });
  });
});

describe('scopes', () => {
  it('refuses any scope the server was not started with, for reads and writes, and writes nothing', async () => {
    for (const [name, args] of [
      ['memory_remember', { scope: 'evil/corp', content: 'x' }],
      ['memory_recall', { scopes: [SCOPE, 'acme/users/bob'], query: 'x' }],
      ['memory_stats', { scope: 'acme/users/bob' }],
      ['memory_context', { scope: 'acme/users/bob', message: 'x' }],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toMatch(/^\[SCOPE_DENIED\] Scope "(evil\/corp|acme\/users\/bob)" is not open to this server/);
    }
    const stats = await callOk<{ total: number }>(client, 'memory_stats', {});
    expect(stats.total).toBe(0);
  });
});

describe('bad input is a tool error with a clear message, never a crash', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['memory_remember', {}, /content/],
    ['memory_remember', { content: '   ' }, /content must not be empty/],
    ['memory_remember', { content: 'x', occurredAt: 'yesterday' }, /occurredAt "yesterday" is not a date/],
    ['memory_remember', { content: 'x', importance: 7 }, /importance/],
    ['memory_remember', { content: 'x', colour: 'red' }, /unknown field\(s\) colour/],
    ['memory_recall', {}, /query/],
    ['memory_recall', { query: 'x', k: 0 }, /k/],
    ['memory_recall', { query: 'x', scope: SCOPE, scopes: [SCOPE] }, /either `scope` or `scopes`/],
    ['memory_context', { message: 42 }, /message/],
    ['memory_context', { message: ' ' }, /needs a message, or a percept/],
    ['memory_get', {}, /id/],
    ['memory_get', { id: '01NOPE' }, /\[NOT_FOUND\] No memory with id 01NOPE/],
    ['memory_update', { id: '01NOPE' }, /name at least one field to change/],
    ['memory_forget', { id: '01NOPE' }, /\[NOT_FOUND\]/],
    ['memory_relate', { from: 'a', type: 'CAUSES' }, /to/],
    ['memory_consolidate', { phases: 'all' }, /phases/],
    ['memory_consolidate', { phases: ['nap'] }, /phases/],
    ['memory_relate', { from: '01NOPE1', type: 'CAUSES', to: '01NOPE2' }, /./],
    ['memory_predict', {}, /episode/],
    ['memory_predict', { episode: {} }, /needs something to match/],
    ['memory_stats', { scopes: [] }, /scopes/],
    ['memory_stats', { scope: '../etc' }, /scope is not a valid scope \("..\/etc"/],
  ];
  it.each(cases)('%s %j', async (name, args, message) => {
    const result = await call(client, name, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });
});

describe('knowledge tools', () => {
  it('memory_context returns Markdown and the structured parts, rules always included', async () => {
    await callOk(client, 'memory_remember', {
      scope: SHARED,
      content: 'Always answer in British English.',
      layer: 'procedural',
      priority: 5,
    });
    await callOk(client, 'memory_remember', { content: 'Alice is vegetarian.', layer: 'semantic' });
    const result = await call(client, 'memory_context', { message: 'Suggest a dinner for Alice', budgetMs: 500 });
    expect(result.isError).toBeFalsy();
    const context = result.structuredContent as {
      markdown: string;
      parts: Record<string, { level: string; items: { content?: string }[] }>;
    };
    expect(context.parts.rules?.items.map((i) => i.content)).toEqual(['Always answer in British English.']);
    expect(textOf(result)).toBe(context.markdown);
    expect(context.markdown).toContain('British English');
    expect(context.markdown).toContain('vegetarian');
  });

  it('memory_consolidate then memory_predict: 7 of 8 grasps succeeded → ≈ 0.875', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { id } = await callOk<{ id: string }>(client, 'memory_remember', {
        content: `Tried to grasp the mug (attempt ${i + 1}).`,
        perception: { objects: ['mug'] },
        context: { goal: 'grasp mug' },
        action: { tool: 'grasp' },
        outcome: { success: i !== 3 },
      });
      ids.push(id);
    }
    const report = await callOk<{ phases: unknown[] }>(client, 'memory_consolidate', {});
    expect(report.phases.length).toBeGreaterThan(0);
    const result = await callOk<{ predictions: { successProbability: number; supportingEpisodeIds: string[] }[] }>(
      client,
      'memory_predict',
      {
        episode: { perception: { objects: ['mug'] }, context: { goal: 'grasp mug' } },
      },
    );
    expect(result.predictions[0]?.successProbability).toBeCloseTo(0.875, 2);
    expect([...(result.predictions[0]?.supportingEpisodeIds ?? [])].sort()).toEqual([...ids].sort());
  });

  it('memory_relate links two memories of one scope', async () => {
    const a = await callOk<{ id: string }>(client, 'memory_remember', { content: 'Rain', layer: 'semantic' });
    const b = await callOk<{ id: string }>(client, 'memory_remember', { content: 'Wet streets', layer: 'semantic' });
    const related = await callOk<{ edge: { from: string; to: string; type: string } }>(client, 'memory_relate', {
      from: a.id,
      type: 'CAUSES',
      to: b.id,
    });
    expect(related.edge).toMatchObject({ from: a.id, type: 'CAUSES', to: b.id });
    const across = await call(client, 'memory_relate', { scope: SHARED, from: a.id, type: 'CAUSES', to: b.id });
    expect(across.isError).toBe(true);
  });
});

describe('resources', () => {
  it('lists rules and profile per scope and reads them as Markdown and JSON', async () => {
    await callOk(client, 'memory_remember', { scope: SHARED, content: 'Never push to main on Fridays.', layer: 'procedural', priority: 1 });
    await callOk(client, 'memory_remember', {
      scope: SHARED,
      content: 'Run the tests before every commit.',
      layer: 'procedural',
      priority: 9,
    });
    await callOk(client, 'memory_remember', { content: 'Alice lives in Lisbon.', layer: 'semantic' });
    await callOk(client, 'memory_remember', { content: 'Alice went for a run this morning.' });
    // a persona and a profile schema are settings of the scope, not rules an agent is handed
    await env.engram.setPersona({ scope: SHARED, dispositions: { caution: 0.9 }, reason: 'careful' });
    await env.engram.setProfileSchema({ scope: SHARED, fields: [{ name: 'budget range', description: 'what the user can spend' }] });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [`engram://profile/${SCOPE}`, `engram://profile/${SHARED}`, `engram://rules/${SCOPE}`, `engram://rules/${SHARED}`].sort(),
    );
    const rules = await client.readResource({ uri: `engram://rules/${SHARED}` });
    expect(rules.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: `# Rules of ${SHARED}\n\n- Run the tests before every commit.\n- Never push to main on Fridays.`,
    });
    const profile = await client.readResource({ uri: `engram://profile/${SCOPE}` });
    const json = JSON.parse(String((profile.contents[1] as { text?: string } | undefined)?.text)) as { facts: { content: string }[] };
    expect(json.facts.map((f) => f.content)).toEqual(['Alice lives in Lisbon.']);
  });
});
