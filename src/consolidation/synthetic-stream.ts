/**
 * A seeded synthetic episode stream with planted truths, for tests and benchmarks of promotion:
 * a cue → outcome link, a declining trend, a correlation between two metrics, and pure noise of the
 * same size for each (a coin-flip cue, a flat tool, an unrelated metric pair).
 */
import { seededRandom } from './statistics.js';

/** One generated episode, in the shape `remember` accepts. */
export interface SyntheticEpisode {
  content: string;
  layer: 'episodic';
  occurredAt: number;
  importance: number;
  perception: { objects: string[]; salience: number; novelty: number };
  context: { goal: string; sessionId: string };
  decision: { intent: string; confidence: number };
  action: { tool: string };
  outcome: { success: boolean; reward: number };
}

/** What was planted, so tests can score promotion. */
export interface PlantedTruths {
  /** Cue with a real success link (promote). */
  cue: string;
  /** Cue of the same size at the base rate (do not promote). */
  noiseCue: string;
  /** Tool whose success declines over time (promote a trend). */
  trendTool: string;
  /** Tool of the same size with a flat success rate (no trend). */
  flatTool: string;
  /** Metric pair that correlates (promote). */
  correlated: [string, string];
  /** Metric pairs that do not (no correlation). */
  uncorrelated: [string, string][];
}

export interface SyntheticStreamOptions {
  seed: number;
  /** Episodes of the planted cue and of the noise cue. */
  cueSize?: number;
  /** Success probability of the planted cue (others: 0.5). */
  cueRate?: number;
  /** Episodes of the trend tool and of the flat tool. */
  trendSize?: number;
  /** Start instant (epoch ms) and spacing of episodes. */
  start?: number;
  stepMs?: number;
}

export interface SyntheticStream {
  episodes: SyntheticEpisode[];
  truths: PlantedTruths;
}

/** Generates a stream; the same options always give the same stream. */
export function generateEpisodeStream(options: SyntheticStreamOptions): SyntheticStream {
  const random = seededRandom(options.seed);
  const cueSize = options.cueSize ?? 20;
  const cueRate = options.cueRate ?? 0.9;
  const trendSize = options.trendSize ?? 40;
  const start = options.start ?? Date.UTC(2026, 0, 1);
  const step = options.stepMs ?? 60_000;
  const gauss = () => {
    const u = Math.max(1e-12, random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  const clamp = (x: number) => Math.max(0, Math.min(1, x));

  type Slot = { tool: string; object: string; success: (i: number, n: number) => boolean; goal: string };
  const slots: { slot: Slot; n: number }[] = [
    { slot: { tool: 'grasp', object: 'coffee_mug', goal: 'pick up the coffee mug', success: () => random() < cueRate }, n: cueSize },
    { slot: { tool: 'push', object: 'box', goal: 'push the box aside', success: () => random() < 0.5 }, n: cueSize },
    {
      slot: {
        tool: 'navigate',
        object: 'kitchen',
        goal: 'navigate to the kitchen',
        success: (i, n) => random() < 0.95 - (0.9 * i) / Math.max(1, n - 1),
      },
      n: trendSize,
    },
    { slot: { tool: 'scan', object: 'shelf', goal: 'scan the shelf', success: () => random() < 0.5 }, n: trendSize },
  ];
  // Each slot's episodes keep their own order in time; slots interleave at random.
  const queue: { slot: Slot; i: number; n: number }[] = [];
  for (const { slot, n } of slots) for (let i = 0; i < n; i += 1) queue.push({ slot, i, n });
  const order = queue.map((item) => ({ item, key: (item.i + random()) / item.n }));
  order.sort((a, b) => a.key - b.key);

  const episodes = order.map(({ item }, index) => {
    const { slot } = item;
    const success = slot.success(item.i, item.n);
    const novelty = clamp(random());
    const reward = clamp(0.8 * novelty + 0.1 + 0.12 * gauss());
    const salience = clamp(random());
    const confidence = clamp(random());
    return {
      content: `${slot.goal}: ${slot.tool} ${slot.object} ${success ? 'succeeded' : 'failed'}`,
      layer: 'episodic' as const,
      occurredAt: start + index * step,
      importance: 0.3,
      perception: { objects: [slot.object], salience: round(salience), novelty: round(novelty) },
      context: { goal: slot.goal, sessionId: `s${Math.floor(index / 25)}` },
      decision: { intent: slot.tool, confidence: round(confidence) },
      action: { tool: slot.tool },
      outcome: { success, reward: round(reward) },
    };
  });
  return {
    episodes,
    truths: {
      cue: 'grasp + coffee_mug',
      noiseCue: 'push + box',
      trendTool: 'navigate',
      flatTool: 'scan',
      correlated: ['novelty', 'reward'],
      uncorrelated: [
        ['confidence', 'salience'],
        ['confidence', 'novelty'],
        ['confidence', 'reward'],
        ['novelty', 'salience'],
        ['reward', 'salience'],
      ],
    },
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
