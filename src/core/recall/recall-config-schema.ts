/**
 * Validation of a recall configuration override (`Engram.open({ recall })`): every key known, every
 * value a finite number in its range (whole numbers for counts), so a typo or a NaN fails at open with a
 * message naming the key instead of ranking silently wrong.
 */
import { z } from 'zod';
import { parseInput } from '../schemas.js';
import type { RecallConfig } from './recall-config.js';

const weight = z.number().finite().min(0).max(100);
const share = z.number().finite().min(0).max(1);
const count = (min: number, max: number) => z.number().int().min(min).max(max);

const shape = {
  k: count(1, 1000),
  candidates: count(1, 10_000),
  candidatesPerHit: count(1, 100),
  entityCandidates: count(0, 10_000),
  fusion: z.enum(['score', 'rrf']),
  rrfK: z.number().finite().min(0).max(10_000),
  lexicalWeight: weight,
  lexicalCoverage: z.number().finite().min(0).max(10),
  bm25K1: z.number().finite().min(0).max(10),
  bm25B: share,
  semanticWeight: weight,
  semanticZScale: z.number().finite().positive().max(100),
  partWeight: share,
  partWidening: count(1, 20),
  shortQueryTerms: count(0, 64),
  shortQuerySemanticWeight: weight,
  shortQueryLexicalCoverage: z.number().finite().min(0).max(10),
  entityWeight: weight,
  participantShare: share,
  participantSample: count(0, 10_000),
  participantMinTurns: count(1, 10_000),
  temporalWeight: weight,
  mentionWeight: weight,
  mentionLagDays: z.number().finite().min(0).max(3650),
  mentionLeadDays: z.number().finite().min(0).max(3650),
  windowOnlyWeight: weight,
  graphWeight: weight,
  affectWeight: weight,
  affectMinIntensity: z.number().finite().min(0).max(10),
  affectValenceShare: share,
  affectMoodShare: share,
  graphSeeds: count(0, 100),
  graphMaxHops: count(0, 10),
  graphDecay: share,
  graphFanOutPower: z.number().finite().min(0).max(4),
  graphThreshold: z.number().finite().min(0).max(1),
  graphMaxFanOut: count(1, 10_000),
  graphMaxNodes: count(1, 100_000),
  neighbourWeight: weight,
  neighbourSameSpeaker: z.number().finite().min(0).max(10),
  neighbourWindow: count(1, 20),
  neighbourDecay: share,
  neighbourAnchors: count(0, 1000),
  neighbourGapMinutes: z.number().finite().min(0).max(525_600),
  questionPenalty: share,
  questionForward: share,
  recencyWeight: weight,
  recencyHalfLifeDays: z.number().finite().positive().max(36_500),
  importanceWeight: weight,
  activationWeight: weight,
  mmrLambda: share,
  rankedPerHit: count(1, 100),
  mmrPoolPerHit: count(1, 100),
  mmrMinPool: count(0, 10_000),
  persona: z.boolean(),
  personaWeight: z.number().finite().min(0).max(10),
} satisfies Record<keyof RecallConfig, z.ZodType>;

const recallOverridesSchema = z.object(shape).partial().strict();

/**
 * The override, checked: throws `INVALID_INPUT` naming each bad key (unknown, not a number, out of range).
 *
 * @example
 * ```ts
 * parseRecallOverrides({ semanticWeight: 0.6 }); // { semanticWeight: 0.6 }
 * parseRecallOverrides({ semanticWieght: 0.6 }); // throws INVALID_INPUT: unknown key
 * ```
 */
export function parseRecallOverrides(value: unknown): Partial<RecallConfig> {
  return parseInput(recallOverridesSchema, value ?? {}, 'recall config') as Partial<RecallConfig>;
}
