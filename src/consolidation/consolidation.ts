/**
 * The sleep cycle as `Engram` composes it on the record facade: validates the call, resolves the
 * thresholds once, and runs the cycle on the facade's current store and model.
 */
import type { LlmAssist } from '../core/llm/llm-assist.js';
import type { Clock } from '../core/ports/clock.js';
import type { Embedder } from '../core/ports/embedder.js';
import type { LeaseHeartbeat } from '../core/ports/lease-heartbeat.js';
import type { Store } from '../core/ports/store.js';
import type { SystemPorts } from '../core/ports/system.js';
import { parseInput } from '../core/schemas.js';
import { assertScope, type Scope } from '../core/scope.js';
import type { ConsolidationConfig } from './config.js';
import { runConsolidation } from './cycle.js';
import type { ConsolidationDeps } from './phase-context.js';
import type { ConsolidationReport } from './report.js';
import { consolidateInputSchema, endSessionInputSchema, type ConsolidateOptions, type EndSessionOptions } from './schemas.js';

/** What the sleep cycle runs on; `parts` is read per cycle, so a reembed's new store is used. */
export interface ConsolidationParts {
  parts: () => { store: Store; embedder: Embedder; clock: Clock } & SystemPorts;
  /** Writes reflections when its `reflection` use is on; answers null to fall back to extractive. */
  assist: LlmAssist;
  /** The sleep cycle's settings (`resolveConsolidationConfig`). */
  config: ConsolidationConfig;
  heartbeat?: LeaseHeartbeat;
}

/** On-demand and session-end consolidation of one scope. */
export class Consolidation {
  readonly #parts: ConsolidationParts;

  constructor(parts: ConsolidationParts) {
    this.#parts = parts;
  }

  /** See `Engram.consolidate`. */
  async consolidate(options: ConsolidateOptions): Promise<ConsolidationReport> {
    const parsed = parseInput(consolidateInputSchema, options, 'consolidate');
    const scope = assertScope(parsed.scope);
    return runConsolidation(this.#deps(), {
      scope,
      ...(parsed.phases !== undefined ? { phases: parsed.phases } : {}),
      trigger: 'on-demand',
    });
  }

  /** Runs the reflect phase of `scope` because its accumulated importance crossed the threshold (idle reflection); the report's trigger says so. */
  async reflectOnThreshold(scope: Scope): Promise<ConsolidationReport> {
    return runConsolidation(this.#deps(), { scope: assertScope(scope), phases: ['reflect'], trigger: 'threshold' });
  }

  /** See `Engram.endSession`. */
  async endSession(options: EndSessionOptions): Promise<ConsolidationReport> {
    const parsed = parseInput(endSessionInputSchema, options, 'endSession');
    const scope = assertScope(parsed.scope);
    return runConsolidation(this.#deps(), { scope, trigger: 'session-end', sessionId: parsed.sessionId });
  }

  #deps(): ConsolidationDeps {
    const { assist, heartbeat, config } = this.#parts;
    return {
      ...this.#parts.parts(),
      config,
      llm: null,
      ...(heartbeat !== undefined ? { heartbeat } : {}),
      // the LLM assist honours llmUses.reflection and answers null to fall back to extractive
      ...(assist.enabled('reflection') ? { reflect: (input: Parameters<LlmAssist['reflect']>[0]) => assist.reflect(input) } : {}),
    };
  }
}
