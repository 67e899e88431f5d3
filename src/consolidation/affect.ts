/**
 * Affect (seed 001's emotion-aware memory): re-appraisal of feelings over time, cautions and moods.
 * - Re-appraisal: a feeling fades with a half-life (negative ones faster: the fading-affect bias),
 *   except a flashbulb memory (intensity at or above `flashbulbIntensity`), which keeps its intensity
 *   and is marked so the decay policy keeps it `flashbulbFactor` times longer.
 * - Caution: a concept whose memories end negatively (failure, else a strong negative feeling) more
 *   often than the rest of the scope under the noise filter's test (§11.8: one-sided binomial against
 *   the base rate of the other memories, Laplace-smoothed so a scope that never failed elsewhere still
 *   has a rate above 0, minimum support 5, at least `minNegatives` negatives, α = 0.05
 *   Bonferroni-corrected over the concepts tested). A caution lifts when the test fails again, or when
 *   the concept's latest `recoveryRun` outcomes all went well.
 * - Mood: per period (ISO week or day), the mean valence and intensity and the commonest moods of
 *   the period's emotional memories.
 * Pure; the affect phase stores what these decide.
 */
import { binomialNoiseTest, smoothedRate } from './noise-filter.js';

const DAY = 86_400_000;

export interface AffectConfig {
  /** Intensity (0..10) at or above which a memory is a flashbulb: it keeps its intensity. */
  flashbulbIntensity: number;
  /** Days for a feeling's appraised intensity to halve. */
  halfLifeDays: number;
  /** Negative feelings fade this many times faster (the fading-affect bias). */
  negativeFadeFactor: number;
  /** A re-appraisal is stored only when the intensity moved at least this much. */
  minChange: number;
  caution: {
    alpha: number;
    minSupport: number;
    minNegatives: number;
    /** A caution lifts once this many outcomes in a row, the latest, went well (default 5). */
    recoveryRun?: number;
  };
  mood: { period: 'week' | 'day'; minMemories: number };
}

export const DEFAULT_AFFECT: Readonly<AffectConfig> = Object.freeze({
  flashbulbIntensity: 8,
  halfLifeDays: 30,
  negativeFadeFactor: 1.5,
  minChange: 0.5,
  caution: Object.freeze({ alpha: 0.05, minSupport: 5, minNegatives: 3, recoveryRun: 5 }),
  mood: Object.freeze({ period: 'week' as const, minMemories: 3 }),
});

/** The intensity a feeling has `ageMs` after it happened, and whether it is a flashbulb. */
export function appraise(
  emotion: { valence: number; intensity: number },
  ageMs: number,
  config: AffectConfig = DEFAULT_AFFECT,
): { intensity: number; flashbulb: boolean } {
  if (emotion.intensity >= config.flashbulbIntensity) return { intensity: emotion.intensity, flashbulb: true };
  const rate = emotion.valence < 0 ? config.negativeFadeFactor : 1;
  const faded = emotion.intensity * 0.5 ** ((Math.max(0, ageMs) / DAY / config.halfLifeDays) * rate);
  return { intensity: Math.round(faded * 10) / 10, flashbulb: false };
}

/** One concept's outcomes: which memories ended negatively. */
export interface ConceptOutcomes {
  conceptId: string;
  name: string;
  /** Memory ids with a known outcome, and whether each was negative. */
  outcomes: { id: string; at: number; negative: boolean }[];
}

export interface CautionVerdict {
  conceptId: string;
  name: string;
  k: number;
  n: number;
  baseRate: number;
  p: number;
  /** The negative memories, newest first. */
  negatives: string[];
  lastNegativeAt: number;
}

/** Concepts that deserve a caution (pure); everything else tested is returned in `cleared`. */
export function cautionVerdicts(
  concepts: readonly ConceptOutcomes[],
  scopeOutcomes: ReadonlyMap<string, boolean>,
  config: AffectConfig = DEFAULT_AFFECT,
): { raised: CautionVerdict[]; cleared: string[] } {
  const tested = concepts.filter((c) => c.outcomes.length >= config.caution.minSupport);
  const raised: CautionVerdict[] = [];
  const cleared: string[] = [];
  let negativesInScope = 0;
  for (const negative of scopeOutcomes.values()) if (negative) negativesInScope += 1;
  for (const c of tested) {
    const own = new Set(c.outcomes.map((o) => o.id));
    const k = c.outcomes.filter((o) => o.negative).length;
    const ownNegativesInScope = c.outcomes.filter((o) => o.negative && scopeOutcomes.has(o.id)).length;
    const othersN = scopeOutcomes.size - [...own].filter((id) => scopeOutcomes.has(id)).length;
    const base = smoothedRate(negativesInScope - ownNegativesInScope, Math.max(0, othersN));
    const test = binomialNoiseTest(k, c.outcomes.length, base, {
      alpha: config.caution.alpha / tested.length,
      minSupport: config.caution.minSupport,
    });
    if (!test.passed || k < config.caution.minNegatives || recovered(c.outcomes, config.caution.recoveryRun ?? 5)) {
      cleared.push(c.conceptId);
      continue;
    }
    const negatives = c.outcomes.filter((o) => o.negative).sort((a, b) => b.at - a.at);
    raised.push({
      conceptId: c.conceptId,
      name: c.name,
      k,
      n: c.outcomes.length,
      baseRate: base,
      p: Math.min(1, test.pValue * tested.length),
      negatives: negatives.map((o) => o.id),
      lastNegativeAt: negatives[0]?.at ?? 0,
    });
  }
  return { raised, cleared };
}

/** Did the latest `run` outcomes (by time, then id) all go well? */
function recovered(outcomes: ConceptOutcomes['outcomes'], run: number): boolean {
  if (run <= 0 || outcomes.length < run) return false;
  const latest = [...outcomes].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).slice(0, run);
  return latest.every((o) => !o.negative);
}

/** An emotional memory as mood summaries read it. */
export interface Feeling {
  id: string;
  at: number;
  valence: number;
  intensity: number;
  moods: readonly string[];
}

export interface MoodSummary {
  /** `2026-W05` or `2026-02-03`. */
  period: string;
  from: number;
  to: number;
  n: number;
  valence: number;
  intensity: number;
  moods: { mood: string; count: number }[];
  tone: 'positive' | 'negative' | 'mixed' | 'neutral';
  /** The feelings summarised (most intense first, at most 50). */
  sources: string[];
}

/** Mood summaries per period with at least `minMemories` feelings, oldest first (pure). */
export function moodSummaries(feelings: readonly Feeling[], config: AffectConfig = DEFAULT_AFFECT): MoodSummary[] {
  const byPeriod = new Map<string, { from: number; to: number; items: Feeling[] }>();
  for (const f of feelings) {
    const { key, from, to } = periodOf(f.at, config.mood.period);
    const entry = byPeriod.get(key) ?? { from, to, items: [] };
    entry.items.push(f);
    byPeriod.set(key, entry);
  }
  const out: MoodSummary[] = [];
  for (const [period, { from, to, items }] of byPeriod) {
    if (items.length < config.mood.minMemories) continue;
    const valence = items.reduce((s, f) => s + f.valence, 0) / items.length;
    const intensity = items.reduce((s, f) => s + f.intensity, 0) / items.length;
    const counts = new Map<string, number>();
    for (const f of items)
      for (const m of new Set(f.moods.map((x) => x.trim().toLowerCase()).filter((x) => x.length > 0)))
        counts.set(m, (counts.get(m) ?? 0) + 1);
    const positives = items.filter((f) => f.valence >= 0.3).length;
    const negatives = items.filter((f) => f.valence <= -0.3).length;
    const tone = valence >= 0.2 ? 'positive' : valence <= -0.2 ? 'negative' : positives > 0 && negatives > 0 ? 'mixed' : 'neutral';
    out.push({
      period,
      from,
      to,
      n: items.length,
      valence: Math.round(valence * 100) / 100,
      intensity: Math.round(intensity * 10) / 10,
      moods: [...counts]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 5)
        .map(([mood, count]) => ({ mood, count })),
      tone,
      sources: [...items]
        .sort((a, b) => b.intensity - a.intensity || (a.id < b.id ? -1 : 1))
        .slice(0, 50)
        .map((f) => f.id),
    });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** The text of a mood summary. */
export function moodText(m: MoodSummary): string {
  const range = `${new Date(m.from).toISOString().slice(0, 10)} to ${new Date(m.to - 1).toISOString().slice(0, 10)}`;
  const moods = m.moods.length > 0 ? `; ${m.moods.map((x) => `${x.mood} ×${x.count}`).join(', ')}` : '';
  return `Mood in ${m.period} (${range}): ${m.tone} — mean valence ${m.valence}, intensity ${m.intensity} over ${m.n} emotional memories${moods}.`;
}

/** The period (ISO week, Monday first, or UTC day) an instant falls in. */
export function periodOf(at: number, period: 'week' | 'day'): { key: string; from: number; to: number } {
  const day = Math.floor(at / DAY) * DAY;
  if (period === 'day') return { key: new Date(day).toISOString().slice(0, 10), from: day, to: day + DAY };
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
  const from = day - weekday * DAY;
  const thursday = new Date(from + 3 * DAY);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY));
  return { key: `${year}-W${String(week).padStart(2, '0')}`, from, to: from + 7 * DAY };
}
