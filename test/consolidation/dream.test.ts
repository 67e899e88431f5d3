/**
 * The dream phases on a real SQLite store with an injected clock: a planted stream (a bridge, an
 * insight, a flashbulb, repeated failures) is found; a second run adds nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';
import type { MemoryRecord } from '../../src/core/memory.js';
import {
  generateDreamStream,
  generatePhaseLockedStream,
  seededRandomSource,
  type DreamStream,
} from '../../src/consolidation/dream-stream.js';
import { startLlmStub, type LlmStub } from '../helpers/llm-stub.js';
import { homedir } from 'node:os';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { idleThresholdMs } from '../../src/consolidation/decay-policy.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/ops';
const START = Date.UTC(2026, 0, 5);
const NOW = START + 9 * 7 * 86_400_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function loaded(stream: DreamStream, options: Parameters<typeof tempEngram>[0] = {}): Promise<{ engram: Engram; ids: string[] }> {
  const t = await tempEngram({ clock: new ManualClock(NOW), ...options });
  cleanups.push(t.cleanup);
  const ids = (await t.engram.remember(stream.episodes.map((e) => ({ scope: SCOPE, ...e })))).map((r) => r.id);
  return { engram: t.engram, ids };
}

async function semantic(engram: Engram, category: string): Promise<MemoryRecord[]> {
  return (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10_000 })).filter(
    (r) => r.data.category === category,
  );
}

describe('dream phases on a planted stream', () => {
  it('bridges the distant pair, derives the Friday insight, cautions, moods and keeps the flashbulb; a second run adds nothing', async () => {
    const stream = generateDreamStream({ random: seededRandomSource(7), planted: true });
    const { engram, ids } = await loaded(stream);
    const report = await engram.consolidate({ scope: SCOPE });
    const phase = (name: string) => report.phases.find((p) => p.name === name);
    expect(report.bridges).toBeGreaterThan(0);
    expect(report.insights).toBeGreaterThan(0);
    expect(report.cautions).toBeGreaterThan(0);
    expect(phase('recombine')?.bridges).toBe(report.bridges);

    // the planted bridge, with what its ends share
    const [a, b] = (stream.truths.bridge?.ends ?? []).map((i) => ids[i] as string) as [string, string];
    const bridges = await engram.store.getEdges({ scopes: [SCOPE], ids: [a], types: ['BRIDGES'] });
    const planted = bridges.find((e) => (e.fromId === a && e.toId === b) || (e.fromId === b && e.toId === a));
    expect(planted).toBeDefined();
    expect(planted?.metadata.shared).toEqual(expect.arrayContaining(['invoice_reconciler', 'ledger_7_cluster', 'priya_raman']));
    expect([...(planted?.metadata.evidenceIds as string[])].sort()).toEqual([a, b].sort());
    // activation crosses the bridge and says why
    const activation = await engram.activate(a, { scopes: [SCOPE], hops: 1 });
    const reached = activation.ranked.find((r) => r.id === b);
    expect(reached?.path[0]).toMatchObject({ type: 'BRIDGES', direction: 'both' });
    expect(reached?.path[0]?.shared).toEqual(expect.arrayContaining(['priya_raman']));

    // the planted insight
    const insights = await semantic(engram, 'insight');
    const friday = insights.find((r) => r.content.startsWith('deploy failures cluster on Fridays'));
    expect(friday, insights.map((r) => r.content).join('\n')).toBeDefined();
    expect(friday?.tags).toContain('insight');
    expect(friday?.provenance.kind).toBe('hybrid');
    expect(friday?.content).toContain('7 of 8');
    const evidence = await engram.store.getEdges({ scopes: [SCOPE], ids: [friday?.id as string], types: ['DERIVED_FROM'] });
    const members = (stream.truths.insight?.members ?? []).map((i) => ids[i]);
    expect(members.every((m) => evidence.some((e) => e.toId === m))).toBe(true);

    // a caution on the concept that keeps failing, as a tag and a record
    const cautions = await semantic(engram, 'caution');
    const ordersDb = cautions.find((r) => r.content.startsWith('Caution on orders_db'));
    expect(ordersDb).toBeDefined();
    const [concept] = await engram.store.findConcepts({ scopes: [SCOPE], names: ['orders_db'] });
    expect(concept?.tags).toContain('caution');
    // moods per week, and the flashbulb marked so decay keeps it longer
    expect((await semantic(engram, 'mood')).length).toBeGreaterThan(3);
    const [flash] = await engram.store.getMemories([ids[stream.truths.flashbulb as number] as string], [SCOPE]);
    expect(flash?.data.affect?.flashbulb).toBe(true);
    expect(idleThresholdMs(flash as MemoryRecord)).toBeGreaterThan(idleThresholdMs({ ...(flash as MemoryRecord), data: {} }));

    // the context of a turn about it carries the caution and the latest mood
    const context = await engram.context({
      scopes: [SCOPE],
      message: 'Deploy checkout after the schema migration on orders-db?',
      budgetMs: 5_000,
    });
    expect(context.parts.cautions.items.map((c) => c.concept)).toContain('orders_db');
    expect(context.parts.mood.items).toHaveLength(1);
    expect(context.markdown).toContain('## Cautions and mood');
    expect(context.markdown).toContain('Caution on orders_db');
    const unrelated = await engram.context({ scopes: [SCOPE], message: 'What did Li Wei say about the data lake?', budgetMs: 5_000 });
    expect(unrelated.parts.cautions.items).toEqual([]);

    // idempotent: nothing new the second time
    const again = await engram.consolidate({ scope: SCOPE });
    expect([again.bridges, again.insights, again.cautions]).toEqual([0, 0, 0]);
    expect(again.phases.find((p) => p.name === 'recombine')?.note).toMatch(/changed nothing/);
    expect((await engram.store.getEdges({ scopes: [SCOPE], ids: [a], types: ['BRIDGES'] })).length).toBe(bridges.length);
    expect((await semantic(engram, 'insight')).length).toBe(insights.length);
    // the claim sweeps leave the cycle's own knowledge alone (weekly moods differ only in numbers)
    const swept = await engram.store.listMemories({
      scopes: [SCOPE],
      layers: ['semantic'],
      statuses: ['superseded', 'deleted'],
      limit: 1_000,
    });
    expect(swept.filter((r) => ['insight', 'caution', 'mood', 'cycle'].includes(String(r.data.category)))).toEqual([]);
  });
});

describe('dream phases on a noise stream', () => {
  it('invent nothing: no bridge, no insight, no caution', async () => {
    const { engram } = await loaded(generateDreamStream({ random: seededRandomSource(5001), planted: false }));
    const report = await engram.consolidate({ scope: SCOPE, phases: ['extract', 'recombine', 'insight', 'affect'] });
    expect([report.bridges, report.insights, report.cautions]).toEqual([0, 0, 0]);
    expect((await semantic(engram, 'mood')).length).toBeGreaterThan(0);
  });
});

describe('phase locking inside promote', () => {
  async function lockedStore(planted: boolean, seed: number): Promise<Engram> {
    const t = await tempEngram({ clock: new ManualClock(START + 40 * 86_400_000) });
    cleanups.push(t.cleanup);
    const { outcomes } = generatePhaseLockedStream({ random: seededRandomSource(seed), planted });
    await t.engram.remember(
      outcomes.map((o, i) => ({
        scope: SCOPE,
        layer: 'episodic' as const,
        content: `sync run ${i}: ${o.success ? 'ok' : 'failed'}`,
        occurredAt: o.at,
        importance: 0.3,
        action: { tool: o.tool },
        outcome: { success: o.success },
      })),
    );
    return t.engram;
  }

  it('writes success_rate PHASE_LOCKED_TO circadian with {cycle, phase, coupling, p} and a statistical record; nothing on noise', async () => {
    const engram = await lockedStore(true, 2001);
    const report = await engram.consolidate({ scope: SCOPE, phases: ['promote'] });
    expect(report.phases[0]?.note).toMatch(/PHASE_LOCKED_TO edges/);
    const promoted = await semantic(engram, 'promoted');
    const locked = promoted.find((r) => r.data.name === 'success_rate PHASE_LOCKED_TO circadian');
    expect(locked, promoted.map((r) => r.data.name).join(', ')).toBeDefined();
    const [node] = await semantic(engram, 'cycle');
    expect(node?.data.name).toBe('circadian');
    const [edge] = await engram.store.getEdges({ scopes: [SCOPE], ids: [locked?.id as string], types: ['PHASE_LOCKED_TO'] });
    expect(edge?.toId).toBe(node?.id);
    expect(edge?.metadata).toMatchObject({ cycle: 'hour' });
    expect(Math.abs((edge?.metadata.phase as number) - 14)).toBeLessThanOrEqual(2);
    expect(edge?.metadata.coupling as number).toBeGreaterThan(0.2);
    expect(edge?.metadata.p as number).toBeLessThanOrEqual(0.05);
    const confirms = await engram.store.getEdges({ scopes: [SCOPE], ids: [locked?.id as string], types: ['STATISTICALLY_CONFIRMS'] });
    const [stat] = await engram.store.getMemories([confirms[0]?.fromId as string], [SCOPE]);
    expect(stat?.layer).toBe('statistical');
    expect(stat?.data.metric).toMatchObject({ kind: 'phase-lock', cycle: 'hour', subject: 'success_rate' });
    // again: the same edge, updated at most
    await engram.consolidate({ scope: SCOPE, phases: ['promote'] });
    expect(await engram.store.getEdges({ scopes: [SCOPE], ids: [locked?.id as string], types: ['PHASE_LOCKED_TO'] })).toHaveLength(1);

    const noise = await lockedStore(false, 7001);
    await noise.consolidate({ scope: SCOPE, phases: ['promote'] });
    expect((await semantic(noise, 'promoted')).filter((r) => String(r.data.name).includes('PHASE_LOCKED_TO'))).toEqual([]);
  });
});

describe('insight written by an LLM', () => {
  let stub: LlmStub | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('is a reflection when the LLM writes it, with the same evidence; the template is the fallback', async () => {
    const written = 'Friday deploys right after a schema migration on orders-db usually fail: 7 of 8 were rolled back.';
    stub = await startLlmStub((r) => {
      const user = r.body.messages?.find((m) => m.role === 'user')?.content ?? '';
      if (r.use === 'reflection' && user.includes('Statistical finding:'))
        return { content: JSON.stringify({ insights: [{ content: written, evidence: ['finding'] }] }) };
      return { content: '{}' };
    });
    const stream = generateDreamStream({ random: seededRandomSource(7), planted: true });
    const { engram, ids } = await loaded(stream, {
      llm: { baseUrl: stub.baseUrl, model: 'stub', timeoutMs: 2_000, retries: 0, backoffMs: 5 },
    });
    await engram.consolidate({ scope: SCOPE, phases: ['extract', 'recombine', 'insight'] });
    const insight = (await semantic(engram, 'insight')).find((r) => r.content === written);
    expect(insight?.provenance.kind).toBe('reflection');
    expect((insight?.data.properties?.insight as { finding?: string }).finding).toMatch(/^deploy failures cluster on Fridays/);
    const evidence = await engram.store.getEdges({ scopes: [SCOPE], ids: [insight?.id as string], types: ['DERIVED_FROM'] });
    expect((stream.truths.insight?.members ?? []).every((i) => evidence.some((e) => e.toId === ids[i]))).toBe(true);
  });
});

const bgeMissing = hasModelFiles(resolveModelCacheDir(process.env, homedir()), 'bge-small-en-v1.5')
  ? ''
  : ' (skipped: bge-small-en-v1.5 is not in the model cache; run "engram models pull bge-small-en-v1.5")';

describe.skipIf(bgeMissing !== '')(`dream phases with the real model bge-small-en-v1.5${bgeMissing}`, () => {
  it('the planted pair is not "already similar" by meaning: it is bridged, and the Friday insight is found', async () => {
    const stream = generateDreamStream({ random: seededRandomSource(7), planted: true });
    const { engram, ids } = await loaded(stream, { embedder: 'bge-small-en-v1.5' });
    expect(engram.embedder.name).toMatch(/bge-small-en-v1\.5/);
    const report = await engram.consolidate({ scope: SCOPE, phases: ['extract', 'recombine', 'insight'] });
    const [a, b] = (stream.truths.bridge?.ends ?? []).map((i) => ids[i] as string) as [string, string];
    const bridge = (await engram.store.getEdges({ scopes: [SCOPE], ids: [a], types: ['BRIDGES'] })).find(
      (e) => [e.fromId, e.toId].sort().join() === [a, b].sort().join(),
    );
    expect(bridge, JSON.stringify(report.phases)).toBeDefined();
    expect(bridge?.metadata.similarity as number).toBeLessThan(0.9);
    expect((await semantic(engram, 'insight')).some((r) => r.content.startsWith('deploy failures cluster on Fridays'))).toBe(true);
  }, 180_000);
});
