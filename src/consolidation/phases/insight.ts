/**
 * Phase 7: insight. The groups recombination bridged (read back from the scope's bridges) are tested
 * for outcomes that differ from the rest of the scope (see `insight.ts`); each finding becomes a
 * semantic record tagged `insight` (`data.category: "insight"`) with provenance `hybrid` when templated,
 * or `reflection` when the configured LLM wrote it (the template is the fallback on any failure),
 * confidence from its evidence, and DERIVED_FROM edges to the memories (and promoted patterns) it rests
 * on. Nothing without evidence that passed the test; an identity key per finding updates, never duplicates.
 */
import type { FactData, MemoryRecord } from '../../core/memory.js';
import type { StoreTransaction } from '../../core/ports/store.js';
import { isPromoted } from '../../core/record-kinds.js';
import { conceptName } from '../../core/concepts/candidates.js';
import { insightFindings, type BridgedGroup, type InsightFinding, type PromotedPattern } from '../insight.js';
import { itemIndex, type ItemIndex } from '../item-index.js';
import { derivedRecord, linkDerivedFrom, lookupKey, scanRecords, storeKey, type PhaseContext } from '../phase-context.js';
import { addTally } from '../report.js';
import { GROUPS_KEY, type RecombinedGroup } from './recombine.js';
import { IDENTITY_KEY_PREFIX } from '../../core/identity-keys.js';
import { cutText } from '../../core/text/index.js';

const BRIDGE_KEYS = `${IDENTITY_KEY_PREFIX}bridge:`;
/** Bridges read back per run. */
const MAX_BRIDGES_READ = 5000;

export async function insightPhase(ctx: PhaseContext): Promise<void> {
  addTally(ctx.counters, 'insights', 0);
  if (ctx.cursor !== undefined) return;
  const groups = await bridgedGroups(ctx);
  if (groups.length === 0) return;
  ctx.counters.examined += groups.length;
  const index = await itemIndex(ctx);
  const findings = insightFindings(groups, index, await promotedPatterns(ctx), ctx.deps.config.insight);
  if (findings.length === 0) return;
  const written = await Promise.all(findings.map((f) => writeUp(ctx, f, index)));
  const vectors = await ctx.deps.embedder.embed(written.map((w) => w.content));
  await ctx.batch(
    async (tx) => {
      for (const [i, finding] of findings.entries())
        await upsertInsight(ctx, tx, finding, written[i] as { content: string; method: 'template' | 'llm' }, vectors[i] as Float32Array);
    },
    { done: true },
  );
}

/** The groups recombination found (bridged or too similar to bridge) and the scope's bridges. */
async function bridgedGroups(ctx: PhaseContext): Promise<BridgedGroup[]> {
  const { store } = ctx.deps;
  const recombined = ((await store.getState(ctx.scope, GROUPS_KEY))?.value as { groups?: RecombinedGroup[] } | undefined)?.groups ?? [];
  const keys = await store.listState(ctx.scope, BRIDGE_KEYS, MAX_BRIDGES_READ);
  const ends = [...new Set(keys.map((e) => e.key.slice(BRIDGE_KEYS.length).split('|')[0] as string))];
  const groups: BridgedGroup[] = recombined.map((g) => ({
    items: g.items,
    labels: g.labels.length === g.items.length ? g.labels : g.items,
    ends: g.ends,
  }));
  const seen = new Set<string>();
  for (let i = 0; i < ends.length; i += 200) {
    for (const edge of await store.getEdges({ scopes: [ctx.scope], ids: ends.slice(i, i + 200), types: ['BRIDGES'] })) {
      if (seen.has(edge.id) || edge.invalidatedAt !== null || edge.validTo !== null) continue;
      seen.add(edge.id);
      const items = stringList(edge.metadata.items);
      const labels = stringList(edge.metadata.shared);
      if (items.length === 0) continue;
      groups.push({ items, labels: labels.length === items.length ? labels : items, ends: [edge.fromId, edge.toId] });
    }
  }
  return groups;
}

/** Promoted concepts of the scope with what they are about (their cue's parts, their tool or subject). */
async function promotedPatterns(ctx: PhaseContext): Promise<PromotedPattern[]> {
  const out: PromotedPattern[] = [];
  for await (const page of scanRecords(ctx.deps.store, {
    scope: ctx.scope,
    layers: ['semantic'],
    statuses: ['active'],
    pageSize: ctx.deps.config.pageSize,
  })) {
    for (const r of page) {
      if (!isPromoted(r)) continue;
      const evidence = ((r.data.promotion as { evidence?: Record<string, unknown> } | undefined)?.evidence ?? {}) as Record<
        string,
        unknown
      >;
      const parts = [evidence.cue, evidence.tool, evidence.subject]
        .filter((v): v is string => typeof v === 'string')
        .flatMap((v) => v.split('+'));
      const about = [
        ...new Set(parts.map((p) => conceptName(p.replace(/^tool_/, '').replace(/ success_rate$/, ''))).filter((p) => p.length > 0)),
      ];
      if (about.length > 0) out.push({ id: r.id, name: String(r.data.name ?? r.content), about });
    }
  }
  return out;
}

/** The insight's text: the LLM's when one is configured and answers, else the template. */
async function writeUp(ctx: PhaseContext, f: InsightFinding, index: ItemIndex): Promise<{ content: string; method: 'template' | 'llm' }> {
  const examples = f.evidence.slice(0, 8).map((id) => ({ id, content: index.memories.get(id)?.content ?? '', importance: null }));
  try {
    if (ctx.deps.reflect !== undefined) {
      const written = await ctx.deps.reflect({
        scope: ctx.scope,
        level: 1,
        records: [{ id: 'finding', content: `Statistical finding: ${f.content}`, importance: 1 }, ...examples],
        maxInsights: 1,
      });
      const text = written?.[0]?.content.trim() ?? '';
      if (text.length > 0) return { content: text, method: 'llm' };
    } else if (ctx.deps.llm) {
      const text = (
        await ctx.deps.llm.complete(
          [
            {
              role: 'system',
              content:
                "You turn a statistical finding about an agent's memories into one short, general insight (one sentence). Keep the numbers. Answer with the insight only.",
            },
            {
              role: 'user',
              content: `Finding: ${f.content}\nExamples:\n${examples.map((e) => `- ${cutText(e.content, 300)}`).join('\n')}`,
            },
          ],
          { maxTokens: 120 },
        )
      ).trim();
      if (text.length > 0) return { content: text, method: 'llm' };
    }
  } catch {
    // the template below is the deterministic fallback
  }
  return { content: f.content, method: 'template' };
}

async function upsertInsight(
  ctx: PhaseContext,
  tx: StoreTransaction,
  f: InsightFinding,
  written: { content: string; method: 'template' | 'llm' },
  vector: Float32Array,
): Promise<void> {
  const key = `insight:${f.key}`;
  const insight = {
    direction: f.direction,
    items: f.items,
    shared: f.labels,
    k: f.k,
    n: f.n,
    baseRate: f.baseRate,
    p: f.p,
    tool: f.tool,
    when: f.when,
    sessions: f.sessions,
    spanDays: f.spanDays,
    method: written.method,
    finding: f.content,
  };
  const existingId = await lookupKey(tx, ctx.scope, key);
  const [existing] = existingId !== null ? await tx.getMemories([existingId], [ctx.scope]) : [];
  let id: string;
  // a decayed insight is still this finding: updated in place, never duplicated
  if (existing !== undefined && (existing.status === 'active' || existing.status === 'decayed')) {
    id = existing.id;
    const before = existing.data.properties?.insight as { k?: number; n?: number } | undefined;
    if (before?.k === f.k && before.n === f.n && existing.confidence === f.confidence) return;
    await tx.updateMemory(existing.id, ctx.scope, {
      content: written.content,
      confidence: f.confidence,
      data: { ...existing.data, definition: written.content, properties: { ...existing.data.properties, insight, updatedAt: ctx.now } },
      updatedAt: ctx.now,
    });
    await tx.updateEmbedding(existing.id, ctx.scope, vector);
    ctx.counters.updated += 1;
    ctx.counters.details['insights updated'] = (ctx.counters.details['insights updated'] ?? 0) + 1;
  } else {
    const record: MemoryRecord = derivedRecord({
      scope: ctx.scope,
      layer: 'semantic',
      content: written.content,
      now: ctx.now,
      importance: 0.7,
      confidence: f.confidence,
      provenance: { kind: written.method === 'llm' ? 'reflection' : 'hybrid', sources: [], derivedFrom: f.evidence.slice(0, 50) },
      data: {
        name: `insight: ${f.tool !== null ? `${f.tool} ` : ''}${f.direction === 'failure' ? 'failures' : 'successes'} with ${f.labels.join(' + ')}`,
        category: 'insight',
        definition: written.content,
        properties: { insight },
      } satisfies FactData,
      tags: ['insight'],
    });
    await tx.insertMemories([{ record, embedding: vector }]);
    await storeKey(tx, ctx.scope, key, record.id, ctx.now);
    id = record.id;
    ctx.counters.created += 1;
    addTally(ctx.counters, 'insights');
    ctx.counters.details.insights = (ctx.counters.details.insights ?? 0) + 1;
    if (ctx.counters.ids.length < 50) ctx.counters.ids.push(record.id);
  }
  await linkDerivedFrom(ctx, tx, id, [...f.evidence, ...f.corroboratedBy.map((c) => c.id)], { insight: true });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
