/**
 * The phase-locking promotion source (seed 000: `success_rate PHASE_LOCKED_TO circadian`): does a
 * metric rise and fall with the hour of day or the day of week? Per subject (the scope's success
 * rate, each tool's success rate, each numeric metric) and cycle, the circular-linear association of
 * the outcome with the episode's phase is tested (nR² ~ χ²₂), under the noise filter's discipline:
 * minimum support (observations, and successes and failures each), α = 0.05 Bonferroni-corrected over
 * every subject × cycle tested, observations spanning at least two turns of the cycle, and a minimum
 * coupling. Pure over observations; the promote phase writes the PHASE_LOCKED_TO edges.
 */
import type { Scope } from '../core/scope.js';
import {
  angleToPosition,
  circularLinearAssociation,
  cycleAngle,
  cyclePosition,
  CYCLE_LENGTH,
  CYCLE_PERIOD_MS,
  positionLabel,
  rayleighTest,
  type Cycle,
} from './circular-statistics.js';
import type { Observation } from './observations.js';
import type { ObservationLoader, PromotionCandidate, PromotionSource } from './promotion-sources.js';

export interface PhaseLockConfig {
  /** The cycles tested (each one more test in the correction). */
  cycles: readonly Cycle[];
  /** Significance level, Bonferroni-corrected over subjects × cycles. */
  alpha: number;
  /** Minimum observations of a subject. */
  minSupport: number;
  /** Binary outcomes: at least this many successes and this many failures. */
  minEach: number;
  /** Minimum coupling (the circular-linear correlation R, 0..1). */
  minCoupling: number;
  /** Observations must span at least this many turns of the cycle (two days, two weeks). */
  minPeriods: number;
  /** Local time of the agent: minutes east of UTC. */
  utcOffsetMinutes: number;
  /** Numeric metrics tested besides success (episode fields). */
  metrics: readonly string[];
}

export const DEFAULT_PHASE_LOCK: Readonly<PhaseLockConfig> = Object.freeze({
  cycles: ['hour', 'weekday'] as const,
  alpha: 0.05,
  minSupport: 30,
  minEach: 5,
  minCoupling: 0.2,
  minPeriods: 2,
  utcOffsetMinutes: 0,
  metrics: ['reward'] as const,
});

/** The node a phase-locked metric points at, per cycle. */
export const CYCLE_NODES: Readonly<Record<Cycle, { name: string; definition: string }>> = Object.freeze({
  hour: { name: 'circadian', definition: 'The daily cycle: the hour of day (24 hours).' },
  weekday: { name: 'weekly', definition: 'The weekly cycle: the day of week (Sunday to Saturday).' },
});

/** What the PHASE_LOCKED_TO edge carries (a contract: `{cycle, phase, coupling, p}` plus details). */
export interface PhaseLock {
  cycle: Cycle;
  /** Where the metric peaks, in cycle units (hour 0..24, weekday 0..7 from Sunday). */
  phase: number;
  /** Strength of the locking: the circular-linear correlation R (0..1). */
  coupling: number;
  /** Bonferroni-corrected p-value. */
  p: number;
  /** The peak as text (`14:00`, `Friday`). */
  peak: string;
  subject: string;
  n: number;
}

interface Subject {
  name: string;
  metric: string;
  binary: boolean;
  points: { at: number; value: number; id: string; recordedAt?: number }[];
}

/** Phase-lock candidates from observations (pure). */
export function phaseLockCandidates(
  observations: readonly Observation[],
  since = 0,
  config: PhaseLockConfig = DEFAULT_PHASE_LOCK,
): PromotionCandidate[] {
  const subjects = subjectsOf(observations, config);
  const tests: { subject: Subject; cycle: Cycle }[] = [];
  for (const subject of subjects) {
    if (subject.points.length < config.minSupport) continue;
    if (subject.binary) {
      const k = subject.points.filter((p) => p.value === 1).length;
      if (k < config.minEach || subject.points.length - k < config.minEach) continue;
    }
    if (since > 0 && !subject.points.some((p) => (p.recordedAt ?? p.at) >= since)) continue;
    const ats = subject.points.map((p) => p.at);
    const span = Math.max(...ats) - Math.min(...ats);
    for (const cycle of config.cycles) if (span >= config.minPeriods * CYCLE_PERIOD_MS[cycle]) tests.push({ subject, cycle });
  }
  const out: PromotionCandidate[] = [];
  for (const { subject, cycle } of tests) {
    const angles = subject.points.map((p) => cycleAngle(p.at, cycle, config.utcOffsetMinutes));
    const association = circularLinearAssociation(
      subject.points.map((p) => p.value),
      angles,
    );
    const p = Math.min(1, association.p * tests.length);
    if (p > config.alpha || association.r < config.minCoupling) continue;
    const phase = round(angleToPosition(association.peak, cycle), 2);
    const peak = positionLabel(phase, cycle);
    const profile = profileOf(subject, cycle, config.utcOffsetMinutes);
    // the Rayleigh test of the successes' own phases, reported beside the association (not the decision)
    const positives = subject.binary
      ? subject.points.filter((pt) => pt.value === 1).map((pt) => cycleAngle(pt.at, cycle, config.utcOffsetMinutes))
      : [];
    const rayleigh = subject.binary ? rayleighTest(positives) : null;
    const node = CYCLE_NODES[cycle];
    const cycleText = cycle === 'hour' ? 'the hour of day' : 'the day of week';
    const verbal = `${subject.name} is phase-locked to ${cycleText}: highest around ${peak} (coupling ${round(association.r, 3)}, p ${formatP(p)}, n ${association.n})`;
    const lock: PhaseLock = { cycle, phase, coupling: round(association.r, 4), p, peak, subject: subject.name, n: association.n };
    out.push({
      key: `phase-lock:${subject.name}:${cycle}`,
      source: 'phase-lock',
      kind: 'phase-lock',
      name: `${subject.name} PHASE_LOCKED_TO ${node.name}`,
      content: `${verbal}.`,
      confidence: round(association.r * (1 - p), 4),
      provenanceKind: 'statistical',
      episodes: [],
      statistic: {
        key: `phase-lock:${subject.name}:${cycle}`,
        name: `${subject.name} by ${cycle === 'hour' ? 'hour of day' : 'day of week'}`,
        content: verbal,
        metric: {
          kind: 'phase-lock',
          subject: subject.name,
          metric: subject.metric,
          cycle,
          n: association.n,
          phase,
          peak,
          coupling: association.r,
          amplitude: association.amplitude,
          pValue: p,
          pUncorrected: association.p,
          tests: tests.length,
          profile,
          ...(rayleigh !== null
            ? { rayleigh: { n: rayleigh.n, z: rayleigh.z, p: rayleigh.p, mean: round(angleToPosition(rayleigh.mean, cycle), 2) } }
            : {}),
        },
      },
      phaseLock: lock,
      evidence: {
        subject: subject.name,
        metric: subject.metric,
        cycle,
        n: association.n,
        phase,
        peak,
        coupling: association.r,
        pValue: p,
        tests: tests.length,
        episodes: subject.points.map((pt) => pt.id).slice(-500),
      },
    });
  }
  return out;
}

/** The phase-locking source over a loader. */
export function phaseLockSource(load: ObservationLoader, config: PhaseLockConfig = DEFAULT_PHASE_LOCK): PromotionSource {
  return { name: 'phase-lock', candidates: async (_scope: Scope, since) => phaseLockCandidates(await load(_scope), since, config) };
}

function subjectsOf(observations: readonly Observation[], config: PhaseLockConfig): Subject[] {
  const overall: Subject = { name: 'success_rate', metric: 'success', binary: true, points: [] };
  const byTool = new Map<string, Subject>();
  const metrics = new Map<string, Subject>(config.metrics.map((m) => [m, { name: m, metric: m, binary: false, points: [] }]));
  for (const o of observations) {
    const base = { at: o.at, id: o.id, ...(o.recordedAt !== undefined ? { recordedAt: o.recordedAt } : {}) };
    if (o.success !== null) {
      const point = { ...base, value: o.success ? 1 : 0 };
      overall.points.push(point);
      if (o.tool !== null) {
        const name = `tool_${o.tool} success_rate`;
        const subject = byTool.get(name) ?? { name, metric: 'success', binary: true, points: [] };
        subject.points.push(point);
        byTool.set(name, subject);
      }
    }
    for (const [name, subject] of metrics) {
      const value = o.metrics[name];
      if (value !== undefined) subject.points.push({ ...base, value });
    }
  }
  // a scope with one tool tests it once (its success rate is the scope's)
  const tools = [...byTool.values()].filter((t) => t.points.length < overall.points.length);
  return [overall, ...tools.sort((a, b) => (a.name < b.name ? -1 : 1)), ...metrics.values()];
}

/** Mean of the metric per position of the cycle (null where nothing was observed). */
function profileOf(subject: Subject, cycle: Cycle, offset: number): (number | null)[] {
  const sums = new Array<number>(CYCLE_LENGTH[cycle]).fill(0);
  const counts = new Array<number>(CYCLE_LENGTH[cycle]).fill(0);
  for (const p of subject.points) {
    const slot = Math.floor(cyclePosition(p.at, cycle, offset)) % CYCLE_LENGTH[cycle];
    sums[slot] = (sums[slot] as number) + p.value;
    counts[slot] = (counts[slot] as number) + 1;
  }
  return sums.map((s, i) => ((counts[i] as number) === 0 ? null : round(s / (counts[i] as number), 3)));
}

function formatP(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : String(round(p, 4));
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
