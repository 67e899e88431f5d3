/**
 * The correction classes the rules used to miss (correction-class-pairs.ts, written before the rules):
 * detection per class printed, false supersession on the compatible look-alikes ≤ 2%.
 */
import { describe, expect, it } from 'vitest';
import { compareClaims } from '../../../src/core/write/claims/index.js';
import { CLASS_COMPATIBLE, CLASS_CORRECTIONS } from './correction-class-pairs.js';

describe('correction classes', () => {
  it('detects the corrections (≥ 0.8) with false supersession ≤ 2% (rates printed)', () => {
    const lines: string[] = [];
    const byShape = new Map<string, [number, number]>();
    let detected = 0;
    for (const p of CLASS_CORRECTIONS) {
      const r = compareClaims(p.new, p.old);
      const [hit, total] = byShape.get(p.shape) ?? [0, 0];
      const ok = r.relation === 'supersedes';
      byShape.set(p.shape, [hit + (ok ? 1 : 0), total + 1]);
      if (ok) detected += 1;
      else lines.push(`  missed: "${p.old}" → "${p.new}": ${r.relation} (${r.reason})`);
    }
    let falselySuperseded = 0;
    for (const p of CLASS_COMPATIBLE) {
      const r = compareClaims(p.new, p.old);
      if (r.relation === 'supersedes') {
        falselySuperseded += 1;
        lines.push(`  false supersession: "${p.old}" → "${p.new}" (${r.reason})`);
      }
    }
    const detection = detected / CLASS_CORRECTIONS.length;
    const falseRate = falselySuperseded / CLASS_COMPATIBLE.length;
    const perShape = [...byShape].map(([shape, [hit, total]]) => `${shape} ${hit}/${total}`).join(', ');
    console.log(
      `correction classes: detection ${(detection * 100).toFixed(1)}% (${detected}/${CLASS_CORRECTIONS.length}; ${perShape}), ` +
        `false supersession ${(falseRate * 100).toFixed(1)}% (${falselySuperseded}/${CLASS_COMPATIBLE.length})\n${lines.join('\n')}`,
    );
    expect(detection).toBeGreaterThanOrEqual(0.8);
    expect(falseRate).toBeLessThanOrEqual(0.02);
  });
});
