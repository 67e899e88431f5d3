/**
 * Insight (seed 002): candidate knowledge from the groups recombination bridged, e.g. "deploy failures
 * cluster on Fridays with schema_migration + orders_db". A group is every memory holding all the items
 * a bridge shares; it becomes an insight only when its outcomes (success or failure, else the sign of a
 * strong feeling) differ from the rest of the scope under the noise filter's test (§11.8: one-sided
 * binomial against the base rate of the other memories, minimum support 5, α = 0.05, here
 * Bonferroni-corrected over the groups and the two directions tested). When the group's matching
 * memories also cluster in time (Rayleigh test on the day of week or the hour, corrected for the two
 * cycles), the insight says when. Promoted patterns about the same tool or items are cited as
 * corroboration. Pure; the insight phase writes the records.
 */
import { angleToPosition, cycleAngle, positionLabel, rayleighTest, type Cycle } from './circular-statistics.js';
import type { ItemIndex } from './item-index.js';
import { binomialNoiseTest } from './noise-filter.js';

export interface InsightConfig {
  /** Significance level (Bonferroni-corrected over groups × directions). */
  alpha: number;
  /** Memories with a known outcome a group needs. */
  minSupport: number;
  /** New or updated insights per run. */
  maxInsights: number;
  /** DERIVED_FROM edges per insight (its evidence, newest first). */
  maxEvidence: number;
  /** A tool names the insight when at least this share of the matching memories used it. */
  minToolShare: number;
  /** Local time of the agent (minutes east of UTC) for "on Fridays". */
  utcOffsetMinutes: number;
}

export const DEFAULT_INSIGHT: Readonly<InsightConfig> = Object.freeze({
  alpha: 0.05,
  minSupport: 5,
  maxInsights: 20,
  maxEvidence: 100,
  minToolShare: 0.6,
  utcOffsetMinutes: 0,
});

/** A bridged group: the items its bridges share and how they read. */
export interface BridgedGroup {
  items: string[];
  labels: string[];
  /** The bridges' own ends (always evidence). */
  ends: string[];
}

/** A promoted pattern an insight may cite. */
export interface PromotedPattern {
  id: string;
  name: string;
  /** Tool or items it is about (lower-case concept names). */
  about: string[];
}

export interface InsightFinding {
  key: string;
  direction: 'failure' | 'success';
  items: string[];
  labels: string[];
  k: number;
  n: number;
  baseRate: number;
  p: number;
  tool: string | null;
  when: { cycle: Cycle; peak: string; p: number } | null;
  sessions: number;
  spanDays: number;
  /** Matching memories first (newest first), then the rest of the group. */
  evidence: string[];
  corroboratedBy: PromotedPattern[];
  content: string;
  confidence: number;
}

/** Findings from bridged groups (pure). */
export function insightFindings(
  groups: readonly BridgedGroup[],
  index: ItemIndex,
  promoted: readonly PromotedPattern[],
  config: InsightConfig = DEFAULT_INSIGHT,
): InsightFinding[] {
  const unique = new Map<string, BridgedGroup>();
  for (const g of groups) {
    const key = [...g.items].sort().join('+');
    const seen = unique.get(key);
    unique.set(key, seen === undefined ? g : { ...seen, ends: [...new Set([...seen.ends, ...g.ends])] });
  }
  const tests = unique.size * 2;
  const withOutcome = [...index.memories.values()].filter((m) => m.outcome !== null);
  const out: InsightFinding[] = [];
  for (const [key, group] of unique) {
    const members = intersect(group.items.map((item) => index.memoriesOf.get(item) ?? new Set<string>()));
    const memberSet = new Set([...members, ...group.ends]);
    const known = [...memberSet]
      .map((id) => index.memories.get(id))
      .filter((m): m is NonNullable<typeof m> => m !== undefined && m.outcome !== null);
    const others = withOutcome.filter((m) => !memberSet.has(m.id));
    for (const direction of ['failure', 'success'] as const) {
      const wanted = direction === 'success';
      const matching = known.filter((m) => m.outcome === wanted);
      const base = others.length === 0 ? 0.5 : others.filter((m) => m.outcome === wanted).length / others.length;
      const test = binomialNoiseTest(matching.length, known.length, base, { alpha: config.alpha / tests, minSupport: config.minSupport });
      if (!test.passed) continue;
      const p = Math.min(1, test.pValue * tests);
      const when = timing(
        matching.map((m) => m.at),
        config,
      );
      const tools = new Map<string, number>();
      for (const m of matching) if (m.tool !== null) tools.set(m.tool, (tools.get(m.tool) ?? 0) + 1);
      const [topTool, topCount] = [...tools].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [null, 0];
      const tool = topTool !== null && topCount / matching.length >= config.minToolShare ? topTool : null;
      const about = new Set([...group.items, ...(tool !== null ? [tool] : [])]);
      const corroboratedBy = promoted.filter((pp) => pp.about.some((a) => about.has(a)));
      const ats = known.map((m) => m.at);
      const spanDays = Math.round((Math.max(...ats) - Math.min(...ats)) / 86_400_000);
      const sessions = new Set(known.map((m) => m.session ?? m.id)).size;
      const episodes = known.every((m) => m.tool !== null);
      const verb = direction === 'failure' ? (episodes ? 'failed' : 'went badly') : episodes ? 'succeeded' : 'went well';
      const noun = direction === 'failure' ? 'failures' : 'successes';
      const whenText = when === null ? '' : when.cycle === 'weekday' ? ` on ${when.peak}s` : ` around ${when.peak}`;
      const content =
        `${tool !== null ? `${tool} ` : ''}${noun} cluster${whenText} with ${group.labels.join(' + ')}: ${matching.length} of ${known.length} such memories ${verb} ` +
        `(base rate ${round(base, 2)}, p ${formatP(p)}), across ${sessions} sessions over ${spanDays} days` +
        `${corroboratedBy.length > 0 ? `; consistent with ${corroboratedBy.map((c) => `"${c.name}"`).join(', ')}` : ''}.`;
      const newestFirst = (ids: readonly string[]) =>
        [...ids].sort((a, b) => (index.memories.get(b)?.at ?? 0) - (index.memories.get(a)?.at ?? 0));
      const matchingIds = new Set(matching.map((m) => m.id));
      out.push({
        key: `${key}:${direction}`,
        direction,
        items: group.items,
        labels: group.labels,
        k: matching.length,
        n: known.length,
        baseRate: base,
        p,
        tool,
        when,
        sessions,
        spanDays,
        evidence: [...newestFirst([...matchingIds]), ...newestFirst([...memberSet].filter((id) => !matchingIds.has(id)))].slice(
          0,
          config.maxEvidence,
        ),
        corroboratedBy,
        content,
        confidence: round((matching.length / known.length) * (1 - p), 4),
      });
    }
  }
  return out.sort((a, b) => a.p - b.p || (a.key < b.key ? -1 : 1)).slice(0, config.maxInsights);
}

/** When the matching memories cluster: the cycle whose Rayleigh test is significant (×2 for the two cycles). */
function timing(ats: readonly number[], config: InsightConfig): InsightFinding['when'] {
  if (ats.length < config.minSupport) return null;
  let best: InsightFinding['when'] = null;
  for (const cycle of ['weekday', 'hour'] as const) {
    const test = rayleighTest(ats.map((at) => cycleAngle(at, cycle, config.utcOffsetMinutes)));
    const p = Math.min(1, test.p * 2);
    if (p <= config.alpha && (best === null || p < best.p))
      best = { cycle, peak: positionLabel(angleToPosition(test.mean, cycle), cycle), p };
  }
  return best;
}

function intersect(sets: readonly ReadonlySet<string>[]): string[] {
  const [first, ...rest] = [...sets].sort((x, y) => x.size - y.size);
  if (first === undefined) return [];
  return [...first].filter((id) => rest.every((s) => s.has(id)));
}

function formatP(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : String(round(p, 4));
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
