/**
 * Serving, composed on the record facade by `Engram`: the context of a turn (with its rules and
 * profile cache) and pattern completion. The cache follows the facade's writes through
 * {@link Serving.follow}, so the facade never reaches into it.
 */
import { skippingReader } from '../core/readable-records.js';
import type { RecordChange } from '../core/record-change.js';
import type { Embedder } from '../core/ports/embedder.js';
import type { Scheduler } from '../core/ports/scheduler.js';
import type { Stopwatch } from '../core/ports/stopwatch.js';
import type { RecallDeps } from '../core/recall/recall.js';
import { parseInput } from '../core/schemas.js';
import { assertReadScopes, type Scope } from '../core/scope.js';
import { buildContext, ContextCache } from './build-context.js';
import { predictOutcomes } from './predict.js';
import { contextInputSchema, predictInputSchema, type ContextInput, type PredictInput } from './schemas.js';
import type { PredictResult, StructuredContext } from './types.js';

/** The context builder and pattern completion over the facade's current store and model. */
export class Serving {
  readonly #cache = new ContextCache();
  /** Read per call, so a reembed that swaps the store and model is seen by the next build. */
  readonly #deps: () => RecallDeps;
  readonly #timing: { stopwatch: Stopwatch; scheduler: Scheduler };
  /** One warm-up embedding per model: loading a model is not part of any build's budget. */
  readonly #modelReady = new WeakMap<Embedder, Promise<void>>();

  /** `timing`: the stopwatch of the budget and the scheduler of the deadline's timer. */
  constructor(deps: () => RecallDeps, timing: { stopwatch: Stopwatch; scheduler: Scheduler }) {
    this.#deps = deps;
    this.#timing = timing;
  }

  /**
   * A write of the record facade: the cached rules and profile of its scopes are read afresh. A
   * `remember` of episodic or statistical records cannot change them, nor (so far) a Markdown import.
   */
  follow(change: RecordChange): void {
    if (change.kind === 'import') return;
    for (const { scope, layer } of change.records) {
      if (layer === undefined || layer === 'procedural' || layer === 'semantic') this.#cache.invalidate(scope);
    }
  }

  /** Forgets every cached read (the store itself was replaced). */
  invalidateAll(): void {
    this.#cache.invalidate();
  }

  /** See `Engram.context`. */
  async context(input: ContextInput): Promise<StructuredContext> {
    assertReadScopes((input as { scopes?: unknown } | undefined | null)?.scopes);
    const parsed = parseInput(contextInputSchema, input, 'context');
    const deps = this.#deps();
    // The budget starts once the model is loaded: a cold model would spend all of it loading.
    await this.#warmModel(deps.embedder);
    const { store, skipped } = skippingReader(deps.store);
    const result = await buildContext({ ...deps, ...this.#timing, store, cache: this.#cache }, parsed);
    return skipped.length > 0 ? { ...result, skipped: [...skipped] } : result;
  }

  /** Resolves once `embedder` has embedded one text (at once after the first time); a failure is left to recall to report. */
  #warmModel(embedder: Embedder): Promise<void> {
    let ready = this.#modelReady.get(embedder);
    if (ready === undefined) {
      ready = embedder.embed(['warm up the model'], { purpose: 'query' }).then(
        () => undefined,
        () => void this.#modelReady.delete(embedder),
      );
      this.#modelReady.set(embedder, ready);
    }
    return ready;
  }

  /** See `Engram.predict`. */
  async predict(input: PredictInput): Promise<PredictResult> {
    assertReadScopes((input as { scopes?: unknown } | undefined | null)?.scopes);
    const parsed = parseInput(predictInputSchema, input, 'predict');
    const deps = this.#deps();
    return predictOutcomes({ store: deps.store, now: deps.clock.now() }, parsed);
  }

  /** See `Engram.warmContext`. */
  async warm(options: { scopes: readonly Scope[] | Scope; message?: string; percept?: ContextInput['percept'] }): Promise<void> {
    const scopes = assertReadScopes(options?.scopes);
    const probe = {
      message: options.message ?? 'warm up the context builder',
      percept: options.percept ?? { objects: ['warm_up'], goal: 'warm_up' },
    };
    const parsed = parseInput(contextInputSchema, { scopes, ...probe, budgetMs: 60_000 }, 'context');
    await this.#warmModel(this.#deps().embedder);
    await buildContext({ ...this.#deps(), ...this.#timing, cache: this.#cache, trackAccess: false }, parsed);
  }
}
