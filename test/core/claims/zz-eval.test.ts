import { test } from 'vitest';
import { compareClaims } from '../../../src/core/write/claims/index.js';
import { CORRECTION_PAIRS, COMPATIBLE_PAIRS, AGREEING_PAIRS } from './pairs.js';

test('eval dump', () => {
  const sets = [['CORR', CORRECTION_PAIRS, 'supersedes'], ['COMP', COMPATIBLE_PAIRS, 'compatible'], ['AGREE', AGREEING_PAIRS, 'agrees']] as const;
  for (const [name, pairs, expected] of sets) {
    const lines: string[] = [];
    for (const p of pairs) {
      const r = compareClaims(p.new, p.old);
      lines.push(`  ${r.relation.slice(0,4)} ${r.confidence.toFixed(2)} | ${p.new} | ${r.reason}`);
    }
    console.log(`${name}\n${lines.join('\n')}`);
  }
});
