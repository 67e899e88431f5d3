/**
 * Pattern completion (seed 000 PatternCompleter): from a forming episode (perception and
 * context, no decision yet) → matching concepts → the episodes they refer to → those episodes' actions
 * and outcomes → predictions with a success probability, a confidence and the supporting episode ids.
 *
 * Each past episode weighs w = episode confidence × match strength, where episode confidence is the
 * decision's confidence (default 1) for a full episode and 0.3 for a compressed one, and match strength
 * is the share of the matched concepts that refer to it. Only the best-matching episodes count (match ≥
 * 3/4 of the best), so "grasp mug" is predicted from grasping mugs, not from every grasp. Per action:
 * successProbability = Σ w·success / Σ w over episodes with a known outcome (success, else reward > 0);
 * confidence = mean episode confidence × mean match × n / (n + 1).
 */
import type { MemoryRecord } from '../core/memory.js';
import { isVisible } from '../core/memory.js';
import type { Store } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';
import { cuesOf, matchConcepts, type MatchedConcept } from './concept-lookup.js';
import type { ParsedPredictInput } from './schemas.js';
import type { Prediction, PredictResult } from './types.js';
import { isCompressed, isEpisode } from '../core/record-kinds.js';

/** Confidence of a compressed episode's fields (seed 000: less certain than full episodic recall). */
export const COMPRESSED_EPISODE_CONFIDENCE = 0.3;
/** Episodes matching less than this share of the best match are left out. */
const RELATIVE_MATCH = 0.75;
/** At most this many episodes are read per prediction. */
const EPISODE_LIMIT = 1_000;

export interface PredictDeps {
  store: Store;
  now: number;
}

/** Predicts actions and outcomes for a forming episode. Input is validated. */
export async function predictOutcomes(deps: PredictDeps, input: ParsedPredictInput): Promise<PredictResult> {
  const { episode } = input;
  const cues = cuesOf({
    objects: episode.perception?.objects ?? [],
    people: episode.perception?.people ?? [],
    ...(episode.context?.goal !== undefined ? { goal: episode.context.goal } : {}),
    ...(episode.action?.tool !== undefined ? { tool: episode.action.tool } : {}),
    ...(episode.decision?.intent !== undefined ? { intent: episode.decision.intent } : {}),
  });
  const concepts = await matchConcepts(deps.store, input.scopes, cues, deps.now);
  return predictFromConcepts(deps, input.scopes, concepts, input.limit);
}

/** The second half of pattern completion, shared with the context builder: concepts → predictions. */
export async function predictFromConcepts(
  deps: PredictDeps,
  scopes: readonly Scope[],
  concepts: readonly MatchedConcept[],
  limit: number,
  episodeLimit = EPISODE_LIMIT,
): Promise<PredictResult> {
  const matched = {
    tokens: [...new Set(concepts.map((c) => c.name))],
    concepts: concepts.filter((c) => c.record !== null).map((c) => ({ id: c.id, name: c.name })),
  };
  if (concepts.length === 0) return { predictions: [], matched, considered: 0 };
  const matchCount = new Map<string, number>();
  for (const concept of concepts) for (const id of new Set(concept.episodeIds)) matchCount.set(id, (matchCount.get(id) ?? 0) + 1);
  const ranked = [...matchCount.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1)).slice(0, episodeLimit);
  const records = (
    await deps.store.getMemories(
      ranked.map(([id]) => id),
      scopes,
    )
  ).filter((r) => isEpisode(r) && isVisible(r, {}, deps.now) && hasActionOrOutcome(r));
  const best = Math.max(0, ...records.map((r) => matchCount.get(r.id) ?? 0));
  const considered = records.filter((r) => (matchCount.get(r.id) ?? 0) >= best * RELATIVE_MATCH);
  const groups = new Map<string, { record: MemoryRecord; match: number }[]>();
  for (const record of considered) {
    const action = actionOf(record);
    const match = (matchCount.get(record.id) ?? 0) / concepts.length;
    groups.set(action, [...(groups.get(action) ?? []), { record, match }]);
  }
  const predictions = [...groups.entries()]
    .map(([action, members]) => summarize(action, members))
    .filter((p): p is Prediction & { weight: number } => p !== null)
    .sort((a, b) => b.weight - a.weight || b.confidence - a.confidence || (a.action < b.action ? -1 : 1))
    .slice(0, limit)
    .map(({ weight: _weight, ...p }) => p);
  return { predictions, matched, considered: considered.length };
}

function hasActionOrOutcome(record: MemoryRecord): boolean {
  const d = record.data;
  return d.action?.tool !== undefined || d.decision?.intent !== undefined || successOf(record) !== undefined;
}

/** The action of a past episode: its tool, else its intent, else its goal. */
function actionOf(record: MemoryRecord): string {
  const d = record.data;
  return d.action?.tool ?? d.decision?.intent ?? d.context?.goal ?? 'unknown';
}

function successOf(record: MemoryRecord): boolean | undefined {
  const outcome = record.data.outcome;
  if (outcome?.success !== undefined) return outcome.success;
  if (outcome?.reward !== undefined) return outcome.reward > 0;
  return undefined;
}

/** How much a past episode's fields are trusted: 0.3 compressed, else the decision's confidence (1). */
export function episodeConfidence(record: MemoryRecord): number {
  if (isCompressed(record)) return COMPRESSED_EPISODE_CONFIDENCE;
  const c = record.data.decision?.confidence;
  return typeof c === 'number' && Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : 1;
}

function summarize(action: string, members: readonly { record: MemoryRecord; match: number }[]): (Prediction & { weight: number }) | null {
  let weight = 0;
  let successWeight = 0;
  let confidenceSum = 0;
  let matchSum = 0;
  const rewards: number[] = [];
  for (const { record, match } of members) {
    const c = episodeConfidence(record);
    confidenceSum += c;
    matchSum += match;
    const success = successOf(record);
    if (success !== undefined) {
      weight += c * match;
      if (success) successWeight += c * match;
    }
    if (typeof record.data.outcome?.reward === 'number') rewards.push(record.data.outcome.reward);
  }
  if (weight === 0) return null;
  const n = members.length;
  const p = successWeight / weight;
  const prediction: Prediction & { weight: number } = {
    action,
    outcome: p >= 0.5 ? 'success' : 'failure',
    successProbability: round(p),
    confidence: round((confidenceSum / n) * (matchSum / n) * (n / (n + 1))),
    supportingEpisodeIds: members.map((m) => m.record.id).sort(),
    support: n,
    weight,
  };
  if (rewards.length > 0) prediction.meanReward = round(rewards.reduce((a, b) => a + b, 0) / rewards.length);
  return prediction;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
