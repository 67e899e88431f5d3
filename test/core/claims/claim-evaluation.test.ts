/**
 * Evaluation of compareClaims over the pair sets: detection rate on corrections, false-supersession rate on
 * compatible pairs, agreement rate on restatements. Rates are printed so a run shows where they stand.
 */
import { describe, expect, it } from 'vitest';
import { type ClaimRelation, compareClaims } from '../../../src/core/write/claims/index.js';
import { AGREEING_PAIRS, type ClaimPair, COMPATIBLE_PAIRS, CORRECTION_PAIRS } from './pairs.js';
import { PROBE_AGREEING, PROBE_COMPATIBLE, PROBE_CORRECTIONS } from './probe-pairs.js';

interface Rates {
  detection: number;
  falseSupersession: number;
  agreement: number;
  agreeingSuperseded: number;
  misses: string[];
}

function rate(pairs: readonly ClaimPair[], hit: (r: ClaimRelation) => boolean, misses: string[], label: string): number {
  let hits = 0;
  for (const p of pairs) {
    const result = compareClaims(p.new, p.old);
    if (hit(result.relation)) hits += 1;
    else misses.push(`${label}: "${p.old}" → "${p.new}": ${result.relation} (${result.reason})`);
  }
  return hits / pairs.length;
}

export function evaluate(sets: {
  corrections: readonly ClaimPair[];
  compatible: readonly ClaimPair[];
  agreeing: readonly ClaimPair[];
}): Rates {
  const misses: string[] = [];
  const detection = rate(sets.corrections, (r) => r === 'supersedes', misses, 'missed correction');
  const falseSupersession = 1 - rate(sets.compatible, (r) => r !== 'supersedes', misses, 'false supersession');
  const agreement = rate(sets.agreeing, (r) => r === 'agrees', misses, 'agreement not found');
  const agreeingSuperseded = sets.agreeing.filter((p) => compareClaims(p.new, p.old).relation === 'supersedes').length;
  return { detection, falseSupersession, agreement, agreeingSuperseded, misses };
}

function report(name: string, sets: Parameters<typeof evaluate>[0], rates: Rates): void {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  console.log(
    [
      `${name}: detection ${pct(rates.detection)} of ${sets.corrections.length} corrections, ` +
        `false supersession ${pct(rates.falseSupersession)} of ${sets.compatible.length} compatible, ` +
        `agreement ${pct(rates.agreement)} of ${sets.agreeing.length} restatements`,
      ...rates.misses.map((m) => `  ${m}`),
    ].join('\n'),
  );
}

describe('claim comparison evaluation', () => {
  it('the development set has the required shape', () => {
    expect(CORRECTION_PAIRS.length).toBeGreaterThanOrEqual(45);
    expect(COMPATIBLE_PAIRS.length).toBeGreaterThanOrEqual(45);
    expect(AGREEING_PAIRS.length).toBeGreaterThanOrEqual(20);
    expect(CORRECTION_PAIRS.filter((p) => p.numeric).length).toBeLessThanOrEqual(CORRECTION_PAIRS.length / 3);
    const shapes = new Set(CORRECTION_PAIRS.map((p) => p.shape));
    for (const shape of [
      'is',
      'possessive',
      'from-to',
      'replaced',
      'no-longer',
      'correction',
      'actually',
      'ownership',
      'location',
      'preference',
      'decision',
      'schedule',
      'name',
      'number',
    ]) {
      expect(shapes, shape).toContain(shape);
    }
  });

  it('development set: detection ≥ 0.95, false supersession ≤ 0.02, agreement ≥ 0.8, no restatement superseded', () => {
    const sets = { corrections: CORRECTION_PAIRS, compatible: COMPATIBLE_PAIRS, agreeing: AGREEING_PAIRS };
    const rates = evaluate(sets);
    report('development set', sets, rates);
    expect(rates.detection).toBeGreaterThanOrEqual(0.95);
    expect(rates.falseSupersession).toBeLessThanOrEqual(0.02);
    expect(rates.agreement).toBeGreaterThanOrEqual(0.8);
    expect(rates.agreeingSuperseded).toBe(0);
  });

  it('tuning probes (regression): detection ≥ 0.9, false supersession ≤ 0.02, agreement ≥ 0.8', () => {
    const sets = { corrections: PROBE_CORRECTIONS, compatible: PROBE_COMPATIBLE, agreeing: PROBE_AGREEING };
    const rates = evaluate(sets);
    report('tuning probes', sets, rates);
    expect(rates.detection).toBeGreaterThanOrEqual(0.9);
    expect(rates.falseSupersession).toBeLessThanOrEqual(0.02);
    expect(rates.agreement).toBeGreaterThanOrEqual(0.8);
    expect(rates.agreeingSuperseded).toBe(0);
  });
});
