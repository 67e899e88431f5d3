/** Markdown export/import (seed 003): readable dated files; a round trip reproduces every record exactly. */
import { describe, expect, it } from 'vitest';
import type { Engram } from '../../../src/index.js';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { enginesClosedAfterEach, everything as everythingIn } from '../../helpers/markdown-round-trip.js';

const S = 'acme/users/alice';
const open = enginesClosedAfterEach();
const everything = (engram: Engram, scope = S): Promise<MemoryRecord[]> => everythingIn(engram, scope);

async function seed(engram: Engram): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  ids.rule = (
    await engram.remember({
      scope: S,
      layer: 'procedural',
      content: 'Never suggest properties outside the budget.',
      priority: 5,
      pinned: true,
      tags: ['rules'],
    })
  ).id;
  ids.budget = (await engram.remember({ scope: S, layer: 'semantic', content: 'My budget is 70L.', validFrom: '2026-01-03' })).id;
  ids.budget2 = (
    await engram.remember({ scope: S, layer: 'semantic', content: 'My budget is 80L.', validFrom: '2026-01-10', importance: 0.8 })
  ).id;
  ids.concept = (
    await engram.remember({
      scope: S,
      layer: 'semantic',
      content: 'a flat with two bedrooms',
      name: '2bhk',
      definition: 'two bedrooms, hall, kitchen',
      category: 'home',
    })
  ).id;
  ids.viewed = (
    await engram.remember({
      scope: S,
      content:
        'Viewed Prestige Meridian — rejected: too far from school.\n\n  indented second line with --> and <!-- inside\n- not a list item',
      occurredAt: '2026-01-15T14:03:27.123Z',
      tags: ['housing', 'rejected'],
      emotion: { valence: -0.3, intensity: 4, mood: ['annoyed'] },
      context: { goal: 'find_a_flat', sessionId: 'sess-1' },
      perception: { objects: ['Prestige Meridian'] },
      outcome: { success: false, detail: 'too far' },
      source: { conversationId: 'chat-9', messageId: 'm-3' },
    })
  ).id;
  ids.shortlist = (
    await engram.remember({
      scope: S,
      content: 'Shortlisted Sobha Dream Acres',
      occurredAt: '2026-02-01',
      context: { goal: 'find_a_flat' },
    })
  ).id;
  ids.stat = (
    await engram.remember({
      scope: S,
      layer: 'statistical',
      content: 'flat viewing success rate: 0.5 (1/2)',
      metric: { concept: 'flat viewing', name: 'success rate', n: 2, k: 1 },
    })
  ).id;
  await engram.processJobs();
  await engram.relate({
    scope: S,
    from: ids.concept!,
    type: 'RELATED_TO',
    to: ids.budget2!,
    weight: 0.4,
    metadata: { why: 'affordability' },
  });
  await engram.forget(ids.shortlist!, { scope: S });
  // an unscored importance and access counts must survive too
  await engram.store.transaction((tx) => tx.updateMemory(ids.stat!, S, { importance: null, updatedAt: Date.parse('2026-03-01') }));
  await engram.store.recordAccess([ids.rule!], Date.parse('2026-03-02T08:00:00Z'));
  await engram.get(ids.rule!, { scopes: [S] });
  await engram.store.transaction(async () => undefined); // a transaction writes the batched accesses first
  return ids;
}

describe('Markdown export', () => {
  it('writes the five files with dated, readable entries', async () => {
    const engram = await open();
    const ids = await seed(engram);
    const files = await engram.exportMarkdown({ scope: S });
    expect(Object.keys(files).sort()).toEqual(['concepts.md', 'log.md', 'procedural.md', 'profile.md', 'semantic.md']);
    expect(files['procedural.md']).toContain('- [');
    expect(files['procedural.md']).toMatch(
      /- \[\d{4}-\d{2}-\d{2}[^\]]*\] Never suggest properties outside the budget\.\n {2}· importance [\d.]+ · tags: rules · pinned\n {2}<!-- engram \{/,
    );
    expect(files['profile.md']).toContain('- [2026-01-10] My budget is 80L.\n  · importance 0.8\n');
    expect(files['profile.md']).toContain('## Not current');
    expect(files['log.md']).toContain(
      '- [2026-01-15 14:03:27.123] Viewed Prestige Meridian — rejected: too far from school.\n  \n    indented second line',
    );
    expect(files['semantic.md']).toContain('flat viewing success rate: 0.5 (1/2)');
    expect(files['semantic.md']).toContain('two bedrooms');
    // extracted concepts go to concepts.md, not among the definitions and statistics
    const concepts = (await everything(engram)).filter((r) => r.data.concept === true);
    expect(concepts.length).toBeGreaterThan(0);
    for (const c of concepts) {
      expect(files['concepts.md']).toContain(c.id);
      expect(files['semantic.md']).not.toContain(c.id);
    }
    expect(files['concepts.md']!.split('\n').filter((l) => l.startsWith('- ')).length).toBe(concepts.length);
    const stats = await engram.stats({ scopes: [S] });
    expect(stats.concepts).toBe(concepts.length);
    expect(stats.byLayer.semantic).toBe((await everything(engram)).filter((r) => r.layer === 'semantic').length - concepts.length);
    // the trailer holds the rest, not the visible text
    const trailer = files['profile.md']!.split('\n').find((l) => l.includes(ids.budget2!))!;
    expect(trailer).not.toContain('My budget is 80L');
  });

  it('lists a fact valid only in the past, or only from a later date, under Not current', async () => {
    const engram = await open();
    const scope = 'acme/users/bob';
    await engram.remember([
      { scope, layer: 'semantic', content: 'My manager is Dana', validFrom: '2019-01-01', validTo: '2020-01-01', tags: ['profile'] },
      { scope, layer: 'semantic', content: 'My office is in Lisbon', validFrom: '2030-01-01', tags: ['profile'] },
      { scope, layer: 'semantic', content: 'My desk is by the window', tags: ['profile'] },
      { scope, layer: 'procedural', content: 'Always answer in French', validFrom: '2019-01-01', validTo: '2020-01-01' },
      { scope, layer: 'procedural', content: 'Always answer in English' },
    ]);
    const files = await engram.exportMarkdown({ scope });
    const parts = Object.values(files).map((text) => text.split(/## Not current[^\n]*\n/));
    const current = parts.map(([head]) => head).join('\n');
    const past = parts.map(([, tail = '']) => tail).join('\n');
    for (const text of ['My desk is by the window', 'Always answer in English']) expect(current).toContain(text);
    for (const text of ['My manager is Dana', 'My office is in Lisbon', 'Always answer in French']) {
      expect(current).not.toContain(text);
      expect(past).toContain(text);
    }
  });
});

describe('Markdown import', () => {
  it('round trip into a fresh store reproduces every record, ref and edge exactly', async () => {
    const source = await open();
    const ids = await seed(source);
    const files = await source.exportMarkdown({ scope: S });
    const before = await everything(source);
    expect(before.length).toBeGreaterThan(8);

    const target = await open();
    const report = await target.importMarkdown(files, { scope: S });
    expect(report).toMatchObject({ created: before.length, updated: 0, unchanged: 0, added: 0 });
    expect(await everything(target)).toStrictEqual(before);
    expect((await target.stats({ scopes: [S] })).concepts).toBeGreaterThan(0);
    expect((await target.stats({ scopes: [S] })).concepts).toBe((await source.stats({ scopes: [S] })).concepts);

    const conceptIds = before.map((r) => r.id);
    expect(await target.store.getConceptRefs({ scopes: [S], conceptIds })).toStrictEqual(
      await source.store.getConceptRefs({ scopes: [S], conceptIds }),
    );
    expect(await target.store.getEdges({ scopes: [S], ids: conceptIds })).toStrictEqual(
      await source.store.getEdges({ scopes: [S], ids: conceptIds }),
    );
    expect((await target.stats({ scopes: [S] })).edges).toBe((await source.stats({ scopes: [S] })).edges);
    expect(ids.viewed).toBeDefined();

    // importing the same files again changes nothing; exporting again gives the same text
    expect(await target.importMarkdown(files, { scope: S })).toMatchObject({ created: 0, updated: 0, unchanged: before.length, added: 0 });
    expect(await target.exportMarkdown({ scope: S })).toEqual(files);
  });

  it('a sleep cycle after the round trip finds what the cycles before it made: nothing is made twice', async () => {
    const source = await open();
    const deploy = (content: string, success: boolean, objects = ['orders_db']) => ({
      scope: S,
      content,
      importance: 0.6,
      action: { tool: 'deploy' },
      outcome: { success },
      perception: { objects },
    });
    await source.remember([
      deploy('Deploy of the Globex pipeline failed on orders_db', false),
      deploy('Deploy of the Globex pipeline failed on orders_db again', false),
      deploy('Deploy of the Globex pipeline succeeded on orders_db', true),
      { scope: S, content: 'Alice accepted the Initech offer', importance: 0.6 },
      deploy('Deploy of the Initech warehouse job failed on orders_db', false),
    ]);
    await source.consolidate({ scope: S });
    const made = await everything(source);
    expect(made.some((r) => r.layer === 'statistical')).toBe(true);
    const files = await source.exportMarkdown({ scope: S });
    expect(files['semantic.md']).toMatch(/"keys":\{"ground:/);

    const target = await open();
    await target.importMarkdown(files, { scope: S });
    const report = await target.consolidate({ scope: S });
    expect(report.phases.filter((p) => p.created > 0).map((p) => `${p.name}: ${p.created}`)).toEqual([]);
    expect((await everything(target)).length).toBe(made.length);
    expect((await target.stats({ scopes: [S] })).edges).toBe((await source.stats({ scopes: [S] })).edges);
  });

  it('applies what a person edited and adds hand-written entries', async () => {
    const engram = await open();
    const ids = await seed(engram);
    const files = await engram.exportMarkdown({ scope: S });
    const edited = {
      ...files,
      'profile.md': files['profile.md']!.replace(
        '- [2026-01-10] My budget is 80L.\n  · importance 0.8',
        '- [2026-01-12] My budget is 85L.\n  · importance 0.9 · tags: money · pinned',
      ),
      'log.md': `${files['log.md']}\n- [2026-02-20] Visited Brigade Cornerstone with Alice\n  · importance 0.6 · tags: visit\n`,
    };
    const beforeOthers = (await everything(engram)).filter((r) => r.id !== ids.budget2);
    const report = await engram.importMarkdown(edited, { scope: S });
    expect(report).toMatchObject({ updated: 1, added: 1 });
    const budget = await engram.get(ids.budget2!, { scopes: [S] });
    expect(budget).toMatchObject({
      content: 'My budget is 85L.',
      importance: 0.9,
      tags: ['money'],
      pinned: true,
      validFrom: '2026-01-12T00:00:00.000Z',
    });
    const after = await everything(engram);
    for (const record of beforeOthers) expect(after.find((r) => r.id === record.id)).toStrictEqual(record);
    const visit = after.find((r) => r.content === 'Visited Brigade Cornerstone with Alice')!;
    expect(visit).toMatchObject({ layer: 'episodic', occurredAt: Date.parse('2026-02-20'), importance: 0.6, tags: ['visit'] });
  });

  it('reports where a file is wrong', async () => {
    const engram = await open();
    await expect(engram.importMarkdown({ 'log.md': '- [2026-13-45] impossible date\n' }, { scope: S })).rejects.toThrow(/log\.md line 1/);
    await expect(
      engram.importMarkdown(
        { 'log.md': '- [2026-01-01] x\n  · importance 7\n  <!-- engram {"id":"01J","layer":"episodic","validFrom":0} -->\n' },
        { scope: S },
      ),
    ).rejects.toThrow(/importance/);
  });
});
