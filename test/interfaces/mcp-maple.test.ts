/**
 * Seed 001's MCP surface through the SDK's own client: the whole `tools/list` stays within its token
 * budget (cl100k), memory_remember takes its layer fields nested and flat, and the maintenance tools
 * (surface, decay, expire) and decision chains work on planted data within the server's scopes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getEncoding } from 'js-tiktoken';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import { MCP_TOOL_NAMES } from '../../src/interfaces/mcp/index.js';
import { call, callOk, inMemoryClient, textOf } from '../helpers/mcp.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/users/alice';
const SHARED = 'acme/shared';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);
/** The budget of the whole tools/list result (docs/mcp.md has the measured figures). */
const TOOL_LIST_TOKEN_BUDGET = 5_300;

let env: Awaited<ReturnType<typeof tempEngram>>;
let clock: ManualClock;
let client: Client;
let close: () => Promise<void>;

beforeEach(async () => {
  clock = new ManualClock(T0);
  env = await tempEngram({ clock });
  ({ client, close } = await inMemoryClient(env.engram, [SCOPE, SHARED]));
});
afterEach(async () => {
  await close();
  await env.cleanup();
});

describe('a lean tool list', () => {
  it(`the whole tools/list JSON is at most ${TOOL_LIST_TOKEN_BUDGET} cl100k tokens, with every contract tool`, async () => {
    const list = await client.listTools();
    expect(list.tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    expect(MCP_TOOL_NAMES).toEqual(expect.arrayContaining(['memory_surface', 'memory_decay', 'memory_expire']));
    const encoding = getEncoding('cl100k_base');
    const tokens = encoding.encode(JSON.stringify(list)).length;
    const perTool = Object.fromEntries(list.tools.map((t) => [t.name, encoding.encode(JSON.stringify(t)).length]));
    console.log(`tools/list: ${tokens} cl100k tokens for ${list.tools.length} tools`, perTool);
    expect(tokens).toBeLessThanOrEqual(TOOL_LIST_TOKEN_BUDGET);
    const remember = list.tools.find((t) => t.name === 'memory_remember');
    const properties = remember?.inputSchema.properties as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(properties.episode?.properties ?? {})).toEqual([
      'perception',
      'context',
      'decision',
      'action',
      'outcome',
      'rejected',
      'ledTo',
      'follows',
    ]);
    expect(Object.keys(properties.concept?.properties ?? {})).toEqual(['name', 'definition', 'category', 'properties']);
    expect(Object.keys(properties)).not.toContain('perception');
  });

  it('memory_remember takes layer fields nested and, as before, at the top level; both at once is refused', async () => {
    const nested = await callOk<{ id: string }>(client, 'memory_remember', {
      content: 'Grasped the red mug on the second try.',
      episode: { perception: { objects: ['mug'] }, context: { goal: 'grasp mug' }, action: { tool: 'grasp' }, outcome: { success: true } },
    });
    const flat = await callOk<{ id: string }>(client, 'memory_remember', {
      content: 'Grasped the blue mug at once.',
      perception: { objects: ['mug'] },
      context: { goal: 'grasp mug' },
      action: { tool: 'grasp' },
      outcome: { success: true },
    });
    for (const id of [nested.id, flat.id]) {
      const { memory } = await callOk<{ memory: Record<string, unknown> }>(client, 'memory_get', { id });
      expect(memory).toMatchObject({
        perception: { objects: ['mug'] },
        context: { goal: 'grasp mug' },
        action: { tool: 'grasp' },
        outcome: { success: true },
      });
    }
    const concept = await callOk<{ id: string }>(client, 'memory_remember', {
      content: 'A mug is a cup with a handle.',
      layer: 'semantic',
      concept: { name: 'mug', category: 'object' },
    });
    expect((await env.engram.get(concept.id, { scopes: [SCOPE] })).name).toBe('mug');
    const rule = await callOk<{ id: string }>(client, 'memory_remember', {
      scope: SHARED,
      content: 'Always answer briefly.',
      layer: 'procedural',
      rule: { priority: 7 },
    });
    expect((await env.engram.get(rule.id, { scopes: [SHARED] })).priority).toBe(7);
    const both = await call(client, 'memory_remember', {
      content: 'x',
      outcome: { success: true },
      episode: { outcome: { success: false } },
    });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toMatch(/"outcome" is given both at the top level and in "episode"/);
    const wrong = await call(client, 'memory_remember', { content: 'x', episode: { outcome: { succes: true } } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/succes/);
    expect((await env.engram.stats({ scopes: [SCOPE, SHARED] })).total).toBe(4);
  });
});

describe('maintenance tools', () => {
  it('memory_surface ranks without a query, within the server scopes', async () => {
    await env.engram.remember([
      { scope: SCOPE, content: 'Alice is allergic to peanuts.', layer: 'semantic', importance: 0.95 },
      { scope: SCOPE, content: 'Alice had tea at four.', importance: 0.2 },
      { scope: 'globex/x', content: 'Another tenant: never surfaced.', importance: 1 },
    ]);
    const result = await call(client, 'memory_surface', { limit: 1 });
    const { hits } = result.structuredContent as { hits: { content: string; why: { importance: number } }[] };
    expect(hits.map((h) => h.content)).toEqual(['Alice is allergic to peanuts.']);
    expect(hits[0]!.why.importance).toBe(0.95);
    expect(textOf(result)).toContain('peanuts');
    const denied = await call(client, 'memory_surface', { scope: 'globex/x' });
    expect(textOf(denied)).toMatch(/SCOPE_DENIED/);
  });

  it('memory_decay reports, then decays; memory_expire is a dry run until told, then leaves a tombstone', async () => {
    const idle = await env.engram.remember({ scope: SCOPE, content: 'Alice mentioned the weather once.', importance: 0.2 });
    clock.set(T0 + 8 * DAY);
    const dry = await callOk<{ dryRun: boolean; decayed: string[]; counts: { decayed: number } }>(client, 'memory_decay', { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, decayed: [idle.id], counts: { decayed: 1 } });
    expect((await env.engram.get(idle.id, { scopes: [SCOPE] })).status).toBe('active');
    const run = await callOk<{ dryRun: boolean; runId: string }>(client, 'memory_decay', {});
    expect(run.dryRun).toBe(false);
    expect((await env.engram.get(idle.id, { scopes: [SCOPE] })).status).toBe('decayed');
    clock.set(T0 + 40 * DAY);
    const preview = await call(client, 'memory_expire', {});
    expect(preview.structuredContent).toMatchObject({ dryRun: true, expired: 1, ids: [idle.id] });
    expect(textOf(preview)).toMatch(/dryRun: false/);
    expect((await env.engram.get(idle.id, { scopes: [SCOPE] })).content).toContain('weather');
    const done = await callOk<{ expired: number; auditIds: string[] }>(client, 'memory_expire', { dryRun: false });
    expect(done.expired).toBe(1);
    expect(done.auditIds).toHaveLength(1);
    const { memory } = await callOk<{ memory: Record<string, unknown> }>(client, 'memory_get', { id: idle.id });
    expect(memory).toMatchObject({ status: 'expired', content: '', tombstone: true, expiredAt: T0 + 40 * DAY });
    const listed = await callOk<{ items: { id: string }[] }>(client, 'memory_list', { statuses: ['expired'] });
    expect(listed.items.map((i) => i.id)).toEqual([idle.id]);
    expect(textOf(await call(client, 'memory_expire', { scope: 'globex/x', dryRun: false }))).toMatch(/SCOPE_DENIED/);
  });

  it('decision chains: written through memory_remember and memory_relate, returned whole by recall and context', async () => {
    const why = await callOk<{ id: string }>(client, 'memory_remember', { content: 'Orders need joins with invoices.' });
    const decision = await callOk<{ id: string; rejected: string[] }>(client, 'memory_remember', {
      content: 'Decided to keep orders in PostgreSQL.',
      episode: { decision: { intent: 'orders database', rationale: 'joins' }, rejected: ['MongoDB for orders'] },
    });
    expect(decision.rejected).toHaveLength(1);
    await callOk(client, 'memory_relate', { from: why.id, type: 'DECIDED', to: decision.id });
    const outcome = await callOk<{ id: string }>(client, 'memory_remember', {
      content: 'Orders moved to PostgreSQL in two days.',
      follows: decision.id,
    });
    const { hits } = await callOk<{ hits: { id: string; chain?: { id: string; role: string }[] }[] }>(client, 'memory_recall', {
      query: 'orders PostgreSQL decision',
      chains: true,
    });
    const chain = hits.find((h) => h.id === decision.id)?.chain;
    expect(chain?.map((m) => m.role)).toEqual(['rationale', 'decision', 'rejected', 'outcome']);
    expect(chain?.map((m) => m.id)).toEqual([why.id, decision.id, decision.rejected[0], outcome.id]);
    const context = await callOk<{ parts: { chains?: { items: { members: unknown[] }[] } }; markdown: string }>(client, 'memory_context', {
      message: 'why PostgreSQL for orders?',
      chains: true,
      budgetMs: 5000,
    });
    expect(context.parts.chains?.items[0]?.members).toHaveLength(4);
    expect(context.markdown).toContain('rejected: MongoDB for orders');
  });
});
