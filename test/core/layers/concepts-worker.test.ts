/** Concept extraction runs in the background from a queue in the store: draining, restarts, refs. */
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../../src/index.js';
import { conceptCandidates, extractConcepts } from '../../../src/core/concepts/index.js';
import { tempEngram } from '../../helpers/temp.js';
import type { MemoryRecord } from '../../../src/core/memory.js';

const S = 'acme/users/robot';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function open() {
  const t = await tempEngram();
  cleanups.push(t.cleanup);
  return t;
}

async function conceptNamed(engram: Engram, name: string): Promise<MemoryRecord | undefined> {
  return (await engram.store.findConcepts({ scopes: [S], names: [name] }))[0];
}

describe('concept candidates', () => {
  it('splits goals and tool names, keeps objects and people whole, drops stop words and generic tool words', () => {
    const record = {
      layer: 'episodic',
      entities: ['Alice'],
      data: {
        context: { goal: 'navigate_to_kitchen' },
        action: { tool: 'tool_graspObject' },
        perception: { objects: ['Coffee Mug'], people: ['alice'] },
      },
    } as unknown as MemoryRecord;
    expect(conceptCandidates(record)).toEqual([
      { name: 'navigate', category: 'goal' },
      { name: 'kitchen', category: 'goal' },
      { name: 'grasp', category: 'tool' },
      { name: 'object', category: 'tool' },
      { name: 'coffee_mug', category: 'object' },
      { name: 'alice', category: 'person' },
    ]);
  });
});

describe('concept-extraction worker', () => {
  it('remember queues a job in the same write; draining creates concepts with refs and empties the backlog', async () => {
    const { engram } = await open();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await engram.remember({
        scope: S,
        content: `run ${i}`,
        context: { goal: 'navigate_to_kitchen' },
        action: { tool: 'navigate' },
        outcome: { success: i !== 1 },
      });
      ids.push(id);
    }
    await engram.remember({ scope: S, layer: 'semantic', content: 'the kitchen is on the ground floor' });
    expect((await engram.stats({ scopes: [S] })).jobs).toEqual({
      pending: 3,
      running: 0,
      failed: 0,
      byKind: { 'extract-concepts': { pending: 3, running: 0, failed: 0 } },
    });
    expect(await conceptNamed(engram, 'navigate')).toBeUndefined();

    const report = await engram.processJobs();
    expect(report).toMatchObject({ jobs: 3, examined: 3, conceptsCreated: 2, failed: 0 });
    expect((await engram.stats({ scopes: [S] })).jobs.pending).toBe(0);
    const navigate = (await conceptNamed(engram, 'navigate'))!;
    expect(navigate).toMatchObject({
      layer: 'semantic',
      data: { concept: true, name: 'navigate', category: 'goal' },
      provenance: { kind: 'episodic' },
    });
    const refs = await engram.store.getConceptRefs({ scopes: [S], conceptIds: [navigate.id] });
    expect(refs.map((r) => [r.layer, r.refId])).toEqual(ids.map((id) => ['episodic', id]));
    // idempotent: nothing left, nothing duplicated
    expect((await engram.processJobs()).jobs).toBe(0);
    expect(await engram.store.findConcepts({ scopes: [S], names: ['navigate', 'kitchen'] })).toHaveLength(2);
  });

  it('records purged after a drain read them name no concept: nothing is derived from text that is gone', async () => {
    const { engram } = await open();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await engram.remember({ scope: S, content: `pump station check ${i}`, perception: { objects: ['zqlvalve'] } })).id);
    }
    await engram.remember({ scope: S, content: 'kept note', perception: { objects: ['kettle'] } });
    // the drain read the episodes; a purge (another process) removes them before its write
    const read = await engram.store.getMemories(ids, [S]);
    expect((await engram.purge({ scope: S, ids, confirm: true })).purged).toBe(3);
    const report = await extractConcepts({ store: engram.store, embedder: engram.embedder, clock: engram.clock }, read);
    expect(report).toMatchObject({ conceptsCreated: 0, refsAdded: 0 });
    expect(await conceptNamed(engram, 'zqlvalve')).toBeUndefined();
    // what is still there gets its concepts as before
    expect((await engram.processJobs()).failed).toBe(0);
    expect(await conceptNamed(engram, 'kettle')).toBeDefined();
    expect(await conceptNamed(engram, 'zqlvalve')).toBeUndefined();
  });

  it('processJobs refuses a leaseMs or other option no store can take alike, and the jobs stay queued', async () => {
    const { engram } = await open();
    await engram.remember({ scope: S, content: 'saw a mug', perception: { objects: ['coffee_mug'] } });
    const cases: [unknown, RegExp][] = [
      [{ leaseMs: Infinity }, /processJobs options: leaseMs must be a number, not Infinity/],
      [{ leaseMs: Number.NaN }, /leaseMs must be a number, not NaN/],
      [{ leaseMs: 2.5 }, /leaseMs must be a whole number, not the number 2\.5/],
      [{ leaseMs: 0 }, /leaseMs is too small \(minimum 1\)/],
      [{ leaseMs: 86_400_001 }, /leaseMs is too large \(maximum 86400000\)/],
      [{ leaseMs: 'abc' }, /leaseMs must be a number, not a string/],
      [{ limit: -1 }, /limit is too small \(minimum 0\)/],
      [{ maxMs: 'soon' }, /maxMs must be a number, not a string/],
      [{ batch: 0 }, /batch is too small \(minimum 1\)/],
      [{ scopes: S }, /scopes must be "all" or a list, not a string/],
      [{ owner: '' }, /owner must not be empty/],
    ];
    for (const [options, message] of cases) {
      await expect(engram.processJobs(options as never)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(message),
      });
    }
    // the store refuses such a lease itself too, on either backend
    await expect(
      engram.store.claimJobs({ kinds: ['extract-concepts'], scopes: 'all', limit: 1, owner: 'w', leaseMs: Infinity, now: Date.now() }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/leaseMs of whole milliseconds from 1 to 86400000/) });
    expect((await engram.stats({ scopes: [S] })).jobs).toMatchObject({ pending: 1, running: 0 });
    expect((await engram.processJobs({ leaseMs: 86_400_000 })).jobs).toBe(1);
  });

  it('the queue survives a restart and a crashed worker’s lease expires', async () => {
    const { engram, path } = await open();
    await engram.remember({ scope: S, content: 'saw a mug', perception: { objects: ['coffee_mug'] } });
    const [claimed] = await engram.store.claimJobs({
      kinds: ['extract-concepts'],
      scopes: 'all',
      limit: 1,
      owner: 'crashed',
      leaseMs: 50,
      now: Date.now(),
    });
    expect(claimed).toBeDefined();
    await engram.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const reopened = await Engram.open({ path, embedder: 'hash' });
    cleanups.push(() => reopened.close());
    expect((await reopened.stats({ scopes: [S] })).jobs.running).toBe(1);
    expect((await reopened.processJobs()).jobs).toBe(1);
    expect(await reopened.store.findConcepts({ scopes: [S], names: ['coffee_mug'] })).toHaveLength(1);
    expect((await reopened.stats({ scopes: [S] })).jobs).toMatchObject({ pending: 0, running: 0 });
  });

  it('in background mode the worker drains on its own while writes go on', async () => {
    const { engram, path } = await open();
    await engram.close();
    const live = await Engram.open({ path, embedder: 'hash', background: { idleMs: 20 } });
    cleanups.push(() => live.close());
    for (let i = 0; i < 40; i++)
      await live.remember({ scope: S, content: `step ${i}`, context: { goal: i % 2 === 0 ? 'open_door' : 'close_door' } });
    const deadline = Date.now() + 10_000;
    while (
      (await live.stats({ scopes: [S] })).jobs.pending + (await live.stats({ scopes: [S] })).jobs.running > 0 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await live.stats({ scopes: [S] })).jobs).toMatchObject({ pending: 0, running: 0, failed: 0 });
    const door = (await live.store.findConcepts({ scopes: [S], names: ['door'] }))[0]!;
    expect(await live.store.getConceptRefs({ scopes: [S], conceptIds: [door.id] })).toHaveLength(40);
  });

  it('refs of a concept are capped at 200 per layer, oldest evicted first', async () => {
    const { engram } = await open();
    const inputs = Array.from({ length: 205 }, (_, i) => ({
      scope: S,
      content: `visit ${i}`,
      occurredAt: 1_700_000_000_000 + i * 1000,
      context: { goal: 'visit_garden' },
    }));
    const results = await engram.remember(inputs);
    await engram.processJobs();
    const garden = (await conceptNamed(engram, 'garden'))!;
    const refs = await engram.store.getConceptRefs({ scopes: [S], conceptIds: [garden.id], layers: ['episodic'] });
    expect(refs.map((r) => r.refId)).toEqual(results.slice(5).map((r) => r.id));
  });

  it('concepts stay in their scope', async () => {
    const { engram } = await open();
    await engram.remember({ scope: S, content: 'a', context: { goal: 'charge_battery' } });
    await engram.remember({ scope: 'acme/users/other', content: 'b', context: { goal: 'charge_battery' } });
    await engram.processJobs();
    const mine = await engram.store.findConcepts({ scopes: [S], names: ['battery'] });
    const theirs = await engram.store.findConcepts({ scopes: ['acme/users/other'], names: ['battery'] });
    expect(mine).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(mine[0]!.id).not.toBe(theirs[0]!.id);
  });
});
