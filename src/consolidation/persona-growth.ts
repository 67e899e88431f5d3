/**
 * Personality growth (seed 004: "if the agent keeps having deep conversations about ML, that pattern
 * should eventually shift its personality disposition — becoming more curious"). After the reflect
 * phase has written new reflections, the memories they summarise are read for each disposition of the
 * scope's persona: the share (by importance) that expresses it — a tag, mood or kind it favours, or one
 * of its cue words — is its signal. A disposition with a signal of at least `personaMinSignal` moves up
 * by rate × signal × (1 − value), at most `personaMaxShift` (0.05) per cycle; it never moves for lack
 * of evidence. Each shift is a new persona version with its reasons (by `reflection`), so it is logged
 * and reversible (`revertPersona`). Scopes without a persona do not grow one.
 */
import { favoursOf, memoryKindsOf, PERSONA_CATEGORY, renderPersona, type Persona } from '../core/persona/persona.js';
import { readPersona } from '../core/persona/persona-api.js';
import { settingRecord, writeSettingVersion } from '../core/persona/setting-versions.js';
import type { MemoryRecord } from '../core/memory.js';
import { contentTerms, stem } from '../core/text/index.js';
import type { PhaseContext } from './phase-context.js';
import { DEFAULT_REFLECTION, type ReflectionConfig } from './reflection.js';

/** How fast dispositions grow (part of the reflection config; absent keys take the defaults). */
export type PersonaGrowthConfig = Pick<ReflectionConfig, 'personaMaxShift' | 'personaRate' | 'personaMinSignal'>;

/** Cue words (stemmed) of the built-in dispositions, beside what each favours. */
const CUES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  curiosity: [
    'question',
    'why',
    'how',
    'wonder',
    'curiou',
    'learn',
    'explor',
    'research',
    'experi',
    'idea',
    'understand',
    'deep',
    'theori',
    'discov',
    'studi',
    'fascin',
    'insight',
    'novel',
    'intrigu',
  ].map((w) => stem(w)),
  caution: [
    'risk',
    'fail',
    'failur',
    'error',
    'danger',
    'care',
    'careful',
    'warn',
    'incid',
    'crash',
    'broke',
    'rollback',
    'unsaf',
    'hurt',
    'mistak',
    'outag',
    'bug',
  ].map((w) => stem(w)),
  sociability: [
    'friend',
    'team',
    'togeth',
    'chat',
    'parti',
    'meet',
    'talk',
    'peopl',
    'colleagu',
    'thank',
    'famili',
    'group',
    'commun',
    'share',
  ].map((w) => stem(w)),
});

/** One disposition's evidence in the reflected memories. */
export interface DispositionSignal {
  /** Importance-weighted share of the memories expressing it, 0..1. */
  signal: number;
  /** How many of the memories express it. */
  count: number;
  /** What they matched on, most frequent first (at most 5). */
  cues: string[];
}

/** The signal of each disposition of `persona` in `records`. */
export function dispositionSignals(persona: Persona, records: readonly MemoryRecord[]): Record<string, DispositionSignal> {
  const out: Record<string, DispositionSignal> = {};
  const total = records.reduce((sum, r) => sum + (r.importance ?? 1), 0);
  for (const disposition of Object.keys(persona.dispositions)) {
    const favours = favoursOf(persona, disposition);
    const cueWords = new Set(CUES[disposition] ?? []);
    const tags = new Set((favours.tags ?? []).map((t) => t.toLowerCase()));
    const moods = new Set((favours.moods ?? []).map((m) => m.toLowerCase()));
    const kinds = new Set((favours.kinds ?? []).map((k) => k.toLowerCase()));
    let weight = 0;
    let count = 0;
    const seen = new Map<string, number>();
    for (const record of records) {
      const hits = [
        ...record.tags.filter((t) => tags.has(t.toLowerCase())).map((t) => `tag ${t}`),
        ...(record.emotion?.mood ?? []).filter((m) => moods.has(m.toLowerCase())).map((m) => `mood ${m}`),
        ...[...memoryKindsOf(record)].filter((k) => kinds.has(k) && k !== record.layer).map((k) => `kind ${k}`),
        ...[...new Set(contentTerms(record.content).map((t) => stem(t)))].filter((t) => cueWords.has(t)),
      ];
      if (hits.length === 0) continue;
      count += 1;
      weight += record.importance ?? 1;
      for (const hit of hits) seen.set(hit, (seen.get(hit) ?? 0) + 1);
    }
    out[disposition] = {
      signal: total > 0 ? weight / total : 0,
      count,
      cues: [...seen]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 5)
        .map(([c]) => c),
    };
  }
  return out;
}

/** One shift of a disposition, with its reason. */
export interface DispositionShift {
  disposition: string;
  from: number;
  to: number;
  signal: number;
  reason: string;
}

/** The grown persona and its shifts (none when no signal reaches the minimum). */
export function growPersona(
  persona: Persona,
  signals: Readonly<Record<string, DispositionSignal>>,
  total: number,
  config: PersonaGrowthConfig = DEFAULT_REFLECTION,
): { persona: Persona; shifts: DispositionShift[] } {
  const maxShift = config.personaMaxShift ?? 0.05;
  const rate = config.personaRate ?? 0.25;
  const minSignal = config.personaMinSignal ?? 0.2;
  const dispositions = { ...persona.dispositions };
  const shifts: DispositionShift[] = [];
  for (const [disposition, value] of Object.entries(persona.dispositions)) {
    const evidence = signals[disposition];
    if (evidence === undefined || evidence.signal < minSignal) continue;
    const step = Math.min(maxShift, rate * evidence.signal * (1 - value));
    const to = Math.round(Math.min(1, value + step) * 1000) / 1000;
    if (to <= value) continue;
    dispositions[disposition] = to;
    shifts.push({
      disposition,
      from: value,
      to,
      signal: Math.round(evidence.signal * 1000) / 1000,
      reason: `${evidence.count} of ${total} reflected memories express ${disposition} (${evidence.cues.join(', ')}): ${value} → ${to}`,
    });
  }
  return { persona: { ...persona, dispositions }, shifts };
}

/**
 * Grows the scope's persona from the memories behind the reflections this cycle created (`insights`:
 * id and the ids it summarises); writes a new version when a disposition moved. Returns the shifts.
 */
export async function growPersonaFromReflections(
  ctx: PhaseContext,
  insights: readonly { id: string; sources: readonly string[] }[],
  known: ReadonlyMap<string, MemoryRecord>,
): Promise<DispositionShift[]> {
  if (insights.length === 0) return [];
  const current = await readPersona(ctx.deps.store, [ctx.scope], ctx.now);
  if (current === null) return [];
  const ids = [...new Set(insights.flatMap((i) => i.sources))];
  const missing = ids.filter((id) => !known.has(id));
  const fetched = missing.length > 0 ? await ctx.deps.store.getMemories(missing, [ctx.scope]) : [];
  const records = [...ids.map((id) => known.get(id)).filter((r): r is MemoryRecord => r !== undefined), ...fetched];
  const { persona, shifts } = growPersona(
    current.persona,
    dispositionSignals(current.persona, records),
    records.length,
    ctx.deps.config.reflection,
  );
  if (shifts.length === 0) return [];
  const content = renderPersona(persona);
  const [embedding] = await ctx.deps.embedder.embed([content]);
  const record = settingRecord({
    scope: ctx.scope,
    category: PERSONA_CATEGORY,
    content,
    properties: { ...persona },
    change: {
      reason: `reflection: ${shifts.map((s) => s.reason).join('; ')}`,
      by: 'reflection',
      details: { shifts, reflections: insights.map((i) => i.id) },
    },
    now: ctx.now,
    derivedFrom: insights.map((i) => i.id).slice(0, 50),
  });
  await ctx.batch(
    async (tx) => {
      await writeSettingVersion(tx, record, embedding as Float32Array, ctx.now);
    },
    { done: true, persona: record.id },
  );
  return shifts;
}
