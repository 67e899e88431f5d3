/**
 * The result shapes of the context builder (`StructuredContext`) and of pattern completion
 * (`PredictResult`): plain JSON, so every interface can print them as they are.
 */
import type { SkippedRecord } from '../core/readable-records.js';
import type { ClaimSlot, Layer, SourceRef } from '../core/memory.js';
import type { CautionEntry, MoodEntry } from './affect-part.js';
import type { ProfileFieldsPart } from '../core/profile/profile-fields.js';

export type { KnownProfileField, ProfileFieldsPart } from '../core/profile/profile-fields.js';
import type { ChainMember } from '../core/chains/chain.js';

/**
 * How much of a part the deadline allowed: `full` (everything, fresh), `cached` (stored or cached data,
 * nothing recomputed), `minimal` (the bare minimum), `skipped` (not reached before the deadline).
 */
export type ContextLevel = 'full' | 'cached' | 'minimal' | 'skipped';

/** The names of the parts of a context, in prompt order. */
export const CONTEXT_PARTS = ['rules', 'profile', 'knowledge', 'concepts', 'predictions', 'episodes'] as const;
export type ContextPartName = (typeof CONTEXT_PARTS)[number];

/** One part of the context: its items and the level it reached. */
export interface ContextPart<T> {
  level: ContextLevel;
  items: T[];
}

/**
 * Entries dropped per part to fit `maxTokens`; `cautions` and `mood` go only when one rule and one profile
 * fact do not fit, and `profileFields` counts the fields of the profile-schema section then dropped.
 */
export type TrimmedCounts = Partial<Record<ContextPartName | 'cautions' | 'mood' | 'profileFields' | 'chains', number>>;

/** A procedural rule: always in context for its scope, highest priority first. */
export interface RuleEntry {
  id: string;
  scope: string;
  content: string;
  priority: number;
}

/** A semantic fact about the user (profile). */
export interface ProfileEntry {
  id: string;
  scope: string;
  content: string;
  claim?: ClaimSlot;
  confidence: number;
  importance: number | null;
}

/** Knowledge reached from the message: concepts, facts, statistics, reflections. */
export interface KnowledgeEntry {
  id: string;
  scope: string;
  layer: Layer;
  content: string;
  name?: string;
  score: number;
  /** A direct hit's relevance, 0..1 (as recall gives it); absent for entries reached by activation. */
  relevance?: number;
  /** `recall`: a direct hit; `activation`: reached by spreading activation from the hits. */
  via: 'recall' | 'activation';
}

/** A relation of a perceived concept to another record. */
export interface ConceptRelation {
  type: string;
  direction: 'out' | 'in';
  id: string;
  name: string;
  weight: number;
}

/** A statistic about a concept: stored (a statistical record) or freshly computed (`fresh`). */
export interface ConceptStatistic {
  /** The statistical record: the stored statistic, or the one a fresh value replaces. */
  id?: string;
  verbal: string;
  fresh: boolean;
}

/** Fresh grounding of a concept over its episodes (level `full` only). */
export interface ConceptGrounding {
  episodes: number;
  successRate?: { k: number; n: number; rate: number };
  salience?: { mean: number; std: number };
  novelty?: { mean: number; std: number };
}

/** A perceived object, person or goal, matched to a concept. */
export interface ConceptEntry {
  id: string;
  scope: string;
  name: string;
  category: string | null;
  episodeCount: number;
  level: Exclude<ContextLevel, 'skipped'>;
  /** What it was matched from, e.g. `object:coffee_mug`, `goal:grasp_mug`. */
  matchedBy: string[];
  relations?: ConceptRelation[];
  statistics?: ConceptStatistic[];
  grounding?: ConceptGrounding;
}

/** One predicted action and outcome of a forming episode (pattern completion). */
export interface Prediction {
  /** The action taken in the matching past episodes (tool, else intent). */
  action: string;
  outcome: 'success' | 'failure';
  /** Weighted share of successes among the supporting episodes with a known outcome. */
  successProbability: number;
  /** 0..1: episode confidence (1 full, 0.3 compressed, or the decision's), match strength, sample size. */
  confidence: number;
  supportingEpisodeIds: string[];
  /** Number of supporting episodes. */
  support: number;
  meanReward?: number;
}

/** A relevant past episode with where it came from. */
export interface EpisodeEntry {
  id: string;
  scope: string;
  content: string;
  occurredAt: string | null;
  score: number;
  /** How strongly the episode matches the message, 0..1 (recall's hit relevance). */
  relevance: number;
  sources: SourceRef[];
  sessionId?: string;
  outcome?: { success?: boolean; reward?: number; detail?: string };
  /** A claim captured from this episode was superseded and is no longer current: the claim that corrected it. */
  correctedBy?: { id: string; content: string };
}

/** A decision chain reached from the message's hits (`chains: true`): its members in chain order. */
export interface ChainEntry {
  /** The first member's id. */
  id: string;
  scope: string;
  members: ChainMember[];
}

/** What `context` returns: the parts, their levels, timings, and the Markdown to put in a prompt. */
export interface StructuredContext {
  scopes: string[];
  message: string;
  budgetMs: number;
  elapsedMs: number;
  maxTokens: number;
  /** Approximate tokens (characters / 4) of `markdown`. */
  tokens: number;
  parts: {
    rules: ContextPart<RuleEntry>;
    profile: ContextPart<ProfileEntry>;
    knowledge: ContextPart<KnowledgeEntry>;
    concepts: ContextPart<ConceptEntry>;
    predictions: ContextPart<Prediction>;
    episodes: ContextPart<EpisodeEntry>;
    /** Cautions the sleep cycle raised on concepts this turn names (its affect phase). */
    cautions: ContextPart<CautionEntry>;
    /** The latest mood summary, when its period ended in the last 14 days (at most one). */
    mood: ContextPart<MoodEntry>;
    /**
     * Present when the scopes have a profile schema: the fields the user's facts answer (`known`) and
     * those still to ask for (`missing`), with the level of the reads it rests on.
     */
    profileFields?: ProfileFieldsPart & { level: ContextLevel };
    /** Only with `chains: true`: the decision chains of the hits, whole; rendered after the episodes. */
    chains?: ContextPart<ChainEntry>;
  };
  /** Entries dropped per part to fit `maxTokens`. */
  trimmed: TrimmedCounts;
  markdown: string;
  /** Records left out because their stored values could not be read; forget or fix them by id. */
  skipped?: SkippedRecord[];
}

/** What `predict` returns. */
export interface PredictResult {
  predictions: Prediction[];
  matched: { tokens: string[]; concepts: { id: string; name: string }[] };
  /** Past episodes considered (matching the forming episode). */
  considered: number;
}
