/**
 * LLM work that follows a write, off the write's path: importance scores for records
 * stored with a pending (null) importance, supersession judgements the rules could not make, and
 * facts extracted from conversation turns. Each task falls back on its own: a failed score stores the
 * deterministic one, a failed judgement or extraction changes nothing. `flush` waits for all of it.
 */
import type { MemoryRecord } from '../memory.js';
import { isVisible } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Logger } from '../ports/logger.js';
import type { Store } from '../ports/store.js';
import type { ParsedRememberInput, RememberInput } from '../schemas.js';
import type { ClaimComparison } from '../write/claims/index.js';
import type { RememberResult } from '../write/remember.js';
import { applySupersession, CLAIM_LAYERS, normalize } from '../write/resolve-claim.js';
import { analyzeEmotion, scoreImportance } from '../write/salience/index.js';
import type { LlmAssist } from './llm-assist.js';

/** The LLM must be at least this sure before a claim is superseded on its word. */
const SUPERSEDE_CONFIDENCE = 0.75;
/** Existing claims (nearest by vector) the LLM is asked about, per new claim. */
const JUDGED_NEIGHBOURS = 3;
/** Below this cosine a neighbour is not worth a judgement. */
const MIN_SIMILARITY = 0.35;

export interface FollowUpDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  assist: LlmAssist;
  logger: Logger;
  /** The engine's own write path (extracted facts go through dedup and supersession like any claim). */
  remember: (inputs: RememberInput[]) => Promise<RememberResult[]>;
}

export class LlmFollowUps {
  readonly #deps: FollowUpDeps;
  readonly #pending = new Set<Promise<void>>();

  constructor(deps: FollowUpDeps) {
    this.#deps = deps;
  }

  /** Starts the follow-ups of one `remember` call (returns at once). */
  schedule(inputs: readonly ParsedRememberInput[], results: readonly RememberResult[], importanceDeferred: boolean): void {
    const created = results
      .map((result, index) => ({ result, input: inputs[index] as ParsedRememberInput }))
      .filter((x) => x.result.action === 'created' || x.result.action === 'superseded');
    if (created.length === 0) return;
    const { assist } = this.#deps;
    if (importanceDeferred) this.#track(this.#scoreImportance(created.filter((c) => c.input.importance === undefined)));
    if (assist.enabled('supersession'))
      this.#track(this.#judgeClaims(created.filter((c) => c.result.action === 'created' && CLAIM_LAYERS.has(c.input.layer ?? 'episodic'))));
    // captured turns had their claims read at write time
    if (assist.enabled('extraction'))
      this.#track(this.#extractFacts(created.filter((c) => (c.input.layer ?? 'episodic') === 'episodic' && c.input.capture !== true)));
  }

  /** Resolves when every follow-up started so far has finished. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#deps.logger.warn(`LLM follow-up failed: ${(error as Error).message}`));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  async #scoreImportance(items: { result: RememberResult; input: ParsedRememberInput }[]): Promise<void> {
    const { store, clock, assist } = this.#deps;
    await Promise.all(
      items.map(async ({ result, input }) => {
        const llmScore = await assist.scoreImportance(input.content);
        const importance =
          llmScore ?? scoreImportance(input.content, { emotionIntensity: (input.emotion ?? analyzeEmotion(input.content)).intensity });
        const ids = [result.id, ...(result.chunks ?? [])];
        await store.transaction(async (tx) => {
          for (const record of await tx.getMemories(ids, [input.scope])) {
            // Only a score that is still pending is filled: a person may have set one meanwhile.
            if (record.importance === null) await tx.updateMemory(record.id, record.scope, { importance, updatedAt: clock.now() });
          }
        });
      }),
    );
  }

  async #judgeClaims(items: { result: RememberResult; input: ParsedRememberInput }[]): Promise<void> {
    const { store, embedder, clock, assist } = this.#deps;
    for (const { result, input } of items) {
      const [vector] = await embedder.embed([input.content]);
      const now = clock.now();
      const layer = input.layer ?? 'semantic';
      const near = (
        await store.vectorSearch({
          scopes: [input.scope],
          layers: [layer],
          now,
          limit: JUDGED_NEIGHBOURS + 1,
          vector: vector as Float32Array,
        })
      ).filter((h) => h.id !== result.id && h.score >= MIN_SIMILARITY);
      const records = await store.getMemories([result.id, ...near.map((h) => h.id)], [input.scope]);
      const incoming = records.find((r) => r.id === result.id);
      if (incoming === undefined) continue;
      for (const old of records.filter((r) => r.id !== result.id).slice(0, JUDGED_NEIGHBOURS)) {
        const verdict = await assist.judgeSupersession(incoming.content, old.content);
        if (verdict === null || verdict.relation !== 'supersedes' || verdict.confidence < SUPERSEDE_CONFIDENCE) continue;
        await store.transaction(async (tx) => {
          const [freshOld, freshNew] = await Promise.all([
            tx.getMemories([old.id], [input.scope]),
            tx.getMemories([incoming.id], [input.scope]),
          ]);
          const current = freshOld[0];
          const newer = freshNew[0];
          const at = clock.now();
          if (
            current === undefined ||
            newer === undefined ||
            !isVisible(current, {}, at) ||
            !isVisible(newer, {}, at) ||
            undone(current, newer)
          )
            return;
          const comparison: ClaimComparison = {
            relation: 'supersedes',
            confidence: verdict.confidence,
            reason: `LLM: ${verdict.reason || 'replaces the old claim'}`,
            newSlots: [],
            oldSlots: [],
          };
          await applySupersession(tx, newer, current, comparison, at, embedder);
        });
      }
    }
  }

  async #extractFacts(items: { result: RememberResult; input: ParsedRememberInput }[]): Promise<void> {
    const { store, assist } = this.#deps;
    const byConversation = new Map<string, { scope: string; ids: string[] }>();
    for (const { result, input } of items) {
      const conversation =
        input.source?.conversationId ?? input.provenance?.sources?.find((s) => s.conversationId !== undefined)?.conversationId;
      if (conversation === undefined) continue; // only conversation turns
      const key = `${input.scope}\u0000${conversation}`;
      const group = byConversation.get(key) ?? { scope: input.scope, ids: [] };
      group.ids.push(result.id);
      byConversation.set(key, group);
    }
    for (const { scope, ids } of byConversation.values()) {
      const turns = await store.getMemories(ids, [scope]);
      const facts = await assist.extractFacts(turns.map((t) => ({ id: t.id, content: t.content, ...speakerOf(t) })));
      if (facts === null || facts.length === 0) continue;
      const byId = new Map(turns.map((t) => [t.id, t]));
      await this.#deps.remember(
        facts.map((fact) => {
          const sources = fact.sourceIds.flatMap((id) => byId.get(id)?.provenance.sources ?? []);
          return {
            scope,
            layer: 'semantic' as const,
            content: fact.content,
            ...(fact.importance !== null ? { importance: fact.importance } : {}),
            provenance: { kind: 'episodic' as const, sources: dedupeSources(sources), derivedFrom: fact.sourceIds },
            tags: ['extracted'],
          };
        }),
      );
    }
  }
}

function speakerOf(record: MemoryRecord): { speaker?: string } {
  const speaker =
    typeof record.data.speaker === 'string'
      ? record.data.speaker
      : typeof record.data.role === 'string'
        ? record.data.role
        : record.tags.find((t) => t === 'user' || t === 'assistant');
  return speaker !== undefined ? { speaker } : {};
}

function dedupeSources<T>(sources: readonly T[]): T[] {
  const seen = new Set<string>();
  return sources
    .filter((s) => {
      const key = JSON.stringify(s);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, 100);
}

/** Did a person undo a supersession of `old` by a claim worded like `incoming`? */
function undone(old: MemoryRecord, incoming: MemoryRecord): boolean {
  const wording = normalize(incoming.content);
  return (old.data.exempt?.supersededBy ?? []).some((entry) => entry.wording === wording);
}
