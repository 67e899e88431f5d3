/**
 * Held-out sanity check (see heldout-pairs.ts). The floors below were fixed before the first run and are
 * deliberately below the development targets: this set measures generalisation, it is not tuned.
 */
import { describe, expect, it } from 'vitest';
import { compareClaims } from '../../../src/core/write/claims/index.js';
import { HELDOUT_COMPATIBLE, HELDOUT_CORRECTIONS } from './heldout-pairs.js';

describe('claim comparison on held-out pairs', () => {
  it('detection ≥ 0.6 and false supersession ≤ 0.1 (rates printed)', () => {
    const lines: string[] = [];
    let detected = 0;
    for (const p of HELDOUT_CORRECTIONS) {
      const r = compareClaims(p.new, p.old);
      if (r.relation === 'supersedes') detected += 1;
      else lines.push(`  missed correction: "${p.old}" → "${p.new}": ${r.relation} (${r.reason})`);
    }
    let falselySuperseded = 0;
    for (const p of HELDOUT_COMPATIBLE) {
      const r = compareClaims(p.new, p.old);
      if (r.relation === 'supersedes') {
        falselySuperseded += 1;
        lines.push(`  false supersession: "${p.old}" → "${p.new}" (${r.reason})`);
      }
    }
    const detection = detected / HELDOUT_CORRECTIONS.length;
    const falseRate = falselySuperseded / HELDOUT_COMPATIBLE.length;
    console.log(
      `held-out: detection ${(detection * 100).toFixed(1)}% (${detected}/${HELDOUT_CORRECTIONS.length}), ` +
        `false supersession ${(falseRate * 100).toFixed(1)}% (${falselySuperseded}/${HELDOUT_COMPATIBLE.length})\n${lines.join('\n')}`,
    );
    expect(detection).toBeGreaterThanOrEqual(0.6);
    expect(falseRate).toBeLessThanOrEqual(0.1);
  });
});
