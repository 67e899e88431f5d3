/**
 * The exploring reads over each backend: consolidation runs listed newest first by keyset and read by
 * id (with what each phase changed), the overview (counts, growth per day, what decays next, jobs,
 * last run), the knowledge graph and a focus neighbourhood, a claim's versions on both time axes,
 * provenance, the waves of spreading activation, and browsing at an instant.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';

const DAY = 86_400_000;
const T0 = Date.parse('2024-03-01T09:00:00Z');

export interface ExploreContractOptions {
  name: string;
  open(clock: ManualClock): Promise<{ engram: Engram; cleanup: () => Promise<void> }>;
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isEngramError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

/** Episodes about grasping mugs: extraction makes concepts of them, grounding statistics and relations. */
function graspEpisodes(scope: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    scope,
    layer: 'episodic' as const,
    content: `Grasp attempt ${i} on the coffee mug in the kitchen ${i < n - 1 ? 'succeeded' : 'failed'}.`,
    importance: 0.8,
    perception: { objects: ['coffee_mug'], people: ['Alice'] },
    context: { goal: 'grasp_coffee_mug', location: 'kitchen', sessionId: 's1' },
    action: { tool: 'graspObject' },
    outcome: { success: i < n - 1 },
  }));
}

export function runExploreContract(options: ExploreContractOptions): void {
  describe(`Exploring reads over ${options.name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      while (cleanups.length > 0) await cleanups.pop()?.();
    });
    const open = async () => {
      const clock = new ManualClock(T0);
      const opened = await options.open(clock);
      cleanups.push(opened.cleanup);
      return { engram: opened.engram, clock };
    };

    it('lists consolidation runs newest first across scopes by keyset, reads one by id, and reports what decay changed', async () => {
      const { engram, clock } = await open();
      const [low, kept] = await engram.remember([
        { scope: 't/a', content: 'a low importance note', importance: 0.3 },
        { scope: 't/a', content: 'a pinned note', importance: 0.1, pinned: true },
      ]);
      await engram.remember({ scope: 't/b', content: 'a note in b' });
      const reports = [];
      clock.advance(DAY);
      reports.push(await engram.consolidate({ scope: 't/a', phases: ['decay'] }));
      clock.advance(DAY);
      reports.push(await engram.consolidate({ scope: 't/b', phases: ['decay'] }));
      clock.set(T0 + 8 * DAY);
      reports.push(await engram.consolidate({ scope: 't/a', phases: ['decay'] }));
      clock.set(T0 + 40 * DAY);
      reports.push(await engram.consolidate({ scope: 't/a', phases: ['decay'] }));
      // what each run changed is in its report
      expect(reports[2]!.phases[0]).toMatchObject({ name: 'decay', decayed: [low!.id] });
      expect(reports[2]!.phases[0]!.decayed).not.toContain(kept!.id);
      expect(reports[3]!.phases[0]).toMatchObject({ name: 'decay', expired: [low!.id] });
      expect(reports[0]!.phases[0]!.decayed).toBeUndefined();

      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page++) {
        const result = await engram.consolidationRuns({ scopes: ['t/a', 't/b'], limit: 3, ...(cursor !== undefined ? { cursor } : {}) });
        seen.push(...result.items.map((r) => `${r.scope}:${r.id}`));
        if (result.nextCursor === null) break;
        cursor = result.nextCursor;
      }
      expect(seen).toEqual([...reports].reverse().map((r) => `${r.scope}:${r.id}`));
      const onlyB = await engram.consolidationRuns({ scopes: 't/b' });
      expect(onlyB).toEqual({ items: [reports[1]], nextCursor: null });
      expect(await engram.consolidationRun(reports[2]!.id, { scopes: ['t/b', 't/a'] })).toEqual(reports[2]);
      expect((await rejection(engram.consolidationRun(reports[2]!.id, { scopes: ['t/b'] }))).code).toBe('NOT_FOUND');
      expect((await rejection(engram.consolidationRun('last', { scopes: ['t/a'] }))).code).toBe('INVALID_INPUT');
      const bad = await rejection(engram.consolidationRuns({ scopes: ['t/a'], cursor: `${cursor ?? 'x'}x` }));
      expect(bad.code).toBe('INVALID_INPUT');
      expect(bad.message).toMatch(/cursor/);
      expect((await rejection(engram.consolidationRuns({ scopes: [] as string[] }))).code).toBe('INVALID_INPUT');
      expect((await engram.consolidationRuns({ scopes: ['t/none'] })).items).toEqual([]);
    });

    it('overview: totals, growth per recorded day, what decays next (policy order), pending jobs and the last run', async () => {
      const { engram, clock } = await open();
      const [old] = await engram.remember([
        { scope: 't/a', content: 'the oldest low note', importance: 0.2 },
        { scope: 't/a', content: 'pinned forever', importance: 0.1, pinned: true },
      ]);
      clock.advance(DAY);
      const [important, semantic] = await engram.remember([
        { scope: 't/a', content: 'an important note', importance: 0.9 },
        { scope: 't/a', layer: 'semantic', content: 'The office is in Lyon.', importance: 0.4 },
      ]);
      await engram.remember({ scope: 't/b', content: 'another scope' });
      clock.advance(3 * DAY);
      const gone = await engram.remember({ scope: 't/a', content: 'forgotten note', importance: 0.2 });
      await engram.forget(gone.id, { scope: 't/a' });

      const view = await engram.overview({ scopes: ['t/a'] });
      expect(view.totals).toEqual({
        total: 5,
        byLayer: { episodic: 4, semantic: 1, procedural: 0, statistical: 0 },
        byStatus: { active: 4, superseded: 0, decayed: 0, expired: 0, deleted: 1 },
      });
      expect(view.growth).toEqual([
        { day: '2024-03-01', byLayer: { episodic: 2, semantic: 0, procedural: 0, statistical: 0 }, total: 2 },
        { day: '2024-03-02', byLayer: { episodic: 1, semantic: 1, procedural: 0, statistical: 0 }, total: 2 },
        { day: '2024-03-05', byLayer: { episodic: 1, semantic: 0, procedural: 0, statistical: 0 }, total: 1 },
      ]);
      // low importance decays after 7 idle days, 0.7 and above after 30; pinned and forgotten never
      expect(view.decayCandidates.map((c) => c.id)).toEqual([old!.id, semantic!.id, important!.id]);
      expect(view.decayCandidates[0]).toEqual({
        id: old!.id,
        scope: 't/a',
        layer: 'episodic',
        content: 'the oldest low note',
        salience: expect.any(Number),
        importance: 0.2,
        accessCount: 0,
        accessedAt: null,
        recordedAt: '2024-03-01T09:00:00.000Z',
        dueAt: '2024-03-08T09:00:00.000Z',
      });
      expect(view.pendingJobs.total).toBeGreaterThanOrEqual(0);
      expect(view.lastRun).toBeNull();
      await engram.processJobs();
      const report = await engram.consolidate({ scope: 't/a', phases: ['decay'] });
      const after = await engram.overview({ scopes: ['t/a', 't/b'] });
      expect(after.lastRun).toEqual({ id: report.id, scope: 't/a', finishedAt: report.finishedAt });
      expect(after.pendingJobs).toEqual({ total: 0, byKind: {}, failed: 0 });
      expect(after.totals.total).toBe(6);
      expect((await engram.overview({ scopes: ['t/none'] })).growth).toEqual([]);
    });

    it('graph: concepts and relations, a focus neighbourhood with REF edges, filtered by relation type and bounded', async () => {
      const { engram } = await open();
      const episodes = await engram.remember(graspEpisodes('t/g', 6));
      await engram.remember(graspEpisodes('t/other', 3));
      await engram.processJobs();
      await engram.consolidate({ scope: 't/g', phases: ['extract', 'ground'] });
      const concepts = (await engram.graph({ scopes: ['t/g'] })).nodes;
      expect(concepts.length).toBeGreaterThan(1);
      const related = await engram.relate({ scope: 't/g', from: concepts[0]!.id, type: 'HAS_PART', to: concepts[1]!.id, weight: 0.7 });
      const whole = await engram.graph({ scopes: ['t/g'] });
      expect(whole.edges).toContainEqual({
        id: related.edge.id,
        from: concepts[0]!.id,
        to: concepts[1]!.id,
        type: 'HAS_PART',
        weight: 0.7,
      });
      expect((await engram.graph({ scopes: ['t/g'], relationTypes: ['RELATED_TO'] })).edges.some((e) => e.type === 'HAS_PART')).toBe(false);
      expect(whole.nodes.every((n) => n.kind === 'concept' && n.scope === 't/g' && n.layer === 'semantic')).toBe(true);
      const ids = new Set(whole.nodes.map((n) => n.id));
      expect(whole.edges.every((e) => ids.has(e.from) && ids.has(e.to) && e.type !== 'REF')).toBe(true);
      expect(whole.truncated).toBe(false);
      const saliences = whole.nodes.map((n) => n.salience);
      expect(saliences).toEqual([...saliences].sort((a, b) => b - a));

      const one = await engram.graph({ scopes: ['t/g'], limit: 1 });
      expect(one.nodes).toHaveLength(1);
      expect(one.truncated).toBe(true);

      const focus = await engram.graph({ scopes: ['t/g'], focus: episodes[0]!.id });
      expect(focus.nodes[0]).toMatchObject({ id: episodes[0]!.id, kind: 'record', layer: 'episodic' });
      const refs = focus.edges.filter((e) => e.type === 'REF');
      expect(refs.length).toBeGreaterThan(0);
      expect(refs.every((e) => e.from === episodes[0]!.id && focus.nodes.some((n) => n.id === e.to && n.kind === 'concept'))).toBe(true);

      const concept = refs[0]!.to;
      const around = await engram.graph({ scopes: ['t/g'], focus: concept, limit: 500 });
      expect(around.edges.filter((e) => e.type === 'REF' && e.to === concept).map((e) => e.from)).toEqual(
        expect.arrayContaining(episodes.map((e) => e.id)),
      );
      const noRefs = await engram.graph({ scopes: ['t/g'], focus: concept, relationTypes: ['RELATED_TO'] });
      expect(noRefs.edges.every((e) => e.type === 'RELATED_TO')).toBe(true);
      expect(noRefs.nodes.every((n) => n.kind === 'concept')).toBe(true);
      expect((await rejection(engram.graph({ scopes: ['t/other'], focus: concept }))).code).toBe('NOT_FOUND');
      expect((await rejection(engram.graph({ scopes: ['t/g'], limit: 0 }))).code).toBe('INVALID_INPUT');
      expect(JSON.stringify(await engram.graph({ scopes: ['t/other'] }))).not.toContain(concept);
    });

    it('versions: the whole chain oldest first with valid and transaction time; provenance and activation waves', async () => {
      const { engram, clock } = await open();
      const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target is staging.' });
      clock.advance(10 * DAY);
      const fix = await engram.remember({
        scope: 't/a',
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
      });
      expect(fix.action).toBe('superseded');
      const t1 = clock.now();
      const { chain } = await engram.versions(old.id, { scopes: ['t/a'] });
      expect(chain).toEqual([
        {
          id: old.id,
          content: 'The deploy target is staging.',
          status: 'superseded',
          validFrom: new Date(T0).toISOString(),
          validTo: new Date(t1).toISOString(),
          recordedAt: new Date(T0).toISOString(),
          supersededAt: new Date(t1).toISOString(),
          supersedes: [],
          supersededBy: [fix.id],
        },
        {
          id: fix.id,
          content: 'The deploy target moved from staging to production.',
          status: 'active',
          validFrom: new Date(t1).toISOString(),
          validTo: null,
          recordedAt: new Date(t1).toISOString(),
          supersededAt: null,
          supersedes: [old.id],
          supersededBy: [],
        },
      ]);
      expect(await engram.versions(fix.id, { scopes: 't/a' })).toEqual({ chain });
      expect((await rejection(engram.versions(old.id, { scopes: ['t/b'] }))).code).toBe('NOT_FOUND');
      // undoing the supersession keeps the chain but no current link
      await engram.unsupersede(old.id, { scope: 't/a' });
      const undone = (await engram.versions(old.id, { scopes: ['t/a'] })).chain;
      expect(undone.map((v) => [v.id, v.status, v.supersededBy])).toEqual([
        [old.id, 'active', []],
        [fix.id, 'active', []],
      ]);

      const episodes = await engram.remember(graspEpisodes('t/p', 5));
      await engram.processJobs();
      await engram.consolidate({ scope: 't/p', phases: ['extract', 'ground'] });
      const prov = await engram.provenance(episodes[0]!.id, { scopes: ['t/p'] });
      expect(prov.id).toBe(episodes[0]!.id);
      expect(prov.sources).toEqual([]);
      expect(prov.concepts.length).toBeGreaterThan(0);
      expect(prov.concepts.every((c) => c.refLayer === 'episodic')).toBe(true);
      expect(prov.concepts.some((c) => c.statistics.length > 0 && c.statistics[0]!.metric !== null)).toBe(true);
      const concept = prov.concepts.find((c) => c.statistics.length > 0)!;
      const statistic = await engram.provenance(concept.statistics[0]!.id, { scopes: ['t/p'] });
      expect(statistic.sources.map((s) => [s.id, s.link])).toEqual([[concept.id, 'derivedFrom']]);
      const conceptProv = await engram.provenance(concept.id, { scopes: ['t/p'] });
      expect(conceptProv.derived.map((d) => d.id)).toContain(concept.statistics[0]!.id);
      expect((await rejection(engram.provenance(episodes[0]!.id, { scopes: ['t/a'] }))).code).toBe('NOT_FOUND');

      const activation = await engram.activate(episodes[0]!.id, { scopes: ['t/p'] });
      expect(activation.steps.length).toBeGreaterThan(0);
      expect(activation.steps.map((s) => s.hop)).toEqual(activation.steps.map((_, i) => i + 1));
      const first = activation.steps[0]!.activated;
      expect(first.map((a) => a.id)).toEqual(expect.arrayContaining(prov.concepts.map((c) => c.id)));
      for (const step of activation.steps) {
        const values = step.activated.map((a) => a.activation);
        expect(values).toEqual([...values].sort((a, b) => b - a));
        for (const a of step.activated) expect(activation.ranked.find((r) => r.id === a.id)?.hops ?? step.hop).toBe(step.hop);
      }
    });

    it('browses at an instant: what was true at asOf as believed at knownAt, paged with the instants bound to the cursor', async () => {
      const { engram, clock } = await open();
      const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target is staging.' });
      clock.advance(10 * DAY);
      const fix = await engram.remember({
        scope: 't/a',
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
      });
      const gone = await engram.remember({ scope: 't/a', content: 'a forgotten note' });
      await engram.forget(gone.id, { scope: 't/a' });
      const ids = async (input: Record<string, unknown>) => (await engram.list({ scopes: ['t/a'], ...input })).items.map((i) => i.id);
      expect(await ids({})).toEqual([gone.id, fix.id, old.id]);
      expect(await ids({ asOf: T0 + 5 * DAY })).toEqual([old.id]);
      expect(await ids({ asOf: clock.now() })).toEqual([fix.id]);
      // before the correction was recorded the old claim was believed, open-ended
      expect(await ids({ knownAt: T0 + 5 * DAY })).toEqual([old.id]);
      expect(await ids({ knownAt: new Date(clock.now()).toISOString(), asOf: T0 + 5 * DAY })).toEqual([old.id]);
      expect(await ids({ asOf: T0 - DAY })).toEqual([]);
      expect(await ids({ asOf: clock.now(), statuses: ['superseded'] })).toEqual([]);
      const page = await engram.list({ scopes: ['t/a'], limit: 1, asOf: clock.now() + DAY, knownAt: clock.now() });
      expect(page.items.map((i) => i.id)).toEqual([fix.id]);
      expect(page.nextCursor).toBeNull();
      const first = await engram.list({ scopes: ['t/a'], limit: 1 });
      const moved = await rejection(engram.list({ scopes: ['t/a'], limit: 1, asOf: T0, cursor: first.nextCursor! }));
      expect(moved.code).toBe('INVALID_INPUT');
      expect((await rejection(engram.list({ scopes: ['t/a'], asOf: 'yesterday' }))).message).toMatch(/asOf/);
    });
  });
}
