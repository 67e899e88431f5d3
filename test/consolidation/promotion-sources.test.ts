import { describe, expect, it } from 'vitest';
import { baseRateExcluding, binomialNoiseTest, filterCue } from '../../src/consolidation/noise-filter.js';
import type { Observation } from '../../src/consolidation/observations.js';
import {
  correlationCandidates,
  rewardLearningCandidates,
  rewardLearningSource,
  trendCandidates,
  type PromotionCandidate,
} from '../../src/consolidation/promotion-sources.js';
import { generateEpisodeStream, type SyntheticEpisode } from '../../src/consolidation/synthetic-stream.js';

function observationsOf(episodes: readonly SyntheticEpisode[]): Observation[] {
  return episodes.map((e, i) => ({
    id: `e${String(i).padStart(4, '0')}`,
    at: e.occurredAt,
    cue: `${e.action.tool} + ${e.perception.objects[0]}`,
    tool: e.action.tool,
    success: e.outcome.success,
    metrics: {
      salience: e.perception.salience,
      novelty: e.perception.novelty,
      confidence: e.decision.confidence,
      reward: e.outcome.reward,
    },
  }));
}

function trial(cue: string, success: boolean, i: number): Observation {
  return { id: `${cue}-${i}`, at: 1000 + i, cue, tool: cue.split(' + ')[0] ?? null, success, metrics: {} };
}

/** Every candidate of every built-in source for one stream. */
function allCandidates(observations: Observation[]): PromotionCandidate[] {
  return [...rewardLearningCandidates(observations), ...trendCandidates(observations), ...correlationCandidates(observations)];
}

describe('noise filter', () => {
  it('promotes 7 of 8 against a coin-flip base (p ≈ 0.035) and not 2 of 2', () => {
    const seven = binomialNoiseTest(7, 8, 0.5);
    expect(seven.passed).toBe(true);
    expect(seven.pValue).toBeCloseTo(9 / 256, 6);
    const two = binomialNoiseTest(2, 2, 0.5);
    expect(two.passed).toBe(false);
    expect(two.reason).toBe('support');
    expect(binomialNoiseTest(5, 8, 0.5).passed).toBe(false);
  });

  it('takes the base rate from the other cues only, 0.5 when there are none', () => {
    const counts = [
      { cue: 'a', k: 7, n: 8 },
      { cue: 'b', k: 2, n: 10 },
      { cue: 'c', k: 3, n: 10 },
    ];
    expect(baseRateExcluding(counts, 'a')).toBeCloseTo(5 / 20);
    expect(baseRateExcluding([{ cue: 'a', k: 7, n: 8 }], 'a')).toBe(0.5);
    // Against a high base rate, 7/8 is not surprising.
    expect(
      filterCue(
        [
          { cue: 'a', k: 7, n: 8 },
          { cue: 'b', k: 90, n: 100 },
        ],
        'a',
      ).passed,
    ).toBe(false);
  });
});

describe('reward learning source', () => {
  it('promotes a 7-of-8 cue citing its 8 episodes, and not a 2-of-2 streak', async () => {
    const outcomes = [true, true, false, true, true, true, true, true];
    const observations = outcomes.map((s, i) => trial('grasp + coffee_mug', s, i));
    // The scope's other cues succeed half the time: a coin-flip base rate.
    const others = [true, false, true, false, true, false, true, false, true, false].map((s, i) => trial('push + box', s, 50 + i));
    const source = rewardLearningSource(async () => [...observations, ...others]);
    const found = await source.candidates('t/a', 0);
    expect(found.map((c) => c.name)).toEqual(['grasp + coffee_mug → success']);
    const [candidate] = found;
    expect(candidate?.episodes).toEqual(observations.map((o) => o.id));
    expect(candidate?.provenanceKind).toBe('episodic');
    expect(candidate?.evidence).toMatchObject({ k: 7, n: 8 });
    expect(candidate?.content).toContain('7 of 8');
    expect(candidate?.evidence.pValue).toBeCloseTo(9 / 256, 6);
    const streak = [true, true].map((s, i) => trial('wave + hand', s, 100 + i));
    expect(rewardLearningCandidates([...streak, ...others])).toEqual([]);
  });

  it('skips cues with nothing new since the last run', () => {
    const observations = [true, true, true, true, true, true, true, true].map((s, i) => trial('grasp + cup', s, i));
    expect(rewardLearningCandidates(observations, 1000 + 100)).toEqual([]);
    expect(rewardLearningCandidates(observations, 1000 + 7)).toHaveLength(1);
  });
});

describe('statistical pattern source', () => {
  it('finds a planted declining trend and a planted correlation, not the flat tool', () => {
    const { episodes } = generateEpisodeStream({ seed: 7 });
    const found = allCandidates(observationsOf(episodes));
    const trend = found.find((c) => c.kind === 'trend');
    expect(trend?.name).toBe('tool_navigate success declining');
    expect(trend?.statistic?.metric).toMatchObject({ kind: 'trend', subject: 'tool_navigate' });
    expect(Number(trend?.evidence.r2)).toBeGreaterThan(0.6);
    expect(found.some((c) => c.key === 'correlation:novelty:reward')).toBe(true);
    expect(found.some((c) => c.key.startsWith('trend:scan'))).toBe(false);
  });
});

describe('promotion recall and false-promotion rate over generated streams', () => {
  it('recall ≥ 0.9 and false promotions ≤ 5% over 300 seeds', () => {
    let planted = 0;
    let plantedFound = 0;
    let noise = 0;
    let noiseFound = 0;
    const perTruth = { cue: 0, trend: 0, correlation: 0 };
    for (let seed = 1; seed <= 300; seed += 1) {
      const { episodes, truths } = generateEpisodeStream({ seed });
      const keys = new Set(allCandidates(observationsOf(episodes)).map((c) => c.key));
      const hits = {
        cue: keys.has(`reward:${truths.cue}->success`),
        trend: keys.has(`trend:${truths.trendTool}:success`),
        correlation: keys.has(`correlation:${truths.correlated.join(':')}`),
      };
      for (const [name, hit] of Object.entries(hits)) {
        planted += 1;
        if (hit) {
          plantedFound += 1;
          perTruth[name as keyof typeof perTruth] += 1;
        }
      }
      const noiseKeys = [
        `reward:${truths.noiseCue}->success`,
        `trend:${truths.flatTool}:success`,
        ...truths.uncorrelated.map(([a, b]) => `correlation:${a}:${b}`),
      ];
      noise += noiseKeys.length;
      noiseFound += noiseKeys.filter((k) => keys.has(k)).length;
    }
    const recall = plantedFound / planted;
    const falseRate = noiseFound / noise;
    console.log(
      `promotion over 300 streams: recall ${recall.toFixed(3)} (${JSON.stringify(perTruth)}), false-promotion rate ${falseRate.toFixed(4)} (${noiseFound}/${noise})`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.9);
    expect(falseRate).toBeLessThanOrEqual(0.05);
  });
});
