/**
 * Rescorla-Wagner associative learning (seed 000): the strength V of a cue → outcome link
 * moves toward λ (1 when the outcome followed, 0 when it did not) by ΔV = αβ(λ − V).
 */

export interface RescorlaWagnerConfig {
  /** Salience of the cue (α), 0..1. */
  alpha: number;
  /** Learning rate of the outcome (β), 0..1. */
  beta: number;
}

export const DEFAULT_RESCORLA_WAGNER: Readonly<RescorlaWagnerConfig> = Object.freeze({ alpha: 0.5, beta: 0.6 });

/** One cue → outcome association: its strength and how often it was observed. */
export class Association {
  #strength = 0;
  #count = 0;
  #hits = 0;
  readonly #rate: number;

  constructor(config: RescorlaWagnerConfig = DEFAULT_RESCORLA_WAGNER) {
    this.#rate = config.alpha * config.beta;
  }

  /** Learns from one trial: did the outcome follow the cue? Returns ΔV. */
  observe(outcomeFollowed: boolean): number {
    const lambda = outcomeFollowed ? 1 : 0;
    const delta = this.#rate * (lambda - this.#strength);
    this.#strength += delta;
    this.#count += 1;
    if (outcomeFollowed) this.#hits += 1;
    return delta;
  }

  /** Associative strength V, 0..1. */
  get strength(): number {
    return this.#strength;
  }

  /** Trials seen. */
  get count(): number {
    return this.#count;
  }

  /** Trials where the outcome followed. */
  get hits(): number {
    return this.#hits;
  }
}

/** Runs a learner over trials in order and returns it. */
export function learn(trials: readonly boolean[], config: RescorlaWagnerConfig = DEFAULT_RESCORLA_WAGNER): Association {
  const association = new Association(config);
  for (const trial of trials) association.observe(trial);
  return association;
}
