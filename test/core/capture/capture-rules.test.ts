/**
 * Rule-based capture on the labelled set: precision ≥ 0.9 and recall ≥ 0.7 on the dev part and on both
 * held-out parts (never tuned on). The figures are printed.
 */
import { describe, expect, it } from 'vitest';
import { captureClaims } from '../../../src/core/write/capture/index.js';
import { DEV_TURNS, FRESH_TURNS, HELDOUT_TURNS, type LabelledTurn } from '../../fixtures/capture/turns.js';
import { scoreSet } from './capture-evaluation.js';

const extract = (turn: LabelledTurn): string[] => captureClaims({ content: `${turn.role}: ${turn.text}` });

function report(name: string, turns: readonly LabelledTurn[]): { precision: number; recall: number } {
  const score = scoreSet(turns, extract);
  const lines = score.turns.flatMap((t) => [
    ...t.wrong.map((w) => `  wrong: ${w}   ⟵ ${JSON.stringify(t.turn.text)}`),
    ...t.missed.map((m) => `  missed: ${m}   ⟵ predicted ${JSON.stringify(t.predicted)}`),
  ]);
  console.log(
    `${name}: ${turns.length} turns, precision ${score.precision.toFixed(3)} (${score.correct}/${score.predicted}), recall ${score.recall.toFixed(3)} (${score.found}/${score.expected})\n${lines.join('\n')}`,
  );
  return score;
}

describe('capture rules on the labelled turns', () => {
  it('dev part: precision ≥ 0.9, recall ≥ 0.7', () => {
    const score = report('dev', DEV_TURNS);
    expect(score.precision).toBeGreaterThanOrEqual(0.9);
    expect(score.recall).toBeGreaterThanOrEqual(0.7);
  });
  it('held-out part: precision ≥ 0.9, recall ≥ 0.7', () => {
    const score = report('held-out', HELDOUT_TURNS);
    expect(score.precision).toBeGreaterThanOrEqual(0.9);
    expect(score.recall).toBeGreaterThanOrEqual(0.7);
  });
  it('second held-out part: precision ≥ 0.9, recall ≥ 0.7', () => {
    const score = report('held-out (second)', FRESH_TURNS);
    expect(score.precision).toBeGreaterThanOrEqual(0.9);
    expect(score.recall).toBeGreaterThanOrEqual(0.7);
  });
});
