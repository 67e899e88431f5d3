/** Each layer's fields are validated by zod and kept on the record; episodes are searchable through their rendering. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import { isEngramError } from '../../../src/core/errors.js';
import { renderEpisodeCycle } from '../../../src/core/layers/episode-text.js';
import { statisticalMetricSchema, verbalForm } from '../../../src/core/layers/statistical.js';
import { tempEngram } from '../../helpers/temp.js';

const S = 'acme/users/robot';
let engram: Engram;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ engram, cleanup } = await tempEngram());
});
afterEach(async () => cleanup());

async function rejects(input: Record<string, unknown>, field: string): Promise<string> {
  const error = await engram.remember({ scope: S, content: 'x', ...input } as never).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isEngramError(error), JSON.stringify(input)).toBe(true);
  expect((error as { code: string }).code).toBe('INVALID_INPUT');
  expect((error as Error).message).toContain(field);
  return (error as Error).message;
}

describe('episodic layer: structured cycles', () => {
  it('stores every part of the cycle as top-level fields and renders them for search', async () => {
    const cycle = {
      perception: { objects: ['coffee_mug'], people: ['alice'], salience: 0.8, novelty: 0.3 },
      context: { goal: 'grasp_coffee_mug', location: 'kitchen', sessionId: 's1', runId: 'r1' },
      decision: { intent: 'grasp', confidence: 0.9, rationale: 'the mug is within reach' },
      action: { tool: 'graspObject', args: { force: 2 } },
      outcome: { success: true, reward: 1, detail: 'held firmly' },
    };
    const { id } = await engram.remember({
      scope: S,
      layer: 'episodic',
      content: 'tried the mug',
      occurredAt: '2026-01-05T10:00:00Z',
      ...cycle,
    });
    const view = await engram.get(id, { scopes: [S] });
    expect(view).toMatchObject(cycle);
    expect(view.occurredAt).toBe('2026-01-05T10:00:00.000Z');
    const text = renderEpisodeCycle(cycle);
    expect(text).toBe(
      'perceived: coffee mug, alice. goal: grasp coffee mug. location: kitchen. intent: grasp. because the mug is within reach action: grasp object. outcome: success, reward 1. held firmly',
    );
    // same content without a cycle: only the rendering can tell them apart (semantic channel)
    const { id: plain } = await engram.remember({
      scope: S,
      layer: 'episodic',
      content: 'tried the mug',
      occurredAt: '2026-01-05T10:00:00Z',
    });
    const { hits } = await engram.recall('grasp object', { scopes: [S], weights: { semantic: 1, lexical: 0 } });
    expect(hits.map((h) => h.id)).toEqual([id, plain]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('rejects malformed cycles and cycle fields on other layers', async () => {
    await rejects({ perception: { salience: 1.5 } }, 'perception.salience');
    await rejects({ outcome: { success: 'yes' } }, 'outcome.success');
    await rejects({ action: { tool: 'x', extra: 1 } }, 'action');
    await rejects({ layer: 'semantic', context: { goal: 'g' } }, 'context belongs to the episodic layer');
    await rejects({ layer: 'procedural', outcome: { success: true } }, 'outcome');
  });
});

describe('semantic layer', () => {
  it('keeps name, definition, category, properties, confidence and every provenance kind', async () => {
    for (const kind of ['episodic', 'statistical', 'document', 'user_stated', 'reflection', 'hybrid'] as const) {
      const { id } = await engram.remember({
        scope: S,
        layer: 'semantic',
        content: `a mug is a container (${kind})`,
        name: `mug ${kind}`,
        definition: 'a cup with a handle',
        category: 'object',
        properties: { handle: true, volumeMl: 350 },
        confidence: 0.8,
        provenance: { kind, sources: [{ uri: 'https://example.com/mugs' }] },
      });
      const view = await engram.get(id, { scopes: [S] });
      expect(view).toMatchObject({
        name: `mug ${kind}`,
        definition: 'a cup with a handle',
        category: 'object',
        properties: { handle: true, volumeMl: 350 },
        confidence: 0.8,
      });
      expect(view.provenance.kind).toBe(kind);
    }
    await rejects({ layer: 'semantic', provenance: { kind: 'rumour' } }, 'provenance.kind');
    await rejects({ layer: 'semantic', confidence: 2 }, 'confidence');
    await rejects({ layer: 'semantic', priority: 3 }, 'priority belongs to the procedural layer');
  });
});

describe('procedural layer', () => {
  it('keeps an integer priority and rejects it elsewhere', async () => {
    const { id } = await engram.remember({
      scope: 'acme/shared',
      layer: 'procedural',
      content: 'Never suggest properties outside the budget.',
      priority: 10,
    });
    expect((await engram.get(id, { scopes: ['acme/shared'] })).priority).toBe(10);
    await rejects({ layer: 'procedural', priority: 1.5 }, 'priority');
    await rejects({ layer: 'episodic', priority: 1 }, 'priority belongs to the procedural layer');
  });
});

describe('statistical layer', () => {
  it('verbal forms', () => {
    expect(verbalForm({ concept: 'mug', name: 'success rate', n: 8, k: 7 })).toBe('mug success rate: 0.875 (7/8)');
    expect(verbalForm({ concept: 'mug', name: 'salience', n: 8, mean: 0.78, std: 0.12 })).toBe('mug salience: mean=0.78, std=0.12 (n=8)');
    expect(verbalForm({ concept: 'tool_navigate', name: 'success rate', n: 12, slope: -0.05, r2: 0.73, per: 'day' })).toBe(
      'tool_navigate success rate: declining, slope=-0.05/day, R²=0.73 (n=12)',
    );
    expect(verbalForm({ name: 'latency', n: 20, correlation: 0.81, with: 'load' })).toBe('latency: r=0.81 with load (n=20)');
  });

  it('validates the numbers', () => {
    const ok = (m: unknown) => statisticalMetricSchema.safeParse(m).success;
    expect(ok({ name: 'success rate', n: 8, k: 7, rate: 0.875 })).toBe(true);
    expect(ok({ name: 'success rate', n: 8, k: 9 })).toBe(false);
    expect(ok({ name: 'success rate', n: 8, k: 7, rate: 0.5 })).toBe(false);
    expect(ok({ name: 'salience', n: 8, mean: 0.7, std: -1 })).toBe(false);
    expect(ok({ name: 'trend', n: 8, r2: 0.5 })).toBe(false);
    expect(ok({ name: 'corr', n: 8, correlation: 1.2 })).toBe(false);
    expect(ok({ name: 'nothing', n: 8 })).toBe(false);
    expect(ok({ name: 'x', n: 2.5, k: 1 })).toBe(false);
  });

  it('a statistical memory needs a metric, which is stored with the record', async () => {
    const metric = { concept: 'mug', name: 'success rate', n: 8, k: 7 };
    const { id } = await engram.remember({ scope: S, layer: 'statistical', content: verbalForm(metric), metric });
    expect((await engram.get(id, { scopes: [S] })).metric).toEqual(metric);
    await rejects({ layer: 'statistical' }, 'metric is required');
    await rejects({ layer: 'statistical', metric: { name: 'x', n: 1, k: 2 } }, 'metric.k');
    await rejects({ layer: 'semantic', metric }, 'metric belongs to the statistical layer');
  });
});
