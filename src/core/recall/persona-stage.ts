/**
 * Personality-weighted re-ranking (seed 004), the second stage after relevance: each candidate's score
 * is scaled by how much the persona's dispositions favour it. A disposition above 0.5 lifts the
 * memories it favours (its tags, moods and kinds), one below 0.5 lowers them; 0.5 is neutral. Off
 * unless a persona is given, and then the plain order is only changed through this factor.
 */
import { favoursOf, memoryKindsOf, type Persona } from '../persona/persona.js';
import type { MemoryRecord } from '../memory.js';
import type { Candidate } from './scoring.js';

export type { PersonaExplanation } from './scoring.js';

/** How much a tag, mood or kind match counts toward a disposition's match (the best one counts). */
const TAG_MATCH = 1;
const MOOD_MATCH = 0.75;
const KIND_MATCH = 0.5;

/** The affinity of a persona for one record, with what matched. */
export function personaAffinity(persona: Persona, record: MemoryRecord): { affinity: number; matched: string[] } {
  const tags = new Set(record.tags.map((t) => t.toLowerCase()));
  const moods = new Set((record.emotion?.mood ?? []).map((m) => m.toLowerCase()));
  const kinds = memoryKindsOf(record);
  let affinity = 0;
  const matched: string[] = [];
  for (const [disposition, value] of Object.entries(persona.dispositions)) {
    const lean = 2 * value - 1;
    if (lean === 0) continue;
    const favours = favoursOf(persona, disposition);
    const tag = favours.tags?.find((t) => tags.has(t.toLowerCase()));
    const mood = favours.moods?.find((m) => moods.has(m.toLowerCase()));
    const kind = favours.kinds?.find((k) => kinds.has(k.toLowerCase()));
    const match = tag !== undefined ? TAG_MATCH : mood !== undefined ? MOOD_MATCH : kind !== undefined ? KIND_MATCH : 0;
    if (match === 0) continue;
    affinity += lean * match;
    const what = tag !== undefined ? `tag ${tag}` : mood !== undefined ? `mood ${mood}` : `kind ${kind as string}`;
    matched.push(`${disposition} ${value}: ${what}`);
  }
  return { affinity: Math.max(-1, Math.min(1, affinity)), matched };
}

/**
 * Re-ranks `candidates` (sorted by score) by the persona: score × (1 + weight × affinity) for a
 * positive score (÷ for a negative one, so a favoured memory always moves up). Returns new candidates,
 * sorted, each with its explanation; with no persona or weight 0, the same order and scores.
 */
export function personaRerank(candidates: readonly Candidate[], persona: Persona | null, weight: number): Candidate[] {
  if (persona === null || weight <= 0) return [...candidates];
  return candidates
    .map((c) => {
      const { affinity, matched } = personaAffinity(persona, c.record);
      const factor = Math.max(0.05, 1 + weight * affinity);
      const score = c.score >= 0 ? c.score * factor : c.score / factor;
      return { ...c, score, persona: { factor: round(factor), affinity: round(affinity), matched } };
    })
    .sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? -1 : 1));
}

function round(value: number): number {
  return Number(value.toFixed(4));
}
