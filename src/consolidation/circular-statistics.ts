/**
 * Circular statistics for patterns in time (seed 000's `success_rate PHASE_LOCKED_TO circadian`):
 * phases of a cycle (hour of day, day of week), the mean direction and resultant length of angles,
 * the Rayleigh test of uniformity, and the circular-linear association of a value with a phase
 * (Mardia's R², tested as nR² ~ χ²₂). Pure functions, no I/O.
 */

import { pairedMoments, pearson } from './statistics.js';

const TAU = 2 * Math.PI;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The cycles time patterns are tested against. */
export type Cycle = 'hour' | 'weekday';

/** Positions per cycle: 24 hours of a day, 7 days of a week. */
export const CYCLE_LENGTH: Readonly<Record<Cycle, number>> = Object.freeze({ hour: 24, weekday: 7 });

/** The length of one turn of a cycle in ms. */
export const CYCLE_PERIOD_MS: Readonly<Record<Cycle, number>> = Object.freeze({ hour: DAY, weekday: 7 * DAY });

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * Where an instant falls in a cycle, in cycle units: hours since midnight (0 ≤ h < 24) or days since
 * Sunday midnight (0 ≤ d < 7), at `utcOffsetMinutes` from UTC.
 *
 * @example
 * ```ts
 * cyclePosition(Date.UTC(2026, 0, 2, 14, 30), 'hour'); // 14.5 (a Friday)
 * cyclePosition(Date.UTC(2026, 0, 2, 12), 'weekday');  // 5.5
 * ```
 */
export function cyclePosition(at: number, cycle: Cycle, utcOffsetMinutes = 0): number {
  const local = at + utcOffsetMinutes * 60_000;
  if (cycle === 'hour') return mod(local, DAY) / HOUR;
  // 1970-01-01 was a Thursday (day 4 counted from Sunday)
  return mod(local / DAY + 4, 7);
}

/** The angle (radians, 0 ≤ θ < 2π) of an instant in a cycle. */
export function cycleAngle(at: number, cycle: Cycle, utcOffsetMinutes = 0): number {
  return (cyclePosition(at, cycle, utcOffsetMinutes) / CYCLE_LENGTH[cycle]) * TAU;
}

/** An angle back in cycle units (0 ≤ x < 24 or 7). */
export function angleToPosition(angle: number, cycle: Cycle): number {
  return (mod(angle, TAU) / TAU) * CYCLE_LENGTH[cycle];
}

/** A readable position: `14:00` for an hour, `Friday` (or `Friday 14:00` with hours) for a weekday. */
export function positionLabel(position: number, cycle: Cycle): string {
  if (cycle === 'hour') {
    const minutes = Math.round(position * 60) % (24 * 60);
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  }
  return WEEKDAYS[Math.floor(mod(position, 7))] as string;
}

/** Mean direction and mean resultant length of angles; `{ n: 0, mean: 0, r: 0 }` for none. */
export function circularMean(angles: readonly number[]): { n: number; mean: number; r: number } {
  const n = angles.length;
  if (n === 0) return { n: 0, mean: 0, r: 0 };
  let c = 0;
  let s = 0;
  for (const a of angles) {
    c += Math.cos(a);
    s += Math.sin(a);
  }
  const r = Math.hypot(c, s) / n;
  return { n, mean: mod(Math.atan2(s, c), TAU), r };
}

/**
 * The Rayleigh test of uniformity against a unimodal alternative: z = nR², p from Zar's
 * approximation exp(√(1 + 4n + 4(n² − R_n²)) − (1 + 2n)) (Zar 1999, eq. 27.4; accurate for n ≥ 5 and
 * used by pingouin and astropy), clipped to [0, 1].
 *
 * @example
 * ```ts
 * rayleighTest([0.785, 1.570, 3.141, 0.839, 5.934]); // z ≈ 1.236, p ≈ 0.3048
 * ```
 */
export function rayleighTest(angles: readonly number[]): { n: number; mean: number; r: number; z: number; p: number } {
  const { n, mean, r } = circularMean(angles);
  if (n === 0) return { n, mean, r, z: 0, p: 1 };
  const rn = r * n;
  const z = (rn * rn) / n;
  const p = Math.exp(Math.sqrt(1 + 4 * n + 4 * (n * n - rn * rn)) - (1 + 2 * n));
  return { n, mean, r, z, p: Math.min(1, Math.max(0, p)) };
}

/**
 * Circular-linear association of values `xs` with angles (Mardia 1976; Zar eq. 27.47): R² of x on
 * (cos θ, sin θ), tested by nR² ~ χ²₂ (p = exp(−nR²/2)). Unlike a Rayleigh test on the phases of the
 * successes alone, it compares against when observations happened at all, so an agent that works
 * office hours does not look phase-locked. `peak` is the angle where the fitted cosine
 * x ≈ a + b·cos θ + c·sin θ is highest, `amplitude` its height above the mean (√(b² + c²)).
 *
 * @example
 * ```ts
 * circularLinearAssociation([1, 0, 1, 0], [0, Math.PI, 0.1, Math.PI + 0.1]).r2; // close to 1
 * ```
 */
export function circularLinearAssociation(
  xs: readonly number[],
  angles: readonly number[],
): { n: number; r2: number; r: number; p: number; peak: number; amplitude: number } {
  const n = Math.min(xs.length, angles.length);
  const none = { n, r2: 0, r: 0, p: 1, peak: 0, amplitude: 0 };
  if (n < 3) return none;
  const cs = angles.slice(0, n).map(Math.cos);
  const sn = angles.slice(0, n).map(Math.sin);
  const x = xs.slice(0, n);
  const rxc = pearson(x, cs);
  const rxs = pearson(x, sn);
  const rcs = pearson(cs, sn);
  // pearson answers 0 for a side without spread: no association can be measured then
  if ((rxc === 0 && rxs === 0) || 1 - rcs * rcs < 1e-12) return none;
  const r2 = Math.max(0, Math.min(1, (rxc * rxc + rxs * rxs - 2 * rxc * rxs * rcs) / (1 - rcs * rcs)));
  // least squares of x on (cos, sin) for the peak and amplitude
  const fit = regressOnCosSin(x, cs, sn);
  return {
    n,
    r2,
    r: Math.sqrt(r2),
    p: Math.exp((-n * r2) / 2),
    peak: mod(Math.atan2(fit.c, fit.b), TAU),
    amplitude: Math.hypot(fit.b, fit.c),
  };
}

/** Coefficients b, c of x ≈ a + b·cos + c·sin (centred normal equations, 2 × 2). */
function regressOnCosSin(x: readonly number[], cs: readonly number[], sn: readonly number[]): { b: number; c: number } {
  const n = x.length;
  const { sxx: scc, syy: sss, sxy: scs } = pairedMoments(cs, sn, n);
  const sxc = pairedMoments(x, cs, n).sxy;
  const sxs = pairedMoments(x, sn, n).sxy;
  const det = scc * sss - scs * scs;
  if (Math.abs(det) < 1e-12) return { b: 0, c: 0 };
  return { b: (sxc * sss - sxs * scs) / det, c: (sxs * scc - sxc * scs) / det };
}

function mod(value: number, m: number): number {
  return ((value % m) + m) % m;
}
