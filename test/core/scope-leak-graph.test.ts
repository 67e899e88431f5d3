/**
 * Scope isolation of the knowledge paths: the same structured episodes, rules and facts
 * in several scopes, each consolidated (concepts, statistics, promoted knowledge, RELATED_TO edges,
 * reflections), then every graph-walking read from one scope — activate, edges, context, predict,
 * Markdown export, stats — must return only records of the scopes it named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPES = ['acme/users/alice', 'acme/users/bob', 'globex/users/alice'];

/** Every 26-character id (ulid) mentioned anywhere in a JSON-serialisable value. */
function idsIn(value: unknown): string[] {
  return JSON.stringify(value).match(/\b[0-9A-HJKMNP-TV-Z]{26}\b/g) ?? [];
}

describe('scope isolation of graph, context, prediction and export', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  const scopeOfId = new Map<string, string>();

  beforeAll(async () => {
    ctx = await tempEngram();
    engram = ctx.engram;
    for (const scope of SCOPES) {
      const inputs = [
        ...Array.from({ length: 8 }, (_, i) => ({
          scope,
          layer: 'episodic' as const,
          content: `Grasp attempt ${i} on the coffee mug in the kitchen ${i < 7 ? 'succeeded' : 'failed'}.`,
          importance: 0.8,
          perception: { objects: ['coffee_mug'], people: ['Alice'] },
          context: { goal: 'grasp_coffee_mug', location: 'kitchen', sessionId: 's1' },
          action: { tool: 'graspObject' },
          outcome: { success: i < 7 },
        })),
        { scope, layer: 'procedural' as const, content: 'Never grasp a hot mug with the soft gripper.', priority: 9 },
        { scope, layer: 'semantic' as const, content: 'Alice prefers her coffee black.' },
      ];
      for (const result of await engram.remember(inputs)) scopeOfId.set(result.id, scope);
      await engram.processJobs();
      await engram.consolidate({ scope, phases: ['extract', 'ground', 'promote', 'reflect'] });
    }
    // every record (concepts, statistics, promoted concepts, reflections) by its scope
    for (const scope of SCOPES) {
      for (const record of await engram.store.listMemories({ scopes: [scope], limit: 10_000 })) scopeOfId.set(record.id, scope);
    }
  }, 240_000);

  afterAll(async () => {
    await ctx?.cleanup();
  });

  function expectOnly(value: unknown, allowed: readonly string[]): void {
    const ids = idsIn(value).filter((id) => scopeOfId.has(id));
    expect(ids.length).toBeGreaterThan(0);
    const leaked = ids.filter((id) => !allowed.includes(scopeOfId.get(id) as string));
    expect(leaked).toEqual([]);
  }

  it('the cycle built knowledge in every scope (so the probes have something to leak)', async () => {
    for (const scope of SCOPES) {
      const records = await engram.store.listMemories({ scopes: [scope], layers: ['semantic', 'statistical'], limit: 10_000 });
      expect(records.filter((r) => r.data.concept === true).length).toBeGreaterThan(0);
      expect(records.filter((r) => r.layer === 'statistical').length).toBeGreaterThan(0);
    }
  });

  it('activate, edges, context, predict, export and stats stay inside the scopes named', async () => {
    for (const scope of SCOPES) {
      const own = [...scopeOfId].filter(([, s]) => s === scope).map(([id]) => id);
      for (const id of own.slice(0, 12)) {
        expectOnly({ id, result: await engram.activate(id, { scopes: [scope], hops: 4 }) }, [scope]);
        const edges = await engram.edges(id, { scopes: [scope] });
        expect(idsIn(edges).every((x) => !scopeOfId.has(x) || scopeOfId.get(x) === scope)).toBe(true);
      }
      // an id of another scope is invisible, not reachable
      const foreign = [...scopeOfId].find(([, s]) => s !== scope)?.[0] as string;
      await expect(engram.activate(foreign, { scopes: [scope] })).rejects.toMatchObject({ code: 'NOT_FOUND' });

      const context = await engram.context({
        scopes: [scope],
        message: 'Can you bring Alice her coffee mug from the kitchen?',
        percept: { objects: ['coffee_mug'], people: ['Alice'], goal: 'grasp_coffee_mug' },
        budgetMs: 5_000,
      });
      expectOnly(context, [scope]);
      const prediction = await engram.predict({
        scopes: [scope],
        episode: { perception: { objects: ['coffee_mug'] }, context: { goal: 'grasp_coffee_mug' } },
      });
      expect(prediction.predictions[0]?.supportingEpisodeIds).toHaveLength(8);
      expectOnly(prediction, [scope]);
      expectOnly(await engram.exportMarkdown({ scope }), [scope]);
      const stats = await engram.stats({ scopes: [scope] });
      expect(stats.total).toBe(own.length);
    }
  }, 240_000);

  it('a read naming two scopes sees both and nothing else', async () => {
    const pair = [SCOPES[0], SCOPES[1]] as string[];
    const context = await engram.context({ scopes: pair, message: 'coffee mug', percept: { objects: ['coffee_mug'] }, budgetMs: 5_000 });
    expectOnly(context, pair);
    const prediction = await engram.predict({
      scopes: pair,
      episode: { perception: { objects: ['coffee_mug'] }, context: { goal: 'grasp_coffee_mug' } },
    });
    expectOnly(prediction, pair);
  }, 120_000);
});
