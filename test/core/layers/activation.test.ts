/** Cross-layer spreading activation on a hand-built graph: exact order, paths, time filters, scopes. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { isEngramError } from '../../../src/core/errors.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'acme/users/robot';
const T = '2024-01-01';
let engram: Engram;
let cleanup: () => Promise<void>;
let ids: Record<string, string>;

beforeEach(async () => {
  ({ engram, cleanup } = await tempEngram());
  const episode = async (content: string, success: boolean) =>
    (await engram.remember({ scope: S, content, occurredAt: T, action: { tool: 'tool_navigate' }, outcome: { success } })).id;
  const concept = async (name: string) =>
    (await engram.remember({ scope: S, layer: 'semantic', content: name, name, category: 'goal', validFrom: T })).id;
  ids = {};
  ids.failed = await episode('navigation to the kitchen failed', false);
  ids.e2 = await episode('navigated to the hall', true);
  ids.e3 = await episode('navigation timed out', false);
  ids.stat = (
    await engram.remember({
      scope: S,
      layer: 'statistical',
      content: 'navigate success rate: 0.333 (1/3)',
      validFrom: T,
      metric: { concept: 'navigate', name: 'success rate', n: 3, k: 1 },
    })
  ).id;
  ids.navigate = await concept('navigate');
  ids.kitchen = await concept('kitchen');
  ids.e4 = await episode('cooked in the kitchen', true);
  ids.rule = (await engram.remember({ scope: S, layer: 'procedural', content: 'Check the map before navigating.', validFrom: T })).id;
  await engram.store.transaction(async (tx) => {
    await tx.addConceptRefs({ scope: S, conceptId: ids.navigate!, layer: 'episodic', refIds: [ids.failed!, ids.e2!, ids.e3!] });
    await tx.addConceptRefs({ scope: S, conceptId: ids.navigate!, layer: 'statistical', refIds: [ids.stat!] });
    await tx.addConceptRefs({ scope: S, conceptId: ids.kitchen!, layer: 'episodic', refIds: [ids.e4!] });
  });
  await engram.relate({ scope: S, from: ids.navigate!, type: 'RELATED_TO', to: ids.kitchen!, weight: 0.6, validFrom: '2025-01-01' });
  await engram.relate({ scope: S, from: ids.rule!, type: 'DERIVED_FROM', to: ids.navigate!, validFrom: T });
});
afterEach(async () => cleanup());

const name = (id: string): string => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? id;

describe('spreading activation', () => {
  it('ranks what it reaches with per-hop decay and fan-out normalisation, per layer, with paths', async () => {
    const result = await engram.activate(ids.failed!, { scopes: [S] });
    // hop 1: navigate gets 1 × 0.5; hop 2: navigate has 6 links (4 refs, RELATED_TO 0.6, DERIVED_FROM walked backwards 0.5)
    // so each gets 0.5 × 0.5 × w / √6; hop 3: kitchen (2 links) passes 0.0612 × 0.5 / √2 to e4
    const s6 = Math.sqrt(6);
    const expected: Array<[string, number, number]> = [
      ['navigate', 0.5, 1],
      ['e2', 0.25 / s6, 2],
      ['e3', 0.25 / s6, 2],
      ['stat', 0.25 / s6, 2],
      ['kitchen', (0.25 * 0.6) / s6, 2],
      ['rule', (0.25 * 0.5) / s6, 2],
      ['e4', (((0.25 * 0.6) / s6) * 0.5) / Math.SQRT2, 3],
    ];
    expect(result.seeds).toEqual([ids.failed]);
    expect(result.ranked.map((r) => name(r.id))).toEqual(expected.map(([n]) => n));
    result.ranked.forEach((r, i) => {
      expect(r.activation).toBeCloseTo(expected[i]![1], 5);
      expect(r.hops).toBe(expected[i]![2]);
    });
    expect(result.layers.semantic.map((r) => name(r.id))).toEqual(['navigate', 'kitchen']);
    expect(result.layers.statistical.map((r) => name(r.id))).toEqual(['stat']);
    expect(result.layers.procedural.map((r) => name(r.id))).toEqual(['rule']);
    expect(result.layers.episodic.map((r) => name(r.id))).toEqual(['e2', 'e3', 'e4']);
    const e4 = result.ranked.find((r) => r.id === ids.e4)!;
    expect(e4.path.map((s) => [name(s.from), s.via, s.type, s.direction, name(s.to)])).toEqual([
      ['failed', 'ref', 'REF_EPISODIC', 'ref→concept', 'navigate'],
      ['navigate', 'edge', 'RELATED_TO', 'both', 'kitchen'],
      ['kitchen', 'ref', 'REF_EPISODIC', 'concept→ref', 'e4'],
    ]);
    const rule = result.ranked.find((r) => r.id === ids.rule)!;
    expect(rule.path.at(-1)).toMatchObject({ type: 'DERIVED_FROM', direction: 'in', weight: 0.5 });
  });

  it('respects the hop limit and the threshold', async () => {
    expect((await engram.activate(ids.failed!, { scopes: [S], hops: 1 })).ranked.map((r) => name(r.id))).toEqual(['navigate']);
    const strict = await engram.activate(ids.failed!, { scopes: [S], threshold: 0.06 });
    expect(strict.ranked.map((r) => name(r.id))).toEqual(['navigate', 'e2', 'e3', 'stat', 'kitchen']);
  });

  it('time filters apply to edges: before RELATED_TO was valid, the kitchen is not reached', async () => {
    const before = await engram.activate(ids.failed!, { scopes: [S], asOf: '2024-06-01' });
    expect(before.ranked.map((r) => name(r.id))).toEqual(['navigate', 'e2', 'e3', 'stat', 'rule']);
    expect(before.ranked[1]!.activation).toBeCloseTo(0.25 / Math.sqrt(5), 5);
  });

  it('never leaves the read’s scopes', async () => {
    const error = await engram.activate(ids.failed!, { scopes: ['acme/users/someone-else'] }).catch((e: unknown) => e);
    expect(isEngramError(error) && error.code).toBe('NOT_FOUND');
    const other = (await engram.remember({ scope: 'acme/users/someone-else', content: 'navigation', context: { goal: 'navigate' } })).id;
    await engram.processJobs();
    const both = await engram.activate(ids.failed!, { scopes: [S, 'acme/users/someone-else'] });
    expect(both.ranked.some((r) => r.id === other || r.memory.scope !== S)).toBe(false);
  });

  it('recall uses activation as its graph channel', async () => {
    const { hits } = await engram.recall('navigation to the kitchen failed', { scopes: [S], k: 10 });
    const navigate = hits.find((h) => h.id === ids.navigate);
    expect(navigate?.why.channels.graph).toBeDefined();
    expect(navigate?.why.channels.graph?.rank).toBe(1);
  });
});

describe('extracted concepts in recall', () => {
  it('are not returned as hits but lead recall to the episodes that share them', async () => {
    // episodes written a moment apart are also each other's conversational neighbours; without that
    // share, what reaches the target is the concept the episodes have in common
    const t = await tempEngram({ recall: { neighbourGapMinutes: 0 } });
    try {
      const S2 = 'acme/users/kitchen-robot';
      const target = (
        await t.engram.remember({ scope: S2, content: 'Opened the pantry and fetched flour', context: { goal: 'bake_bread' } })
      ).id;
      await t.engram.remember({ scope: S2, content: 'Preheated the oven for the loaf', context: { goal: 'bake_bread' } });
      await t.engram.remember({ scope: S2, content: 'Watered the plants on the balcony', context: { goal: 'water_plants' } });
      await t.engram.processJobs();
      const { hits } = await t.engram.recall('preheated oven', { scopes: [S2], k: 5 });
      expect(hits.some((h) => h.concept === true)).toBe(false);
      const fetched = hits.find((h) => h.id === target);
      expect(fetched?.why.channels.graph).toBeDefined();
    } finally {
      await t.cleanup();
    }
  });
});
