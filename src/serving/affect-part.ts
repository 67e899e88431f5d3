/**
 * The affect part of a turn's context: the cautions the sleep cycle raised on concepts this turn
 * names (message, perceived objects, people, goal), and the latest mood summary when it is recent.
 * Read from the state documents the affect phase keeps (`affect/cautions`, `affect/mood/latest`), one
 * read per scope.
 */
import type { StoreReader } from '../core/ports/store.js';
import type { Scope } from '../core/scope.js';
import { normalizeTokens } from '../core/text/index.js';
import type { ContextPart } from './types.js';

/** State documents the affect phase writes (src/consolidation/phases/affect.ts). */
const CAUTIONS_KEY = 'affect/cautions';
const MOOD_KEY = 'affect/mood/latest';
/** Cautions shown per turn. */
const MAX_CAUTIONS = 3;
/** A mood summary is shown while its period ended less than this long ago. */
const MOOD_FRESH_MS = 14 * 86_400_000;

/** A caution on a concept this turn names. */
export interface CautionEntry {
  scope: string;
  /** The concept's name, e.g. `orders_db`. */
  concept: string;
  /** The caution record (`data.category: "caution"`). */
  id: string;
  content: string;
  /** Negative outcomes of all those with a known outcome. */
  negatives: number;
  outcomes: number;
  since: string;
}

/** The latest mood summary of a scope. */
export interface MoodEntry {
  scope: string;
  id: string;
  period: string;
  tone: string;
  valence: number;
  intensity: number;
  moods: string[];
  content: string;
}

/** What the affect phase left for this turn. */
export interface AffectRead {
  cautions: CautionEntry[];
  mood: MoodEntry | null;
}

/** The affect part for a turn (cautions on concepts the turn names, most negative first). */
export async function readAffect(
  store: Pick<StoreReader, 'getState' | 'getMemories'>,
  scopes: readonly Scope[],
  turn: { message: string; cues: readonly string[] },
  now: number,
): Promise<AffectRead> {
  const words = new Set([...normalizeTokens(turn.message), ...turn.cues.flatMap((c) => normalizeTokens(c))]);
  const cautions: CautionEntry[] = [];
  let mood: MoodEntry | null = null;
  for (const scope of scopes) {
    const [saved, latest] = await Promise.all([store.getState(scope, CAUTIONS_KEY), store.getState(scope, MOOD_KEY)]);
    const items = ((saved?.value as { items?: unknown } | undefined)?.items ?? []) as {
      concept?: unknown;
      recordId?: unknown;
      content?: unknown;
      k?: unknown;
      n?: unknown;
      since?: unknown;
    }[];
    for (const c of Array.isArray(items) ? items : []) {
      if (typeof c.concept !== 'string' || typeof c.recordId !== 'string' || typeof c.content !== 'string') continue;
      const parts = c.concept.split('_').filter((p) => p.length > 0);
      if (parts.length === 0 || !parts.every((p) => words.has(p))) continue;
      cautions.push({
        scope,
        concept: c.concept,
        id: c.recordId,
        content: c.content,
        negatives: Number(c.k) || 0,
        outcomes: Number(c.n) || 0,
        since: new Date(Number(c.since) || 0).toISOString(),
      });
    }
    const m = latest?.value as
      | {
          recordId?: unknown;
          period?: unknown;
          tone?: unknown;
          valence?: unknown;
          intensity?: unknown;
          moods?: unknown;
          content?: unknown;
          to?: unknown;
        }
      | undefined;
    if (
      m !== undefined &&
      typeof m.recordId === 'string' &&
      typeof m.content === 'string' &&
      typeof m.to === 'number' &&
      now - m.to < MOOD_FRESH_MS &&
      (mood === null || String(m.period) > mood.period)
    ) {
      const moods = Array.isArray(m.moods) ? m.moods.map((x: { mood?: unknown }) => String(x.mood ?? '')).filter((x) => x.length > 0) : [];
      mood = {
        scope,
        id: m.recordId,
        period: String(m.period),
        tone: String(m.tone),
        valence: Number(m.valence) || 0,
        intensity: Number(m.intensity) || 0,
        moods,
        content: m.content,
      };
    }
  }
  // the state keeps a copy of each caution's and the mood's text: served only while its record is
  // current (a forgotten or purged caution, or one whose record another process removed, is not)
  const cited = [...new Set([...cautions.map((c) => c.id), ...(mood !== null ? [mood.id] : [])])];
  const current = new Set(
    cited.length === 0 ? [] : (await store.getMemories(cited, scopes)).filter((r) => r.status === 'active').map((r) => r.id),
  );
  const served = cautions.filter((c) => current.has(c.id));
  served.sort((a, b) => b.negatives / Math.max(1, b.outcomes) - a.negatives / Math.max(1, a.outcomes) || (a.concept < b.concept ? -1 : 1));
  return { cautions: served.slice(0, MAX_CAUTIONS), mood: mood !== null && current.has(mood.id) ? mood : null };
}

/** The Markdown section of the cautions and mood parts (empty when there is nothing to say). */
export function affectLines(cautions: ContextPart<CautionEntry> | undefined, mood: ContextPart<MoodEntry> | undefined): string[] {
  const lines = [...(cautions?.items ?? []).map((c) => `- ${c.content}`), ...(mood?.items ?? []).map((m) => `- ${m.content}`)];
  return lines.length === 0 ? [] : ['', '## Cautions and mood', ...lines];
}
