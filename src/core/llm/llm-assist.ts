/**
 * What the optional LLM does for Engram: score importance, judge whether a claim
 * supersedes another, extract facts from conversation turns, write reflections. Each method returns
 * `null` when the LLM is not configured, the use is switched off, or the answer is unusable (timeout,
 * transport failure, malformed or empty JSON) — the caller then takes its deterministic path. Failures
 * are logged and counted, never stored.
 */
import { z } from 'zod';
import type { Llm, LlmMessage } from '../ports/llm.js';
import { noopLogger, type Logger } from '../ports/logger.js';
import { parseJsonAnswer } from './json-answer.js';
import { cutText } from '../text/cut-text.js';

/** The four uses of the LLM, each switchable. */
export interface LlmUses {
  importance: boolean;
  supersession: boolean;
  extraction: boolean;
  reflection: boolean;
}

export const LLM_USES = ['importance', 'supersession', 'extraction', 'reflection'] as const;

/** How the engine uses an LLM: the provider, which uses are on (all by default), where failures go. */
export interface LlmSettings {
  provider: Llm;
  uses?: Partial<LlmUses>;
  logger?: Logger;
}

/** A claim relation as the LLM judges it. */
export interface SupersessionJudgement {
  relation: 'supersedes' | 'agrees' | 'compatible' | 'unrelated';
  confidence: number;
  reason: string;
}

/** A fact extracted from conversation turns, citing the turns it comes from. */
export interface ExtractedFact {
  content: string;
  sourceIds: string[];
  importance: number | null;
}

/** Input of `reflect` (for the sleep cycle's reflection phase). */
export interface ReflectInput {
  scope: string;
  /** 1 first-pass synthesis, 2 meta-reflection, 3 deep insight. */
  level: 1 | 2 | 3;
  records: readonly { id: string; content: string; importance: number | null }[];
  maxInsights?: number;
}

/** A reflection the LLM wrote, with the records it rests on and the importance of its level. */
export interface Insight {
  content: string;
  derivedFrom: string[];
  importance: number;
}

/** Counters since the engine opened. */
export interface LlmStats {
  calls: number;
  failures: number;
}

const LEVEL_IMPORTANCE = { 1: 0.5, 2: 0.7, 3: 0.9 } as const;
const MAX_ITEM_CHARS = 2_000;

const importanceAnswer = z.object({ importance: z.number().min(0).max(1) }).passthrough();
const judgementAnswer = z
  .object({
    relation: z.enum(['supersedes', 'agrees', 'compatible', 'unrelated']),
    confidence: z.number().min(0).max(1),
    reason: z.string().max(2_000).optional(),
  })
  .passthrough();
const nonEmpty = z
  .string()
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => s.length <= 2_000, 'is too long');
const factsAnswer = z
  .object({
    facts: z
      .array(
        z
          .object({ content: nonEmpty, sources: z.array(z.string()).optional(), importance: z.number().min(0).max(1).optional() })
          .passthrough(),
      )
      .max(50),
  })
  .passthrough();
const insightsAnswer = z
  .object({ insights: z.array(z.object({ content: nonEmpty, evidence: z.array(z.string()).min(1) }).passthrough()).max(20) })
  .passthrough();

/**
 * The engine's LLM helper; a Null object when no LLM is configured (every method answers `null`).
 *
 * @example
 * ```ts
 * const insights = await engram.assist.reflect({ scope, level: 1, records });
 * if (insights === null) { // no LLM, switched off, or a bad answer: use the extractive path
 * }
 * ```
 */
export class LlmAssist {
  readonly #llm: Llm | null;
  readonly #uses: Readonly<LlmUses>;
  readonly #logger: Logger;
  readonly #stats: LlmStats = { calls: 0, failures: 0 };

  constructor(settings?: LlmSettings) {
    this.#llm = settings?.provider ?? null;
    const on = this.#llm !== null;
    this.#uses = Object.freeze({
      importance: on && (settings?.uses?.importance ?? true),
      supersession: on && (settings?.uses?.supersession ?? true),
      extraction: on && (settings?.uses?.extraction ?? true),
      reflection: on && (settings?.uses?.reflection ?? true),
    });
    this.#logger = settings?.logger ?? noopLogger;
  }

  /** The provider's name, or null without an LLM. */
  get provider(): string | null {
    return this.#llm?.name ?? null;
  }

  /** Is this use on (an LLM is configured and the use is not switched off)? */
  enabled(use: keyof LlmUses): boolean {
    return this.#uses[use];
  }

  get uses(): Readonly<LlmUses> {
    return this.#uses;
  }

  get stats(): LlmStats {
    return { ...this.#stats };
  }

  /** Importance 0..1 of a memory (seed 004 poignancy), or null. */
  async scoreImportance(text: string): Promise<number | null> {
    if (!this.#uses.importance) return null;
    const answer = await this.#ask(
      'importance',
      [
        {
          role: 'system',
          content:
            'You rate how important a memory is for an assistant that keeps long-term memory about its user and its work. ' +
            'Answer with one JSON object {"importance": x} where x is between 0 and 1: 0 for mundane chit-chat or greetings, ' +
            '0.3 for ordinary details, 0.6 for notable facts, plans or preferences, 0.9 or more for essential facts, firm commitments, safety or life events.',
        },
        { role: 'user', content: clip(text) },
      ],
      importanceAnswer,
    );
    return answer === null ? null : Math.round(answer.importance * 1000) / 1000;
  }

  /** Does `incoming` supersede, agree with, or sit beside `existing`? Or null. */
  async judgeSupersession(incoming: string, existing: string): Promise<SupersessionJudgement | null> {
    if (!this.#uses.supersession) return null;
    const answer = await this.#ask(
      'supersession',
      [
        {
          role: 'system',
          content:
            'You maintain a memory of claims. Given an OLD claim and a NEW claim, decide their relation: ' +
            '"supersedes" if the NEW claim replaces or contradicts the OLD one (same subject and attribute, a changed value, a move, a correction, a retraction); ' +
            '"agrees" if it restates the same thing; "compatible" if both can be true together about the same subject; "unrelated" otherwise. ' +
            'Answer with one JSON object {"relation": "...", "confidence": 0..1, "reason": "short"}.',
        },
        { role: 'user', content: `OLD: ${clip(existing)}\nNEW: ${clip(incoming)}` },
      ],
      judgementAnswer,
    );
    return answer === null ? null : { relation: answer.relation, confidence: answer.confidence, reason: answer.reason ?? '' };
  }

  /** Durable facts stated in conversation turns, each citing its turns; [] when there are none; or null. */
  async extractFacts(turns: readonly { id: string; content: string; speaker?: string }[]): Promise<ExtractedFact[] | null> {
    if (!this.#uses.extraction || turns.length === 0) return null;
    const ids = new Set(turns.map((t) => t.id));
    const answer = await this.#ask(
      'extraction',
      [
        {
          role: 'system',
          content:
            'You extract durable facts worth remembering from conversation turns: preferences, personal facts, plans, decisions, commitments, relationships. ' +
            'Each fact is one self-contained sentence that names its subject (no "I" or "you"), stated or clearly implied by the turns; skip small talk and questions. ' +
            'Answer with one JSON object {"facts": [{"content": "...", "sources": ["<turn id>", ...], "importance": 0..1}]}, or {"facts": []} when there is nothing durable.',
        },
        {
          role: 'user',
          content: turns.map((t) => `[${t.id}]${t.speaker !== undefined ? ` ${t.speaker}:` : ''} ${clip(t.content)}`).join('\n'),
        },
      ],
      factsAnswer,
    );
    if (answer === null) return null;
    const facts: ExtractedFact[] = [];
    for (const fact of answer.facts) {
      const cited = (fact.sources ?? []).filter((id) => ids.has(id));
      // A fact must rest on turns we gave: cite them all when the model cited none we know.
      facts.push({ content: fact.content.trim(), sourceIds: cited.length > 0 ? cited : [...ids], importance: fact.importance ?? null });
    }
    return facts;
  }

  /** Higher-level insights over records, each citing its evidence, or null. */
  async reflect(input: ReflectInput): Promise<Insight[] | null> {
    if (!this.#uses.reflection || input.records.length === 0) return null;
    const ids = new Set(input.records.map((r) => r.id));
    const max = Math.max(1, Math.min(20, input.maxInsights ?? 3));
    const answer = await this.#ask(
      'reflection',
      [
        {
          role: 'system',
          content:
            `You reflect on an agent's memories and write at most ${max} high-level insights ` +
            (input.level === 1
              ? '(patterns and conclusions the memories support)'
              : input.level === 2
                ? '(meta-reflections: what the reflections together show)'
                : '(deep, durable insights about the user, the work or the agent)') +
            '. Each insight is one or two sentences and cites the ids of the memories it rests on. ' +
            'Answer with one JSON object {"insights": [{"content": "...", "evidence": ["<id>", ...]}]}.',
        },
        { role: 'user', content: input.records.map((r) => `[${r.id}] ${clip(r.content)}`).join('\n') },
      ],
      insightsAnswer,
    );
    if (answer === null) return null;
    const insights: Insight[] = [];
    for (const insight of answer.insights.slice(0, max)) {
      const evidence = [...new Set(insight.evidence.filter((id) => ids.has(id)))];
      if (evidence.length === 0) {
        this.#fail('reflection', 'an insight cites no memory it was given; dropped');
        continue;
      }
      insights.push({ content: insight.content.trim(), derivedFrom: evidence, importance: LEVEL_IMPORTANCE[input.level] });
    }
    return insights.length > 0 ? insights : null;
  }

  async #ask<S extends z.ZodType>(use: keyof LlmUses, messages: LlmMessage[], schema: S): Promise<z.output<S> | null> {
    const llm = this.#llm;
    if (llm === null) return null;
    this.#stats.calls += 1;
    let text: string;
    try {
      text = await llm.complete(messages, { json: true, maxTokens: 800 });
    } catch (error) {
      this.#fail(use, (error as Error).message);
      return null;
    }
    const parsed = parseJsonAnswer(text, schema);
    if (!parsed.ok) {
      this.#fail(use, `unusable answer (${parsed.reason})`);
      return null;
    }
    return parsed.value;
  }

  #fail(use: keyof LlmUses, reason: string): void {
    this.#stats.failures += 1;
    this.#logger.warn(`LLM ${use} fell back to the deterministic path: ${reason}`, { use, provider: this.#llm?.name ?? null });
  }
}

function clip(text: string): string {
  return text.length > MAX_ITEM_CHARS ? `${cutText(text, MAX_ITEM_CHARS)}…` : text;
}
