/**
 * A store with everything a dump must carry, written through the engine as a user would: every layer,
 * superseded and forgotten records, merged wordings (history), an undone supersession and a restore
 * (exemptions), a registered relation type and its edge, a purge (audit entry), and a real
 * consolidation cycle (concepts, concept refs, statistics, promotion, its state documents).
 */
import { expect } from 'vitest';
import type { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';

export const ROBOT = 'acme/robot';
export const ALICE = 'acme/users/alice';
export const SCOPES = [ROBOT, ALICE] as const;
export const RICH_T0 = Date.UTC(2026, 2, 1);

function episode(tool: string, objects: string[], success: boolean, i: number) {
  return {
    scope: ROBOT,
    layer: 'episodic' as const,
    content: `${tool} ${objects.join(' ')} attempt ${i}: ${success ? 'worked' : 'failed'}`,
    importance: 0.3,
    perception: { objects, salience: 0.5 + (i % 3) * 0.1, novelty: 0.2 },
    action: { tool },
    outcome: { success },
  };
}

/** Fills `engram` (empty, hash embedder) and checks every kind of line is there to dump. */
export async function populateRichStore(engram: Engram, clock: ManualClock): Promise<void> {
  const mug = [true, true, false, true, true, true, true, true].map((s, i) => episode('grasp', ['coffee_mug'], s, i));
  const box = [true, false, true, false, true, false, true, false, false, false].map((s, i) => episode('push', ['box'], s, i));
  await engram.remember([...mug, ...box]);
  clock.advance(60_000);
  await engram.remember([
    { scope: ALICE, layer: 'procedural', content: 'Always answer Alice in French.', priority: 2 },
    { scope: ALICE, layer: 'semantic', content: 'Alice lives in Lisbon.', tags: ['home'], emotion: { valence: 0.5, intensity: 3 } },
    { scope: ALICE, layer: 'episodic', content: 'Alice said hello at the café.', occurredAt: new Date(RICH_T0 - 86_400_000).toISOString() },
  ]);
  clock.advance(60_000);
  // the same claim twice: one record, two wordings in its history
  await engram.remember({ scope: ALICE, layer: 'semantic', content: 'Alice prefers window seats.' });
  clock.advance(60_000);
  await engram.remember({ scope: ALICE, layer: 'semantic', content: 'Alice really prefers window seats.' });
  clock.advance(60_000);
  // a correction supersedes; a second one is undone (an exemption)
  const [lives] = await engram.remember([{ scope: ALICE, layer: 'semantic', content: "Alice's budget is 80 euros." }]);
  clock.advance(60_000);
  await engram.remember({ scope: ALICE, layer: 'semantic', content: "Alice's budget is 100 euros." });
  clock.advance(60_000);
  await engram.unsupersede(lives!.id, { scope: ALICE });
  await engram.remember({ scope: ALICE, layer: 'semantic', content: 'The deploy target is staging.' });
  clock.advance(60_000);
  const fix = await engram.remember({ scope: ALICE, layer: 'semantic', content: 'The deploy target moved from staging to production.' });
  expect(fix.action).toBe('superseded');
  const [gone, kept, purged] = await engram.remember([
    { scope: ALICE, layer: 'episodic', content: 'Alice mentioned a dentist appointment.' },
    { scope: ALICE, layer: 'episodic', content: 'Alice booked a table for two.' },
    { scope: ALICE, layer: 'episodic', content: 'A note that will be purged.' },
  ]);
  await engram.forget(gone!.id, { scope: ALICE });
  await engram.forget(kept!.id, { scope: ALICE });
  await engram.restore(kept!.id, { scope: ALICE });
  await engram.purge({ scope: ALICE, ids: [purged!.id], confirm: true }, { actor: 'test' });
  await engram.registerRelation({ scope: ALICE, name: 'keeps warm', proposedBy: 'test' });
  await engram.relate({ scope: ALICE, from: kept!.id, type: 'keeps warm', to: lives!.id, weight: 0.5 });
  clock.advance(3_600_000);
  await engram.processJobs({ maxMs: 30_000 });
  await engram.consolidate({ scope: ROBOT });

  const stats = await engram.stats({ scopes: [...SCOPES] });
  expect(stats.byStatus.superseded ?? 0).toBeGreaterThan(0);
  expect(stats.byStatus.deleted ?? 0).toBeGreaterThan(0);
  expect(stats.concepts).toBeGreaterThan(0);
  for (const layer of ['episodic', 'semantic', 'procedural', 'statistical']) expect(stats.byLayer[layer] ?? 0).toBeGreaterThan(0);
}
