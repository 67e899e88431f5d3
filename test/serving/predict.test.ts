import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

const scope = 'lab/robots/r1';

function graspMug(index: number, success: boolean) {
  return {
    scope,
    layer: 'episodic' as const,
    content: `Tried to grasp the coffee mug on the table (${index}).`,
    occurredAt: Date.UTC(2024, 4, 1, 10, index),
    perception: { objects: ['coffee_mug'], salience: 0.8, novelty: 0.3 },
    context: { goal: 'grasp_coffee_mug' },
    decision: { intent: 'grasp' },
    action: { tool: 'graspObject' },
    outcome: { success },
  };
}

describe('predict (pattern completion)', () => {
  let engram: Engram;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ engram, cleanup } = await tempEngram());
  });
  afterEach(async () => cleanup());

  it('after 8 "grasp mug" episodes with 7 successes, a forming one predicts success ≈ 0.875 citing all 8', async () => {
    const written = await engram.remember(Array.from({ length: 8 }, (_, i) => graspMug(i, i !== 3)));
    // Unrelated experience that shares one word must not dilute the prediction.
    await engram.remember([
      {
        scope,
        content: 'Placed the mug in the sink.',
        perception: { objects: ['mug'] },
        context: { goal: 'place_mug' },
        action: { tool: 'placeObject' },
        outcome: { success: false },
      },
      {
        scope,
        content: 'Opened the fridge door.',
        perception: { objects: ['fridge'] },
        context: { goal: 'open_fridge' },
        action: { tool: 'openDoor' },
        outcome: { success: true },
      },
    ]);
    const result = await engram.predict({
      scopes: [scope],
      episode: { perception: { objects: ['coffee_mug'] }, context: { goal: 'grasp_coffee_mug' } },
    });
    const [top] = result.predictions;
    expect(top).toBeDefined();
    expect(top?.action).toBe('graspObject');
    expect(top?.outcome).toBe('success');
    expect(top?.successProbability).toBeCloseTo(0.875, 3);
    expect(top?.support).toBe(8);
    expect([...(top?.supportingEpisodeIds ?? [])].sort()).toEqual(written.map((w) => w.id).sort());
    expect(top?.confidence).toBeGreaterThan(0.5);
    expect(result.predictions.some((p) => p.action === 'openDoor')).toBe(false);
  });

  it('compressed episodes count with confidence 0.3', async () => {
    const full = await engram.remember(Array.from({ length: 4 }, (_, i) => graspMug(i, true)));
    // Compressed form (the sleep cycle writes these): summary + key fields, data.compressed = true.
    const compressed = await engram.remember(Array.from({ length: 4 }, (_, i) => graspMug(10 + i, false)));
    for (const { id } of compressed) {
      const record = (await engram.store.getMemories([id], [scope]))[0]!;
      await engram.store.transaction((tx) =>
        tx.updateMemory(id, scope, { data: { ...record.data, compressed: true }, updatedAt: Date.now() }),
      );
    }
    const result = await engram.predict({
      scopes: [scope],
      episode: { perception: { objects: ['coffee_mug'] }, context: { goal: 'grasp_coffee_mug' } },
    });
    const top = result.predictions[0]!;
    // Weighted: 4 × 1.0 successes vs 4 × 0.3 failures → 4 / 5.2.
    expect(top.successProbability).toBeCloseTo(4 / 5.2, 3);
    expect(top.supportingEpisodeIds).toHaveLength(8);
    expect(top.confidence).toBeCloseTo(0.65 * (8 / 9), 2);
    expect(full).toHaveLength(4);
  });

  it('follows concept refs when concepts exist (episodes need not share the words)', async () => {
    const episodes = await engram.remember(
      Array.from({ length: 5 }, (_, i) => ({
        scope,
        content: `Attempt number ${i}.`,
        perception: { objects: ['coffee_mug'] },
        action: { tool: 'graspObject' },
        outcome: { success: i < 4 },
      })),
    );
    const [concept] = await engram.remember([{ scope, layer: 'semantic', content: 'coffee mug', name: 'coffee_mug', category: 'object' }]);
    await engram.store.transaction((tx) =>
      tx.addConceptRefs({ scope, conceptId: concept!.id, layer: 'episodic', refIds: episodes.map((e) => e.id) }),
    );
    const result = await engram.predict({ scopes: [scope], episode: { perception: { objects: ['Coffee Mug'] } } });
    expect(result.matched.concepts).toEqual([{ id: concept!.id, name: 'coffee_mug' }]);
    expect(result.predictions[0]).toMatchObject({ action: 'graspObject', successProbability: 0.8, support: 5 });
  });

  it('stays inside the read scopes and validates input', async () => {
    await engram.remember(Array.from({ length: 3 }, (_, i) => graspMug(i, true)));
    const other = await engram.predict({ scopes: ['lab/robots/r2'], episode: { perception: { objects: ['coffee_mug'] } } });
    expect(other.predictions).toEqual([]);
    await expect(engram.predict({ scopes: [], episode: { perception: { objects: ['x'] } } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(engram.predict({ scopes: [scope], episode: {} })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
