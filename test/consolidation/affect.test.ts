/**
 * The affect phase on a real SQLite store with an injected clock: feelings and moods are dated by
 * when things happened, and a caution lifts once the outcomes recover.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cautionVerdicts } from '../../src/consolidation/affect.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import type { Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/users/dana';
const DAY = 86_400_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function open(now: number): Promise<{ engram: Engram; clock: ManualClock }> {
  const clock = new ManualClock(now);
  const t = await tempEngram({ clock });
  cleanups.push(t.cleanup);
  return { engram: t.engram, clock };
}

async function semantic(engram: Engram, category: string): Promise<MemoryRecord[]> {
  return (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10_000 })).filter(
    (r) => r.data.category === category,
  );
}

describe('affect dates feelings by when they happened', () => {
  it('puts notes dated in January in a January mood week, not the week they were stored, and ages them from then', async () => {
    const { engram } = await open(Date.parse('2024-06-05T12:00:00Z'));
    const notes = [
      'I was absolutely thrilled and so grateful when I got the job offer!',
      'I felt wonderful and proud finishing my first marathon, what a joy!',
      'Dana was delighted and overjoyed to see her family after so long.',
    ];
    const written = await engram.remember(
      notes.map((content, i) => ({ scope: SCOPE, layer: 'semantic' as const, content, validFrom: `2024-01-1${i}T10:00:00Z` })),
    );
    await engram.consolidate({ scope: SCOPE, phases: ['affect'] });
    const moods = await semantic(engram, 'mood');
    expect(moods.map((m) => m.data.name)).toEqual(['mood 2024-W02']);
    const feelings = await engram.store.getMemories(
      written.map((w) => w.id),
      [SCOPE],
    );
    for (const f of feelings) {
      const felt = f.emotion?.intensity ?? 0;
      const appraised = f.data.affect as { intensity: number; flashbulb: boolean } | undefined;
      expect(appraised, f.content).toBeDefined();
      // five months on, a feeling below flashbulb intensity has faded
      if (appraised?.flashbulb === false) expect(appraised.intensity).toBeLessThan(felt);
    }
  });
});

describe('cautions lift', () => {
  it('raises a caution against a smoothed base rate when the rest of the scope never failed, and lifts it after a run of successes', async () => {
    const t0 = Date.UTC(2026, 2, 2);
    const { engram, clock } = await open(t0);
    let n = 0;
    const add = (content: string, success: boolean) =>
      engram.remember({ scope: SCOPE, content, occurredAt: t0 - 60 * DAY + n++ * (DAY / 2), outcome: { success } });
    for (let i = 0; i < 7; i += 1) await add(`Submitting the build to Apple App Store review failed (attempt ${i})`, false);
    for (let i = 0; i < 12; i += 1) await add(`Deployed the web frontend to Vercel (run ${i})`, true);
    await engram.consolidate({ scope: SCOPE });
    const active = async () => (await semantic(engram, 'caution')).filter((r) => r.status === 'active' && r.validTo === null);
    const raised = await active();
    expect(raised.map((r) => r.content)).toEqual([expect.stringMatching(/^Caution on apple_app_store: 7 of 7 outcomes were negative/)]);
    const caution = raised[0]?.data.properties?.caution as { baseRate: number; p: number };
    expect(caution.baseRate).toBeCloseTo(1 / 14, 6);
    expect(caution.p).toBeGreaterThan(0);

    clock.advance(DAY);
    for (let i = 0; i < 40; i += 1) await add(`Submitting the build to Apple App Store review passed (run ${i})`, true);
    await engram.consolidate({ scope: SCOPE });
    expect(await active()).toEqual([]);
    const [lifted] = await engram.store.getMemories([raised[0]?.id as string], [SCOPE]);
    expect(lifted?.validTo).toBe(clock.now());
    const concepts = (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10_000 })).filter((r) =>
      r.tags.includes('caution'),
    );
    expect(concepts.filter((r) => r.data.concept === true)).toEqual([]);
  });

  it('keeps a caution while failures are recent and lifts it after five good outcomes in a row', () => {
    const scope = new Map<string, boolean>();
    const outcomes: { id: string; at: number; negative: boolean }[] = [];
    const add = (negative: boolean) => {
      const id = `m${String(outcomes.length).padStart(3, '0')}`;
      outcomes.push({ id, at: outcomes.length * DAY, negative });
      scope.set(id, negative);
    };
    for (let i = 0; i < 20; i += 1) scope.set(`other${i}`, false);
    for (let i = 0; i < 7; i += 1) add(true);
    for (let i = 0; i < 4; i += 1) add(false);
    const concept = () => [{ conceptId: 'c1', name: 'app_store', outcomes: [...outcomes] }];
    expect(cautionVerdicts(concept(), scope).raised.map((v) => v.name)).toEqual(['app_store']);
    add(false);
    expect(cautionVerdicts(concept(), scope)).toEqual({ raised: [], cleared: ['c1'] });
  });
});
